// /balances per asset: available, locked by orders, locked by other products, total (money.ts). The
// deprecated `locked` total is never read.
import { add, isZero } from '../../domain/money.js';
import type { Balance } from '../../ports/exchange-port.js';
import { context, header, message, section, type KnownBlock, type MessagePayload } from '../kit/blocks.js';
import { formatAmount, slackDate } from '../kit/format.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { LIMITS } from '../kit/limits.js';

export interface BalanceRow {
  currency: string;
  available: string;
  lockedOrders: string;
  lockedOther: string;
}

/** From the port's balance, reading the locked parts and never the deprecated `locked` total. */
export function balanceRow(
  b: Pick<Balance, 'currency' | 'available' | 'lockedInOrders' | 'lockedInOtherProducts'>,
): BalanceRow {
  return {
    currency: b.currency,
    available: b.available,
    lockedOrders: b.lockedInOrders,
    lockedOther: b.lockedInOtherProducts,
  };
}

export function balanceTotal(r: BalanceRow): string {
  return add(add(r.available, r.lockedOrders), r.lockedOther);
}

export interface BalancesInput {
  rows: readonly BalanceRow[];
  /** The asset asked for, if any. */
  asset?: string;
  at: number;
  sandbox: boolean;
}

const COLUMNS = ['Asset', 'Available', 'Locked: orders', 'Locked: other', 'Total'] as const;

/** The balances table as monospaced text, split over sections so none passes Slack's limit. */
export function balancesMessage(input: BalancesInput): MessagePayload {
  const title = input.asset ? `Balance of ${input.asset}` : 'Balances';
  const blocks: KnownBlock[] = [header(title)];
  if (input.rows.length === 0) {
    const none = input.asset
      ? `No ${escapeMrkdwn(input.asset, 20)} balance: the exchange lists only assets with a non-zero total.`
      : 'No balances: the exchange lists only assets with a non-zero total.';
    blocks.push(section(none));
  } else {
    const table = [
      COLUMNS as readonly string[],
      ...input.rows.map((r) => [r.currency, r.available, r.lockedOrders, r.lockedOther, balanceTotal(r)]),
    ];
    const lines = alignColumns(
      table.map((cells, i) => (i === 0 ? [...cells] : cells.map((c, j) => (j === 0 ? c : formatAmount(c))))),
    );
    for (const chunk of chunkLines([lines[0]!, ...lines.slice(1)], LIMITS.sectionText - 8))
      blocks.push(section(`\`\`\`${chunk}\`\`\``));
    const locked = input.rows.filter((r) => !isZero(r.lockedOrders) || !isZero(r.lockedOther)).length;
    if (locked > 0)
      blocks.push(
        context([
          `${locked} ${locked === 1 ? 'asset has' : 'assets have'} locked funds: available is what can be traded or withdrawn now.`,
        ]),
      );
  }
  blocks.push(
    context([
      `${input.sandbox ? ':test_tube: SANDBOX · ' : ''}As of ${slackDate(input.at, '{date_short_pretty} {time_secs}')}`,
    ]),
  );
  const text =
    input.rows.map((r) => `${escapeMrkdwn(r.currency, 20)} ${formatAmount(balanceTotal(r))}`).join(', ') ||
    'No balances';
  return message(`${title}: ${text}`, blocks);
}

/** Left-align the first column, right-align the others; cells escaped for mrkdwn. */
function alignColumns(rows: string[][]): string[] {
  const escaped = rows.map((r) => r.map((c) => escapeMrkdwn(c, 60)));
  const widths = escaped[0]!.map((_, j) => Math.max(...escaped.map((r) => visibleLength(r[j] ?? ''))));
  return escaped.map((r) =>
    r
      .map((c, j) => pad(c, widths[j]!, j === 0))
      .join('  ')
      .trimEnd(),
  );
}

// Escaped entities (&amp;) take one column when rendered.
const visibleLength = (s: string): number => s.replace(/&(amp|lt|gt);/g, '_').length;

function pad(cell: string, width: number, left: boolean): string {
  const fill = ' '.repeat(Math.max(0, width - visibleLength(cell)));
  return left ? cell + fill : fill + cell;
}

/** Join lines into chunks of at most `max` characters, repeating the header line on each. */
function chunkLines(lines: string[], max: number): string[] {
  const [head = '', ...rest] = lines;
  const chunks: string[] = [];
  let current = head;
  for (const line of rest) {
    if (current.length + 1 + line.length > max) {
      chunks.push(current);
      current = head;
    }
    current += `\n${line}`;
  }
  chunks.push(current);
  return chunks;
}
