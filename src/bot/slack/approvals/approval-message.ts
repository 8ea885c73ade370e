// The approval message: what, who, amounts, destination, progress and the buttons until decided, then
// outcome and execution status. Rebuilt whole after every change (chat.update).
import { ACTION, BLOCK } from '../kit/slack-ids.js';
import {
  actions,
  button,
  confirm,
  context,
  fieldsSection,
  header,
  message,
  quotedText,
  sandboxBanner,
  section,
  type KnownBlock,
  type MessagePayload,
} from '../kit/blocks.js';
import { formatAmount, paymentMethodText, shortAddress, slackDate } from '../kit/format.js';
import { code, escapeMrkdwn, labelMrkdwn, link, mention } from '../kit/mrkdwn.js';
import { shownLabel } from '../kit/display-text.js';
import { settlementsBlock, questionBlocks, type QuestionView } from './person-question.js';
import type { SettlementRecord } from '../../domain/record.js';
import {
  KIND_LABEL,
  tradeQuantityCurrency,
  type Approval,
  type BankAccountView,
  type Verdict,
  type RequestView,
  type StatusLine,
  type ValuationView,
} from './request-view.js';
import { approverText, stillApproveText } from '../delegation/approver-text.js';

/** One group of the rule: how many it needs, and who counted for it. */
export interface GroupTallyView {
  group: string;
  count: number;
  by: readonly string[];
}

/** The variables' one group (and a request made before rules): progress reads "1 of 2 approvals", as it always did. */
const PLAIN_GROUPS = new Set(['approvers', '*']);

export interface ApprovalMessageInput {
  requestId: string;
  requesterId: string;
  createdAt: number;
  /** When a request still pending stops being approvable. */
  expiresAt?: number;
  request: RequestView;
  /** The snapshot hash approvals bind to; carried by the Approve button when given. */
  snapshotHash?: string;
  requiredApprovals: number;
  approvals: readonly Approval[];
  /** The policy rule the request was made under (its snapshot). */
  rule?: string;
  /** Who counted for which group of the rule at the last approval (record `tally`). */
  tally?: readonly GroupTallyView[];
  /** Delegates who may approve now in an awaited approver's place (record `actingDelegates`), while it waits. */
  actingDelegates?: readonly { userId: string; delegate: string }[];
  verdict?: Verdict;
  status?: StatusLine;
  /** A warning above the buttons, e.g. a trade sent back for approval after a re-quote. */
  notice?: string;
  /** An unknown outcome the exchange could not settle: the question and its buttons. */
  question?: QuestionView;
  /** People's decisions on an unknown outcome, oldest first. */
  settlements?: readonly SettlementRecord[];
  sandbox: boolean;
}

/** Button labels, exactly as the issue asks. */
export const APPROVAL_BUTTON = { approve: 'Approve', reject: 'Reject', cancel: 'Cancel' } as const;

export function approvalMessage(input: ApprovalMessageInput): MessagePayload {
  const blocks: KnownBlock[] = [];
  if (input.sandbox) blocks.push(sandboxBanner(BLOCK.sandboxBanner));
  blocks.push(header(`${KIND_LABEL[input.request.kind]} · ${headline(input.request)}`));
  blocks.push(...requestBlocks(input));
  blocks.push(context([progressLine(input)], BLOCK.approvalProgress));
  if (input.verdict) blocks.push(section(outcomeLine(input.verdict), BLOCK.approvalOutcome));
  if (input.status) blocks.push(context([statusLineText(input.status)], BLOCK.approvalStatus));
  if (input.question) blocks.push(...questionBlocks(input.question));
  const decided = settlementsBlock(input.requestId, input.settlements ?? []);
  if (decided) blocks.push(decided);
  if (!input.verdict) {
    if (input.notice) blocks.push(section(`:warning: ${escapeMrkdwn(input.notice, 2_900)}`));
    if (input.expiresAt !== undefined) blocks.push(context([`Expires ${slackDate(input.expiresAt)} unless approved.`]));
    blocks.push(approvalButtons(input));
  }
  return message(fallbackText(input), blocks);
}

/**
 * Shared by the message and App Home cards. `idSuffix` keeps block ids unique where several requests
 * share a view (Slack refuses repeats); the requester's own words come last, quoted as plain text.
 */
export function requestBlocks(
  input: Pick<ApprovalMessageInput, 'requestId' | 'requesterId' | 'createdAt' | 'request'>,
  idSuffix = '',
): KnownBlock[] {
  const fields = [
    `*Requested by*\n${mention(input.requesterId)} ${slackDate(input.createdAt)}`,
    `*Request*\n${code(input.requestId, 40)}`,
    ...detailFields(input.request),
  ];
  const blocks: KnownBlock[] = [fieldsSection(fields, BLOCK.approvalSummary + idSuffix)];
  const { note, purpose } = input.request;
  if (purpose) blocks.push(...quotedText('Purpose, as the requester typed it', purpose, 1_000));
  if (note) blocks.push(...quotedText('Note from the requester, as typed', note, 1_500));
  return blocks;
}

/** What a step-up approval's code modal shows: the kind and headline, then the request's details. */
export function codeModalBlocks(input: ApprovalMessageInput): KnownBlock[] {
  return [header(`${KIND_LABEL[input.request.kind]} · ${headline(input.request)}`), ...requestBlocks(input)];
}

/** Approve (with a confirmation), Reject and Cancel; values from approvalButtonValue. */
export function approvalButtons(
  input: Pick<ApprovalMessageInput, 'requestId' | 'request' | 'snapshotHash'>,
  idSuffix = '',
): KnownBlock {
  const what = escapeMrkdwn(`${KIND_LABEL[input.request.kind].toLowerCase()} ${headline(input.request)}`, 200);
  return actions(
    [
      button(APPROVAL_BUTTON.approve, ACTION.approve, approvalButtonValue(input.requestId, input.snapshotHash), {
        style: 'primary',
        confirm: confirm(
          'Approve this request?',
          `You approve the ${what} (request ${escapeMrkdwn(input.requestId, 40)}).`,
          'Approve',
          'Not yet',
          'primary',
        ),
      }),
      button(APPROVAL_BUTTON.reject, ACTION.reject, input.requestId, { style: 'danger' }),
      button(APPROVAL_BUTTON.cancel, ACTION.cancel, input.requestId),
    ],
    BLOCK.approvalActions + idSuffix,
  );
}

/** Request id and the snapshot hash the clicker saw, so an approval binds to what was on screen ("R7K2QX:3f2a…"). */
export function approvalButtonValue(requestId: string, snapshotHash?: string): string {
  return snapshotHash ? `${requestId}:${snapshotHash}` : requestId;
}

/** Reads approvalButtonValue back; undefined for anything malformed. */
export function parseApprovalButtonValue(
  value: string | undefined,
): { requestId: string; snapshotHash?: string } | undefined {
  const m = /^([A-Za-z0-9_-]{1,64})(?::([A-Za-z0-9]{1,128}))?$/.exec(value ?? '');
  if (!m) return undefined;
  return m[2] ? { requestId: m[1]!, snapshotHash: m[2] } : { requestId: m[1]! };
}

/**
 * "1 of 2 approvals: <@U1>", or by group under a policy file's rule: "Rule *large withdrawals* · Needs
 * 2 of treasury (1 so far: <@U1>) and 1 of risk"; after approval "Approved by <@U1> and <@U2>".
 */
export function progressLine(
  input: Pick<
    ApprovalMessageInput,
    'approvals' | 'requiredApprovals' | 'verdict' | 'rule' | 'tally' | 'actingDelegates'
  >,
): string {
  const who = input.approvals.map(approverText);
  if (input.verdict?.outcome === 'approved') return `:white_check_mark: Approved by ${joinWords(who)}`;
  const needs = groupNeeds(input.tally, input.approvals);
  const line =
    needs !== undefined
      ? input.rule
        ? `Rule *${esc(input.rule)}* · ${needs}`
        : needs
      : plainCount(input.approvals.length, input.requiredApprovals, who);
  return input.verdict ? line : `${line}${actingDelegatesText(input.actingDelegates)}`;
}

function plainCount(approved: number, required: number, who: readonly string[]): string {
  const count = `${approved} of ${required} approvals`;
  return who.length === 0 ? `${count} so far` : `${count}: ${who.join(', ')}`;
}

/** " · <@Ben> for <@Ana> may also approve": a delegate in force for someone still awaited. */
export function actingDelegatesText(
  actingDelegates: readonly { userId: string; delegate: string }[] | undefined,
): string {
  return actingDelegates && actingDelegates.length > 0
    ? ` · ${stillApproveText([], actingDelegates)} may also approve`
    : '';
}

/** "Needs 2 of treasury (1 so far: <@U1>) and 1 of risk"; undefined for the plain "N approvals" of the variables' policy. */
export function groupNeeds(
  tally: readonly GroupTallyView[] | undefined,
  approvals: readonly { userId: string; delegate?: string }[] = [],
): string | undefined {
  if (tally === undefined || tally.every((g) => PLAIN_GROUPS.has(g.group))) return undefined;
  // "@Ben for @Ana" when a delegate's click counted for Ana.
  const name = (u: string) => approverText(approvals.find((a) => a.userId === u) ?? { userId: u });
  const part = (g: GroupTallyView) =>
    `${g.count} of ${esc(g.group)}${g.by.length > 0 ? ` (${g.by.length} so far: ${g.by.map(name).join(', ')})` : ''}`;
  const open = tally.filter((g) => g.by.length < g.count);
  const done = tally.filter((g) => g.by.length >= g.count);
  const doneText =
    done.length > 0 ? ` · ${joinWords(done.map((g) => `${esc(g.group)} done (${g.by.map(name).join(', ')})`))}` : '';
  return open.length === 0
    ? `All groups have their approvals${doneText}`
    : `Needs ${joinWords(open.map(part))}${doneText}`;
}

export function outcomeLine(decision: Verdict): string {
  switch (decision.outcome) {
    case 'approved':
      return `:white_check_mark: *Approved* ${slackDate(decision.at)}`;
    case 'rejected':
      return `:no_entry: *Rejected* by ${mention(decision.by)} ${slackDate(decision.at)}\n>${escapeMrkdwn(decision.reason, 2_000).replace(/\n/g, '\n>')}`;
    case 'cancelled':
      return `:heavy_multiplication_x: *Cancelled* by ${mention(decision.by)} ${slackDate(decision.at)}`;
    case 'expired':
      return `:hourglass: *Expired* ${slackDate(decision.at)} without enough approvals`;
  }
}

const TONE_EMOJI: Record<StatusLine['tone'], string> = {
  progress: ':arrows_counterclockwise:',
  success: ':white_check_mark:',
  failure: ':x:',
  warning: ':warning:',
};

export function statusLineText(status: StatusLine): string {
  const linkText = status.link ? ` · ${link(status.link.url, status.link.label)}` : '';
  return `${TONE_EMOJI[status.tone]} ${escapeMrkdwn(status.text, 2_000)}${linkText} · ${slackDate(status.at, '{time}')}`;
}

/** "1.5 BTC to Cold wallet", "Buy 0.5 BTC with SGD": plain words for headers and fallbacks. */
export function headline(r: RequestView): string {
  switch (r.kind) {
    case 'crypto_withdrawal':
      return `${formatAmount(r.amount, r.asset)} to ${shownLabel(r.destination.label)}`;
    case 'fiat_withdrawal':
      return `${formatAmount(r.amount, r.currency)} to ${shownLabel(r.bankAccount.display)}`;
    case 'trade': {
      const [base = r.symbol, counter = ''] = r.symbol.split('-');
      const verb = r.side === 'buy' ? 'Buy' : 'Sell';
      const other = r.side === 'buy' ? 'with' : 'for';
      const currency = tradeQuantityCurrency(r);
      return currency === base
        ? `${verb} ${formatAmount(r.quantity, base)} ${other} ${counter}`
        : `${verb} ${base} for ${formatAmount(r.quantity, currency)}`;
    }
    case 'bank_account_removal':
      return shownLabel(r.bankAccount.display);
  }
}

function detailFields(r: RequestView): string[] {
  switch (r.kind) {
    case 'crypto_withdrawal':
      return [
        `*Amount*\n${formatAmount(r.amount, esc(r.asset))} (${esc(r.network)})`,
        `*Fee*\n${formatAmount(r.fee, esc(r.asset))}`,
        `*Total*\n*${formatAmount(r.total, esc(r.asset))}*`,
        `*Destination*\n${labelMrkdwn(r.destination.label, 300)}\n${code(r.destination.address, 300)}${r.destination.addressTag ? `\nTag/memo ${code(r.destination.addressTag, 100)}` : ''}`,
        ...exchangeNoteField(r),
        ...valuationFields(r),
      ];
    case 'fiat_withdrawal':
      return [
        `*Amount*\n${formatAmount(r.amount, esc(r.currency))}`,
        `*Fee*\n${formatAmount(r.fee, esc(r.currency))}`,
        `*Total*\n*${formatAmount(r.total, esc(r.currency))}*`,
        `*Bank account*\n${bankText(r.bankAccount)}`,
        ...exchangeNoteField(r),
        ...valuationFields(r),
      ];
    case 'trade': {
      const [, counter = ''] = r.symbol.split('-');
      const limitWord = r.side === 'buy' ? 'at most' : 'at least';
      const slippage = r.slippageBps == null ? '' : ` (${bpsText(r.slippageBps)} from indicative)`;
      return [
        `*Trade*\n${r.side === 'buy' ? 'Buy' : 'Sell'} ${esc(r.symbol)}`,
        `*Quantity*\n${formatAmount(r.quantity, esc(tradeQuantityCurrency(r)))}`,
        `*Indicative price*\n${formatAmount(r.quote.price, esc(counter))}`,
        `*Worst acceptable price*\n${limitWord} ${formatAmount(r.limitPrice, esc(counter))}${slippage}`,
        `*Quote expires*\n${slackDate(r.quote.expiresAt, '{time_secs}')} (re-quoted within the limit on execution)`,
        `*Paid from*\n${esc(paymentMethodText(r.paymentMethod))}`,
        ...valuationFields(r),
      ];
    }
    case 'bank_account_removal':
      return [`*Bank account*\n${bankText(r.bankAccount)}`, `*Account id*\n${code(String(r.bankAccount.id), 60)}`];
  }
}

/** The note the exchange is sent, as frozen (one line, the desk reference at its end): part of what is approved. */
function exchangeNoteField(r: { exchangeNote?: string }): string[] {
  return r.exchangeNote === undefined ? [] : [`*Note sent to the exchange*\n${code(r.exchangeNote, 1_200)}`];
}

/** "≈ 123,456.78 USD (1.5 BTC at 82,304.52, BTC-USD spot at request time)": what the policy's value rules read. */
function valuationFields(r: { valuations?: readonly ValuationView[] }): string[] {
  return (r.valuations ?? []).map((v) => {
    const basis =
      v.pair === null
        ? `${formatAmount(v.amount, esc(v.of))}`
        : `${formatAmount(v.amount, esc(v.of))} at ${formatAmount(v.price)}, ${esc(v.pair)} spot ${slackDate(v.at, '{time}')}`;
    return `*Value in ${esc(v.currency)}*\n${formatAmount(v.value, esc(v.currency))} (${basis})`;
  });
}

function bankText(bank: BankAccountView): string {
  return labelMrkdwn(bank.display, 300);
}

/** 50 -> "0.5%". */
export function bpsText(bps: number): string {
  const whole = Math.floor(bps / 100);
  const rest = bps % 100;
  return `${whole}${rest === 0 ? '' : `.${String(rest).padStart(2, '0').replace(/0$/, '')}`}%`;
}

function fallbackText(input: ApprovalMessageInput): string {
  const r = input.request;
  const where = r.kind === 'crypto_withdrawal' ? ` (${shortAddress(r.destination.address)})` : '';
  const state = input.verdict
    ? input.verdict.outcome
    : `${input.approvals.length} of ${input.requiredApprovals} approvals`;
  const sandbox = input.sandbox ? '[SANDBOX] ' : '';
  return `${sandbox}${KIND_LABEL[r.kind]} ${escapeMrkdwn(input.requestId, 40)}: ${escapeMrkdwn(headline(r) + where, 500)}, asked by ${mention(input.requesterId)}: ${state}`;
}

const esc = (text: string): string => escapeMrkdwn(text, 500);

function joinWords(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
