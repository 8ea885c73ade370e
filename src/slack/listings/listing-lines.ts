/**
 * Read-only listings for /desk (withdrawals, deposits, orders, fiat records, bank accounts): one
 * line per record, and a "More" button carrying the next page when there is one.
 */
import { ACTION, BLOCK } from '../kit/slack-ids.js';
import { actions, button, context, cutMrkdwn, header, message, section, type KnownBlock, type MessagePayload } from '../kit/blocks.js';
import { formatAmount, maskAccount, shortAddress, slackDate, toEpochMs } from '../kit/format.js';
import { LIMITS } from '../kit/limits.js';
import { code, escapeMrkdwn, link } from '../kit/mrkdwn.js';

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

/** A page of a listing. */
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
  blocks.push(context([[input.sandbox ? ':test_tube: SANDBOX' : '', range, `as of ${slackDate(input.at, '{time_secs}')}`].filter(Boolean).join(' · ')]));
  if (input.more) blocks.push(actions([button('More', ACTION.listMore, encodeMore(input.more))], BLOCK.listMore));
  // Leave room for the trailing context and More blocks when there are very many sections.
  const trimmed = blocks.length > LIMITS.messageBlocks ? [...blocks.slice(0, LIMITS.messageBlocks - 2), ...blocks.slice(-2)] : blocks;
  return message(`${input.title}: ${input.lines.length} records`, trimmed);
}

function packLines(lines: readonly string[], max: number): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const line of lines) {
    const l = cutMrkdwn(line, max);
    if (current && current.length + 1 + l.length > max) {
      chunks.push(current);
      current = '';
    }
    current = current ? `${current}\n${l}` : l;
  }
  if (current) chunks.push(current);
  return chunks;
}

// ---- one line per record ---------------------------------------------------------------------
// Inputs are the fields each line shows; the exchange's records fit them as they are.

const esc = (t: string | null | undefined, max = 200): string => escapeMrkdwn(t ?? '', max);
const when = (v: number | string | null | undefined): string => {
  const ms = toEpochMs(v);
  return ms === undefined ? (v ? esc(String(v), 40) : '—') : slackDate(ms, '{date_short} {time}');
};

export interface WithdrawalLineInput {
  id: string;
  created_at: number;
  status: string;
  amount: string;
  crypto_currency: { code: string; network?: { name?: string } };
  address?: string;
  address_book_address?: { label?: string; address?: string } | null;
  link_explorer?: string | null;
  travel_rule_status?: string | null;
}

export function withdrawalLine(w: WithdrawalLineInput): string {
  const address = w.address ?? w.address_book_address?.address;
  const label = w.address_book_address?.label;
  const to = [label ? esc(label, 60) : '', address ? code(shortAddress(address), 30) : ''].filter(Boolean).join(' ');
  const explorer = w.link_explorer ? ` · ${link(w.link_explorer, 'explorer')}` : '';
  const travel = w.travel_rule_status ? ` · travel rule ${esc(w.travel_rule_status, 30)}` : '';
  return `${when(w.created_at)} · *${formatAmount(w.amount, esc(w.crypto_currency.code, 20))}* → ${to || '—'} · ${esc(w.status, 30)}${travel}${explorer}`;
}

export interface DepositLineInput {
  created_at: number;
  status: string;
  amount?: string;
  crypto_currency?: { code: string };
  transaction_hash?: string;
  travel_rule_status?: string;
  link_explorer?: string;
  transaction: { uuid: string };
}

export function depositLine(d: DepositLineInput): string {
  const amount = d.amount ? formatAmount(d.amount, esc(d.crypto_currency?.code ?? '', 20)) : '—';
  const hash = d.transaction_hash ? ` · ${d.link_explorer ? link(d.link_explorer, shortAddress(d.transaction_hash, 8, 6)) : code(shortAddress(d.transaction_hash, 8, 6), 30)}` : '';
  const travel = d.travel_rule_status ? ` · travel rule ${esc(d.travel_rule_status, 30)}` : '';
  return `${when(d.created_at)} · *${amount}* · ${esc(d.status, 30)}${travel}${hash} · tx ${code(d.transaction.uuid, 40)}`;
}

export interface OrderLineInput {
  id: string | number;
  status: string;
  created_at?: number;
  price?: string | null;
  net_amount?: string | null;
  received_currency?: string | null;
  fee?: string | null;
  fee_currency?: string | null;
  client_order_id?: string | null;
  /** Not named by the reference, shown when the exchange sends them. */
  symbol?: unknown;
  side?: unknown;
}

export function orderLine(o: OrderLineInput): string {
  const what = [typeof o.side === 'string' ? esc(o.side, 10) : '', typeof o.symbol === 'string' ? esc(o.symbol, 20) : ''].filter(Boolean).join(' ');
  const parts = [when(o.created_at), code(String(o.id), 60), what, esc(o.status, 30)];
  if (o.price) parts.push(`price ${formatAmount(o.price)}`);
  if (o.net_amount) parts.push(`received ${formatAmount(o.net_amount, esc(o.received_currency ?? '', 20))}`.trimEnd());
  if (o.fee) parts.push(`fee ${formatAmount(o.fee, esc(o.fee_currency ?? '', 20))}`.trimEnd());
  return parts.filter(Boolean).join(' · ');
}

export interface BankLineInput {
  id: number;
  currency?: string | null;
  account_number: string;
  beneficiary_name: string;
  verified?: boolean;
  last_used_at?: number | null;
  bank?: { name?: string | null } | null;
}

export function bankLine(b: BankLineInput): string {
  const verified = b.verified === undefined ? '' : b.verified ? ' · verified by the exchange' : ' · self-added';
  const used = b.last_used_at ? ` · last used ${when(b.last_used_at)}` : '';
  return `${code(String(b.id), 20)} · *${esc(b.bank?.name ?? 'Bank', 80)}* ${code(maskAccount(b.account_number), 20)} ${esc(b.currency ?? '', 10)} · ${esc(b.beneficiary_name, 100)}${verified}${used}`;
}

export interface FiatRecordLineInput {
  id?: string | number;
  currency?: string;
  amount?: string;
  status?: string;
  created_at?: string | number;
  withdrawal_fee?: string | null;
  bank_reference?: string | null;
}

/** Fiat deposits and withdrawals: their fields are "not shown", so every one is optional. */
export function fiatRecordLine(r: FiatRecordLineInput): string {
  const parts = [when(r.created_at)];
  if (r.id !== undefined) parts.push(code(String(r.id), 40));
  parts.push(r.amount ? `*${formatAmount(r.amount, esc(r.currency ?? '', 10))}*` : esc(r.currency ?? '—', 10));
  if (r.status) parts.push(esc(r.status, 30));
  if (r.withdrawal_fee) parts.push(`fee ${formatAmount(r.withdrawal_fee, esc(r.currency ?? '', 10))}`.trimEnd());
  if (r.bank_reference) parts.push(`ref ${code(r.bank_reference, 60)}`);
  return parts.join(' · ');
}

export interface FiatTermsInput {
  fees: readonly { currency: string; fee: string }[];
  limits: readonly { currency: string; minimum_withdrawal_amount: string; maximum_withdrawal_amount: string }[];
}

/** Per fiat currency: fee and limits of a withdrawal. */
export function fiatTermsText(t: FiatTermsInput): string {
  const currencies = [...new Set([...t.limits.map((l) => l.currency), ...t.fees.map((f) => f.currency)])];
  if (currencies.length === 0) return 'No fiat currency is enabled for withdrawals on this account.';
  const lines = currencies.map((c) => {
    const fee = t.fees.find((f) => f.currency === c);
    const limit = t.limits.find((l) => l.currency === c);
    const feeText = fee ? `fee ${formatAmount(fee.fee, esc(c, 10))}` : 'no fee listed';
    const limitText = limit ? `from ${formatAmount(limit.minimum_withdrawal_amount)} to ${formatAmount(limit.maximum_withdrawal_amount)}` : 'no limits listed';
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
  blocks.push(context([[input.sandbox ? ':test_tube: SANDBOX' : '', `as of ${slackDate(input.at, '{time_secs}')}`].filter(Boolean).join(' · ')]));
  const more = [
    // One action_id per button within the block (Slack refuses repeats); listeners route on the part before ":".
    ...(input.withdrawals.more ? [button('More withdrawals', `${ACTION.listMore}:withdrawals`, encodeMore(input.withdrawals.more))] : []),
    ...(input.deposits.more ? [button('More deposits', `${ACTION.listMore}:deposits`, encodeMore(input.deposits.more))] : []),
  ];
  if (more.length > 0) blocks.push(actions(more, BLOCK.listMore));
  return message('Fiat: fees, limits, recent withdrawals and deposits', blocks);
}
