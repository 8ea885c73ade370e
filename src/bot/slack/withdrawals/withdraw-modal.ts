// The /withdraw modals (choice, crypto form, fiat form), built from the exchange's data and the choices so
// far; rebuilt with views.update when a choice changes the rest.
import { labelParts, shownLabel } from '../kit/display-text.js';
import { moreOptionsHint } from '../kit/cut-lists.js';
import { MAX_NOTE_LENGTH } from '../../domain/request.js';
import { ACTION, BLOCK, CALLBACK, dynamicBlockId, INPUT } from '../kit/slack-ids.js';
import {
  actions,
  button,
  context,
  input,
  modal,
  option,
  sandboxBanner,
  section,
  staticSelect,
  textInput,
  type KnownBlock,
  type ModalView,
} from '../kit/blocks.js';
import { formatAmount, relativeTime, shortAddress } from '../kit/format.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';

/** The domain's bound on free text (note, purpose), so the modal never accepts what the engine refuses. */
export const NOTE_MAX = MAX_NOTE_LENGTH;
export const PURPOSE_MAX = MAX_NOTE_LENGTH;

export function withdrawChoiceView(privateMetadata: string, sandbox: boolean): ModalView {
  const blocks: KnownBlock[] = [];
  if (sandbox) blocks.push(sandboxBanner(BLOCK.sandboxBanner));
  blocks.push(section('What do you want to withdraw?'));
  blocks.push(
    actions(
      [button('Crypto', ACTION.withdrawChooseCrypto, 'crypto'), button('Fiat', ACTION.withdrawChooseFiat, 'fiat')],
      BLOCK.withdrawChoice,
    ),
  );
  return modal(blocks, { callbackId: CALLBACK.withdrawChoice, title: 'Withdraw', close: 'Cancel', privateMetadata });
}

export interface CryptoEntryOption {
  /** The exchange's numeric crypto_currency_id (one per asset and network). */
  id: number;
  asset: string;
  network: string;
  precision: number;
  fee: string;
  minimum?: string;
  available: string;
}

export interface DestinationOption {
  id: string;
  label: string;
  address: string;
  addressTag?: string | null;
  verified: boolean;
  cooldownUntil?: number | null;
}

/** Shown under the amount once the domain accepts it, as the domain worked it out. */
export interface WithdrawSummary {
  currency: string;
  amount: string;
  fee: string;
  total: string;
}

export interface CryptoWithdrawViewInput {
  entries: readonly CryptoEntryOption[];
  selectedEntryId?: number;
  /** Saved addresses for the selected entry's network. */
  destinations: readonly DestinationOption[];
  summary?: WithdrawSummary;
  /** Shown instead of the summary when the typed amount does not check out. */
  summaryError?: string;
  now: number;
  privateMetadata: string;
  sandbox: boolean;
}

export function cryptoWithdrawView(v: CryptoWithdrawViewInput): ModalView {
  const blocks: KnownBlock[] = [];
  if (v.sandbox) blocks.push(sandboxBanner(BLOCK.sandboxBanner));
  const entry = v.entries.find((e) => e.id === v.selectedEntryId);
  const entryOptions = v.entries.map((e) =>
    option(
      `${e.asset} · ${e.network}`,
      String(e.id),
      `available ${formatAmount(e.available)} · fee ${formatAmount(e.fee)}`,
    ),
  );
  if (entryOptions.length === 0) {
    blocks.push(section('No crypto currency can be withdrawn from this account.'));
    return modal(blocks, {
      callbackId: CALLBACK.withdrawCrypto,
      title: 'Crypto withdrawal',
      close: 'Close',
      privateMetadata: v.privateMetadata,
    });
  }
  blocks.push(
    input(
      INPUT.withdrawEntry,
      'Currency and network',
      staticSelect(
        INPUT.withdrawEntry,
        entryOptions,
        'Choose an asset and network',
        entry ? String(entry.id) : undefined,
      ),
      {
        dispatchAction: true,
        ...hint(moreOptionsHint(entryOptions.length, 'currencies and networks', '/balances shows every asset.')),
      },
    ),
  );
  if (entry) {
    const min = entry.minimum ? ` · minimum ${formatAmount(entry.minimum, esc(entry.asset))}` : '';
    blocks.push(
      context([
        `Available *${formatAmount(entry.available, esc(entry.asset))}* · fee ${formatAmount(entry.fee, esc(entry.asset))}${min} · up to ${entry.precision} decimals`,
      ]),
    );
    blocks.push(...destinationBlocks(entry, v.destinations, v.now));
  }
  blocks.push(
    input(
      INPUT.withdrawAmount,
      'Amount',
      textInput(INPUT.withdrawAmount, { placeholder: 'e.g. 0.25', maxLength: 40, dispatchOnEnter: true }),
      {
        hint: 'Digits and a point. Press Enter to see the fee and the total.',
        dispatchAction: true,
      },
    ),
  );
  if (v.summary) blocks.push(summaryBlock(v.summary));
  else if (v.summaryError)
    blocks.push(section(`:warning: ${escapeMrkdwn(v.summaryError, 500)}`, BLOCK.withdrawSummary));
  blocks.push(
    input(
      INPUT.withdrawPurpose,
      'Purpose',
      textInput(INPUT.withdrawPurpose, { placeholder: 'e.g. settlement with a counterparty', maxLength: PURPOSE_MAX }),
      { optional: true },
    ),
  );
  blocks.push(
    input(
      INPUT.withdrawNote,
      'Note for the approvers',
      textInput(INPUT.withdrawNote, { multiline: true, maxLength: NOTE_MAX }),
      { optional: true },
    ),
  );
  return modal(blocks, {
    callbackId: CALLBACK.withdrawCrypto,
    title: 'Crypto withdrawal',
    submit: 'Ask for approval',
    privateMetadata: v.privateMetadata,
  });
}

function destinationBlocks(
  entry: CryptoEntryOption,
  destinations: readonly DestinationOption[],
  now: number,
): KnownBlock[] {
  if (destinations.length === 0) {
    return [
      section(
        `No saved address for ${esc(entry.asset)} on ${esc(entry.network)}. Addresses are added and verified in the exchange's mobile app; the API cannot add them.`,
      ),
    ];
  }
  const options = destinations.map((d) => destinationOption(d, now));
  const more = moreOptionsHint(
    options.length,
    'saved addresses for this network',
    "the exchange's mobile app shows the whole address book.",
  );
  return [
    input(
      dynamicBlockId.withdrawDestination(entry.id),
      'Destination',
      staticSelect(INPUT.withdrawDestination, options, 'Choose a saved address'),
      hint(more),
    ),
  ];
}

/** "Cold wallet · 0x1234…5678"; a label mixing scripts is marked first, with the scripts named in the description. */
function destinationOption(d: DestinationOption, now: number) {
  const { line, warning } = labelParts(d.label);
  const state = destinationState(d, now);
  return option(
    `${warning ? '⚠ ' : ''}${line} · ${shortAddress(d.address)}`,
    d.id,
    warning ? `${warning} · ${state}` : state,
  );
}

/** "verified", "not verified", "verified · cooldown ends in 2 h" (plain text: a duration reads the same in every zone). */
export function destinationState(d: DestinationOption, now: number): string {
  const verified = d.verified ? 'verified' : 'not verified: verify it in the mobile app';
  if (d.cooldownUntil && d.cooldownUntil > now)
    return `${verified} · cooldown ends ${relativeTime(d.cooldownUntil, now)}`;
  return verified;
}

function summaryBlock(s: WithdrawSummary): KnownBlock {
  const c = esc(s.currency);
  return section(
    `Amount *${formatAmount(s.amount, c)}* + fee ${formatAmount(s.fee, c)} = total *${formatAmount(s.total, c)}*`,
    BLOCK.withdrawSummary,
  );
}

export interface FiatCurrencyOption {
  currency: string;
  fee: string;
  minimum: string;
  maximum: string;
  available: string;
}

export interface BankOption {
  id: number;
  /** e.g. "DBS USD ••••6789 (ACME PTE LTD)" (domain bankAccountDisplay). */
  display: string;
  verified?: boolean;
}

export interface FiatWithdrawViewInput {
  currencies: readonly FiatCurrencyOption[];
  selectedCurrency?: string;
  /** Bank accounts for the selected currency. */
  banks: readonly BankOption[];
  summary?: WithdrawSummary;
  summaryError?: string;
  privateMetadata: string;
  sandbox: boolean;
}

export function fiatWithdrawView(v: FiatWithdrawViewInput): ModalView {
  const blocks: KnownBlock[] = [];
  if (v.sandbox) blocks.push(sandboxBanner(BLOCK.sandboxBanner));
  if (v.currencies.length === 0) {
    blocks.push(section('No fiat currency is enabled for withdrawals on this account.'));
    return modal(blocks, {
      callbackId: CALLBACK.withdrawFiat,
      title: 'Fiat withdrawal',
      close: 'Close',
      privateMetadata: v.privateMetadata,
    });
  }
  const selected = v.currencies.find((c) => c.currency === v.selectedCurrency);
  const options = v.currencies.map((c) =>
    option(c.currency, c.currency, `available ${formatAmount(c.available)} · fee ${formatAmount(c.fee)}`),
  );
  blocks.push(
    input(
      INPUT.fiatCurrency,
      'Currency',
      staticSelect(INPUT.fiatCurrency, options, 'Choose a currency', selected?.currency),
      { dispatchAction: true, ...hint(moreOptionsHint(options.length, 'currencies', '/desk fiat shows them all.')) },
    ),
  );
  if (selected) {
    const c = esc(selected.currency);
    blocks.push(
      context([
        `Available *${formatAmount(selected.available, c)}* · fee ${formatAmount(selected.fee, c)} · from ${formatAmount(selected.minimum, c)} to ${formatAmount(selected.maximum, c)}`,
      ]),
    );
    if (v.banks.length === 0) {
      blocks.push(section(`No bank account for ${c} on this account. Bank accounts are added on the exchange.`));
    } else {
      const bankOptions = v.banks.map((b) =>
        option(
          shownLabel(b.display),
          String(b.id),
          b.verified === false ? 'self-added, not verified by the exchange' : undefined,
        ),
      );
      const more = moreOptionsHint(
        bankOptions.length,
        `${selected.currency} bank accounts`,
        `/desk banks ${selected.currency} lists them all.`,
      );
      blocks.push(
        input(
          dynamicBlockId.fiatBank(selected.currency),
          'Bank account',
          staticSelect(INPUT.fiatBank, bankOptions, 'Choose a bank account'),
          hint(more),
        ),
      );
    }
  }
  blocks.push(
    input(
      INPUT.fiatAmount,
      'Amount',
      textInput(INPUT.fiatAmount, { placeholder: 'e.g. 2500', maxLength: 40, dispatchOnEnter: true }),
      {
        hint: 'Digits and a point. Press Enter to see the fee and the total.',
        dispatchAction: true,
      },
    ),
  );
  if (v.summary) blocks.push(summaryBlock(v.summary));
  else if (v.summaryError)
    blocks.push(section(`:warning: ${escapeMrkdwn(v.summaryError, 500)}`, BLOCK.withdrawSummary));
  return modal(blocks, {
    callbackId: CALLBACK.withdrawFiat,
    title: 'Fiat withdrawal',
    submit: 'Ask for approval',
    privateMetadata: v.privateMetadata,
  });
}

const esc = (t: string): string => escapeMrkdwn(t, 100);

function hint(text: string | undefined): { hint?: string } {
  return text === undefined ? {} : { hint: text };
}
