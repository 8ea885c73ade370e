// Read-only /desk listings: one line per record, and a "More" button carrying the next page.
import type { Deposit } from '../../ports/exchange-port.js';
import type {
  BankListing,
  FiatFee,
  FiatLimit,
  FiatRecordListing,
  OrderListing,
  WithdrawalListing,
} from '../../ports/exchange-listings.js';
import { ACTION, BLOCK } from '../kit/slack-ids.js';
import {
  actions,
  button,
  context,
  header,
  message,
  section,
  type KnownBlock,
  type MessagePayload,
} from '../kit/blocks.js';
import { formatAmount, maskAccount, shortAddress, slackDate, toEpochMs } from '../kit/format.js';
import { LIMITS } from '../kit/limits.js';
import { packLines } from '../kit/cut-lists.js';
import { code, escapeMrkdwn, labelMrkdwn, link } from '../kit/mrkdwn.js';

export const LIST_NAMES = ['withdrawals', 'deposits', 'orders', 'banks', 'fiat_deposits', 'fiat_withdrawals'] as const;
export type ListName = (typeof LIST_NAMES)[number];

/** What the More button carries: which list, the index of the first record to show next, the filter. */
export interface MoreCursor {
  list: ListName;
  offset: number;
  arg?: string;
}

/** Deepest record a More button may ask for: listings are walked from the start each time. */
export const MAX_LIST_OFFSET = 1_000;

/** The More button's value; short keys keep it far under Slack's 2,000 characters. */
export function encodeMore(cursor: MoreCursor): string {
  return JSON.stringify({ l: cursor.list, o: cursor.offset, ...(cursor.arg ? { a: cursor.arg.slice(0, 100) } : {}) });
}

/** Reads a More value back; undefined for anything we did not write. */
export function decodeMore(value: string | undefined): MoreCursor | undefined {
  if (!value) return undefined;
  try {
    const v = JSON.parse(value) as { l?: unknown; o?: unknown; a?: unknown };
    if (typeof v.l !== 'string' || !(LIST_NAMES as readonly string[]).includes(v.l)) return undefined;
    if (typeof v.o !== 'number' || !Number.isInteger(v.o) || v.o < 0 || v.o > MAX_LIST_OFFSET) return undefined;
    return { list: v.l as ListName, offset: v.o, ...(typeof v.a === 'string' ? { arg: v.a } : {}) };
  } catch {
    return undefined;
  }
}

export interface ListPageInput {
  title: string;
  /** One mrkdwn line per record, already built by the line helpers below (escaped). */
  lines: readonly string[];
  /** Index of the first record shown (0 for the first page). */
  offset: number;
  /** Set when a further page exists. */
  more?: MoreCursor;
  emptyText: string;
  at: number;
  sandbox: boolean;
  /** Extra sections shown above the records (e.g. fiat fees and limits). */
  preamble?: readonly string[];
}

export function listPage(input: ListPageInput): MessagePayload {
  const blocks: KnownBlock[] = [header(input.title)];
  for (const p of input.preamble ?? []) blocks.push(section(p));
  if (input.lines.length === 0) {
    blocks.push(section(input.offset === 0 ? escapeMrkdwn(input.emptyText) : 'No more records.'));
  } else {
    for (const chunk of packLines(input.lines, LIMITS.sectionText)) blocks.push(section(chunk));
  }
  const first = input.offset + 1;
  const range = input.lines.length > 0 ? `Records ${first}–${first + input.lines.length - 1}` : '';
  blocks.push(
    context([
      [input.sandbox ? ':test_tube: SANDBOX' : '', range, `as of ${slackDate(input.at, '{time_secs}')}`]
        .filter(Boolean)
        .join(' · '),
    ]),
  );
  if (input.more) blocks.push(actions([button('More', ACTION.listMore, encodeMore(input.more))], BLOCK.listMore));
  // Leave room for the trailing context and More blocks when there are very many sections.
  const trimmed =
    blocks.length > LIMITS.messageBlocks ? [...blocks.slice(0, LIMITS.messageBlocks - 2), ...blocks.slice(-2)] : blocks;
  return message(`${input.title}: ${input.lines.length} records`, trimmed);
}

// Inputs are the listings port's records (ports/exchange-listings.ts): what the exchange listed.

const esc = (t: string | null | undefined, max = 200): string => escapeMrkdwn(t ?? '', max);
const when = (v: number | string | null | undefined): string => {
  const ms = toEpochMs(v);
  return ms === undefined ? (v ? esc(String(v), 40) : '—') : slackDate(ms, '{date_short} {time}');
};

export function withdrawalLine(w: WithdrawalListing): string {
  const to = [w.label ? labelMrkdwn(w.label, 60) : '', w.address ? code(shortAddress(w.address), 30) : '']
    .filter(Boolean)
    .join(' ');
  const explorer = w.linkExplorer ? ` · ${link(w.linkExplorer, 'explorer')}` : '';
  const travel = w.travelRuleStatus ? ` · travel rule ${esc(w.travelRuleStatus, 30)}` : '';
  return `${when(w.createdAt)} · *${formatAmount(w.amount, esc(w.asset, 20))}* → ${to || '—'} · ${esc(w.status, 30)}${travel}${explorer}`;
}

export function depositLine(d: Deposit): string {
  const amount = d.amount ? formatAmount(d.amount, esc(d.currency?.code ?? '', 20)) : '—';
  const hash = d.transactionHash
    ? ` · ${d.linkExplorer ? link(d.linkExplorer, shortAddress(d.transactionHash, 8, 6)) : code(shortAddress(d.transactionHash, 8, 6), 30)}`
    : '';
  const travel = d.travelRuleStatus ? ` · travel rule ${esc(d.travelRuleStatus, 30)}` : '';
  return `${when(d.createdAt)} · *${amount}* · ${esc(d.status, 30)}${travel}${hash} · tx ${code(d.transactionId, 40)}`;
}

export function orderLine(o: OrderListing): string {
  const what = [o.side !== null ? esc(o.side, 10) : '', o.symbol !== null ? esc(o.symbol, 20) : '']
    .filter(Boolean)
    .join(' ');
  const parts = [when(o.createdAt ?? undefined), code(o.id, 60), what, esc(o.status, 30)];
  if (o.price) parts.push(`price ${formatAmount(o.price)}`);
  if (o.netAmount) parts.push(`received ${formatAmount(o.netAmount, esc(o.receivedCurrency ?? '', 20))}`.trimEnd());
  if (o.fee) parts.push(`fee ${formatAmount(o.fee, esc(o.feeCurrency ?? '', 20))}`.trimEnd());
  return parts.filter(Boolean).join(' · ');
}

export function bankLine(b: BankListing): string {
  const verified = b.verified === null ? '' : b.verified ? ' · verified by the exchange' : ' · self-added';
  const used = b.lastUsedAt ? ` · last used ${when(b.lastUsedAt)}` : '';
  return `${code(String(b.id), 20)} · *${esc(b.bankName ?? 'Bank', 80)}* ${code(maskAccount(b.accountNumber), 20)} ${esc(b.currency ?? '', 10)} · ${esc(b.beneficiary, 100)}${verified}${used}`;
}

/** Fiat deposits and withdrawals: their fields are "not shown", so every one may be missing. */
export function fiatRecordLine(r: FiatRecordListing): string {
  const parts = [when(r.createdAt ?? undefined)];
  if (r.id !== null) parts.push(code(r.id, 40));
  parts.push(r.amount ? `*${formatAmount(r.amount, esc(r.currency ?? '', 10))}*` : esc(r.currency ?? '—', 10));
  if (r.status) parts.push(esc(r.status, 30));
  if (r.withdrawalFee) parts.push(`fee ${formatAmount(r.withdrawalFee, esc(r.currency ?? '', 10))}`.trimEnd());
  if (r.bankReference) parts.push(`ref ${code(r.bankReference, 60)}`);
  return parts.join(' · ');
}

export interface FiatTermsInput {
  fees: readonly FiatFee[];
  limits: readonly FiatLimit[];
}

/** Per fiat currency: fee and limits of a withdrawal. */
export function fiatTermsText(t: FiatTermsInput): string {
  const currencies = [...new Set([...t.limits.map((l) => l.currency), ...t.fees.map((f) => f.currency)])];
  if (currencies.length === 0) return 'No fiat currency is enabled for withdrawals on this account.';
  const lines = currencies.map((c) => {
    const fee = t.fees.find((f) => f.currency === c);
    const limit = t.limits.find((l) => l.currency === c);
    const feeText = fee ? `fee ${formatAmount(fee.fee, esc(c, 10))}` : 'no fee listed';
    const limitText = limit
      ? `from ${formatAmount(limit.minimum)} to ${formatAmount(limit.maximum)}`
      : 'no limits listed';
    return `*${esc(c, 10)}* withdrawals ${limitText} · ${feeText}`;
  });
  return lines.join('\n');
}

export interface FiatOverviewInput {
  terms: FiatTermsInput;
  withdrawals: { lines: readonly string[]; more?: MoreCursor };
  deposits: { lines: readonly string[]; more?: MoreCursor };
  at: number;
  sandbox: boolean;
}

/** `/desk fiat`: fees and limits per currency, then recent withdrawals and deposits with More buttons. */
export function fiatOverview(input: FiatOverviewInput): MessagePayload {
  const blocks: KnownBlock[] = [header('Fiat'), section(fiatTermsText(input.terms))];
  const part = (title: string, lines: readonly string[], empty: string) => {
    blocks.push(section(`*${title}*`));
    if (lines.length === 0) blocks.push(section(empty));
    else for (const chunk of packLines(lines, LIMITS.sectionText)) blocks.push(section(chunk));
  };
  part('Recent withdrawals', input.withdrawals.lines, 'None.');
  part('Recent deposits', input.deposits.lines, 'None.');
  blocks.push(
    context([
      [input.sandbox ? ':test_tube: SANDBOX' : '', `as of ${slackDate(input.at, '{time_secs}')}`]
        .filter(Boolean)
        .join(' · '),
    ]),
  );
  const more = [
    // One action_id per button within the block (Slack refuses repeats); listeners route on the part before ":".
    ...(input.withdrawals.more
      ? [button('More withdrawals', `${ACTION.listMore}:withdrawals`, encodeMore(input.withdrawals.more))]
      : []),
    ...(input.deposits.more
      ? [button('More deposits', `${ACTION.listMore}:deposits`, encodeMore(input.deposits.more))]
      : []),
  ];
  if (more.length > 0) blocks.push(actions(more, BLOCK.listMore));
  return message('Fiat: fees, limits, recent withdrawals and deposits', blocks);
}
