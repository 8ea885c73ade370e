// The Travel Rule declaration of who sent a received deposit: the reference's counterparty object; the
// wallet is a search over known wallets or a free-text name, which creates an unverified wallet for review.
import type { KnownWallet } from '../../ports/exchange-port.js';
import { BLOCK, CALLBACK, INPUT } from '../kit/slack-ids.js';
import {
  context,
  input,
  modal,
  option,
  plain,
  radioButtons,
  sandboxBanner,
  section,
  textInput,
  type KnownBlock,
  type ModalView,
  type PlainTextElement,
  type PlainTextOption,
} from '../kit/blocks.js';
import { formatAmount, shortAddress } from '../kit/format.js';
import { code, escapeMrkdwn } from '../kit/mrkdwn.js';
import { LIMITS } from '../kit/limits.js';

export interface CounterpartyViewInput {
  /** Known when opened from a deposit's button or `/counterparty <id>`; otherwise typed in. */
  transactionId?: string;
  deposit?: { asset?: string; amount?: string; transactionHash?: string };
  privateMetadata: string;
  sandbox: boolean;
}

/** Minimum characters typed before Slack asks for wallet options. */
export const WALLET_MIN_QUERY = 2;

export function counterpartyView(v: CounterpartyViewInput): ModalView {
  const blocks: KnownBlock[] = [];
  if (v.sandbox) blocks.push(sandboxBanner(BLOCK.sandboxBanner));
  if (v.transactionId) {
    const d = v.deposit;
    const what = d?.amount ? ` · ${formatAmount(d.amount, escapeMrkdwn(d.asset ?? '', 20))}` : '';
    const hash = d?.transactionHash ? ` · ${code(shortAddress(d.transactionHash, 10, 8), 40)}` : '';
    blocks.push(section(`Declaring the sender of transaction ${code(v.transactionId, 40)}${what}${hash}`));
  } else {
    blocks.push(
      input(
        INPUT.cpTransaction,
        'Transaction id',
        textInput(INPUT.cpTransaction, { placeholder: "the deposit's transaction id (a UUID)", maxLength: 36 }),
        {
          hint: 'From the deposit message in the compliance channel, or /desk deposits.',
        },
      ),
    );
  }
  blocks.push(
    input(
      INPUT.cpEntityType,
      'The sender is',
      radioButtons(INPUT.cpEntityType, [
        option('An individual', 'individual'),
        option('An entity (company, organisation)', 'entity'),
      ]),
    ),
    input(
      INPUT.cpLegalName,
      'Legal name',
      textInput(INPUT.cpLegalName, { maxLength: 200, placeholder: 'Full legal name of the person or entity' }),
    ),
    input(
      INPUT.cpOwnership,
      'Whose wallet sent it',
      radioButtons(INPUT.cpOwnership, [
        option('Our own (first party)', 'first_party', 'Same party as the originator'),
        option("Someone else's (third party)", 'third_party'),
      ]),
    ),
    input(INPUT.cpDocumentNumber, 'Identity document number', textInput(INPUT.cpDocumentNumber, { maxLength: 100 }), {
      optional: true,
    }),
    section('*Address* (optional; once any line is filled the country code is required)'),
    input(INPUT.cpAddress1, 'Address line 1', textInput(INPUT.cpAddress1, { maxLength: 200 }), { optional: true }),
    input(INPUT.cpAddress2, 'Address line 2', textInput(INPUT.cpAddress2, { maxLength: 200 }), { optional: true }),
    input(INPUT.cpPostcode, 'Postcode', textInput(INPUT.cpPostcode, { maxLength: 20 }), { optional: true }),
    input(INPUT.cpDistrict, 'District', textInput(INPUT.cpDistrict, { maxLength: 100 }), { optional: true }),
    input(INPUT.cpRegion, 'Region', textInput(INPUT.cpRegion, { maxLength: 100 }), { optional: true }),
    input(
      INPUT.cpCountryCode,
      'Country code',
      textInput(INPUT.cpCountryCode, { maxLength: 2, placeholder: 'two letters, e.g. SG' }),
      {
        optional: true,
        hint: 'ISO 3166-1 alpha-2: SG, GB, US…',
      },
    ),
    section('*Wallet* the funds came from'),
    input(
      INPUT.cpWallet,
      'Known wallet or exchange',
      {
        type: 'external_select',
        action_id: INPUT.cpWallet,
        placeholder: { type: 'plain_text', text: 'Type to search the known wallets' },
        min_query_length: WALLET_MIN_QUERY,
      },
      { optional: true, hint: `Lists at most ${LIMITS.selectOptions} matches: type more of the name to narrow them.` },
    ),
    input(INPUT.cpWalletName, 'Or, if it is not listed, its name', textInput(INPUT.cpWalletName, { maxLength: 200 }), {
      optional: true,
    }),
    context(
      [
        ':warning: A name typed here creates a new *unverified* wallet at the exchange and starts a compliance review. Search the list first.',
      ],
      BLOCK.cpWalletWarning,
    ),
  );
  return modal(blocks, {
    callbackId: CALLBACK.counterparty,
    title: 'Counterparty',
    submit: 'Declare',
    privateMetadata: v.privateMetadata,
  });
}

export type WalletChoice = Pick<KnownWallet, 'id' | 'name' | 'type'> & Partial<Pick<KnownWallet, 'riskLevel'>>;

const RISK_LABEL = { low: 'low risk', medium: 'medium risk', high: 'HIGH risk' } as const;

/** Options for the wallet search: "Name", described by type and risk level (the first 100 matches). */
export function walletOptions(wallets: readonly WalletChoice[]): PlainTextOption[] {
  return wallets.slice(0, LIMITS.selectOptions).map((w) => {
    const kind = w.type === 'hosted' ? 'hosted (exchange or custodian)' : 'private wallet';
    return option(w.name, w.id, w.riskLevel ? `${kind} · ${RISK_LABEL[w.riskLevel]}` : kind);
  });
}

/** Past Slack's 100 options, the first 100 in one group whose label says how many matched and to type more. */
export function walletSearchAnswer(
  wallets: readonly WalletChoice[],
): { options: PlainTextOption[] } | { option_groups: { label: PlainTextElement; options: PlainTextOption[] }[] } {
  const options = walletOptions(wallets);
  if (wallets.length <= options.length) return { options };
  return {
    option_groups: [
      {
        label: plain(
          `First ${options.length} of ${wallets.length} matches: type more to narrow`,
          LIMITS.optionGroupLabel,
        ),
        options,
      },
    ],
  };
}
