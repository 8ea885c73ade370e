// The deposit's message and thread lines in the compliance channel: pure builders, every outside text
// escaped for mrkdwn and cut to Block Kit's limits.
import type { DeclarationDone, DepositChanges } from '../../ports/events.js';
import type { Deposit } from '../../ports/exchange-port.js';
import { formatAmount, shortAddress, slackDate } from '../kit/format.js';
import {
  actions,
  button,
  context,
  fieldsSection,
  message,
  sandboxBanner,
  section,
  type KnownBlock,
  type MessagePayload,
} from '../kit/blocks.js';
import { code, escapeMrkdwn, link, mention } from '../kit/mrkdwn.js';
import { ACTION, BLOCK } from '../kit/slack-ids.js';

/** block_ids of the deposit message (tests and updates find parts by them). */
export const DEPOSIT_BLOCK = {
  summary: 'deposit_summary',
  facts: 'deposit_facts',
  declaration: 'deposit_declaration',
  actions: 'deposit_actions',
} as const;

export interface DepositMessageInput {
  deposit: Deposit;
  declaration?: DeclarationDone;
  sandbox: boolean;
}

const ENTITY = { individual: 'individual', entity: 'entity' } as const;
const OWNERSHIP = { first_party: 'first party', third_party: 'third party' } as const;

/** "1.5 BTC" with the asset's code, escaped. */
function amountText(d: Deposit): string {
  const asset = d.currency?.code ?? '';
  return d.amount
    ? formatAmount(escapeMrkdwn(d.amount, 60), escapeMrkdwn(asset, 20))
    : escapeMrkdwn(asset || 'amount not shown', 60);
}

function statusText(value: string | undefined | null): string {
  return value ? code(value, 40) : '_not shown_';
}

/** The transaction hash, linked to the explorer when the exchange gave a link. */
function hashText(d: Deposit): string {
  if (!d.transactionHash) return '_not on chain yet_';
  const short = shortAddress(d.transactionHash, 10, 8);
  return d.linkExplorer ? link(d.linkExplorer, short) : code(short, 40);
}

/** What the declaration said, in one line (no document number, no address: the channel is wide). */
export function declarationLine(done: DeclarationDone): string {
  const who = `*${escapeMrkdwn(done.entityName, 200)}* (${ENTITY[done.entityType]}, ${OWNERSHIP[done.ownership]})`;
  let wallet = '';
  if (done.wallet?.kind === 'listed')
    wallet = ` · wallet: ${escapeMrkdwn(done.wallet.label ?? done.wallet.id, 100)} (listed)`;
  if (done.wallet?.kind === 'unlisted')
    wallet = ` · wallet: “${escapeMrkdwn(done.wallet.name, 100)}” (not listed: an unverified wallet was created and a compliance review started)`;
  return `${who}${wallet}`;
}

/** The deposit's message: what arrived, its states, and the Declare counterparty button while one can be sent. */
export function depositMessage(input: DepositMessageInput): MessagePayload {
  const d = input.deposit;
  const blocks: KnownBlock[] = [];
  if (input.sandbox) blocks.push(sandboxBanner(BLOCK.sandboxBanner));
  const waiting = d.needsDeclaration && !input.declaration;
  const icon = waiting ? ':rotating_light:' : ':inbox_tray:';
  const asset = d.currency ? ` · ${escapeMrkdwn(d.currency.name, 60)}` : '';
  blocks.push(
    section(`${icon} *Deposit received:* ${amountText(d)}${asset} ${slackDate(d.createdAt)}`, DEPOSIT_BLOCK.summary),
  );
  blocks.push(
    fieldsSection(
      [
        `*Amount*\n${amountText(d)}`,
        `*To address*\n${d.toAddress ? code(d.toAddress, 120) : '_not shown_'}`,
        `*Transaction hash*\n${hashText(d)}`,
        `*Transaction id*\n${code(d.transactionId, 40)}`,
        `*Status*\n${statusText(d.status)}`,
        `*Travel Rule*\n${statusText(d.travelRuleStatus)}`,
      ],
      DEPOSIT_BLOCK.facts,
    ),
  );
  if (input.declaration) {
    const done = input.declaration;
    blocks.push(
      context(
        [
          `:white_check_mark: Counterparty declared by ${mention(done.userId)} ${slackDate(done.at)}: ${declarationLine(done)}`,
        ],
        DEPOSIT_BLOCK.declaration,
      ),
    );
  } else if (waiting) {
    blocks.push(
      context(
        [':warning: The exchange needs the sender declared (Travel Rule) before this deposit is credited.'],
        DEPOSIT_BLOCK.declaration,
      ),
    );
  }
  if (!input.declaration && d.acceptsDeclaration) {
    blocks.push(
      actions(
        [
          button(
            'Declare counterparty',
            ACTION.declareCounterparty,
            d.transactionId,
            waiting ? { style: 'primary' } : {},
          ),
        ],
        DEPOSIT_BLOCK.actions,
      ),
    );
  }
  const fallback = `Deposit received: ${d.amount ?? ''} ${d.currency?.code ?? ''}, status ${d.status}, Travel Rule ${d.travelRuleStatus ?? 'not shown'}`;
  return message(escapeMrkdwn(fallback, 300), blocks);
}

/** The thread line when the declaration is accepted. */
export function declarationConfirmation(done: DeclarationDone): MessagePayload {
  const late = done.confirmedLate ? ' (an earlier submission whose answer was lost had arrived)' : '';
  const text = `:white_check_mark: ${mention(done.userId)} declared the counterparty${late}: ${declarationLine(done)}. The exchange reviews it now; this message follows its status.`;
  return message(text, [section(text)]);
}

/** The thread line when the status or Travel Rule status moved. */
export function depositChangeLine(deposit: Deposit, changes: DepositChanges): MessagePayload {
  const parts: string[] = [];
  if (changes.status) parts.push(`status ${statusText(changes.status.from)} → ${statusText(changes.status.to)}`);
  if (changes.travelRuleStatus)
    parts.push(`Travel Rule ${statusText(changes.travelRuleStatus.from)} → ${statusText(changes.travelRuleStatus.to)}`);
  const text = `:arrows_counterclockwise: ${amountText(deposit)}: ${parts.join(', ')}`;
  return message(text, [section(text)]);
}
