/**
 * How amounts, addresses and times read in Slack. Amounts stay decimal strings (grouping is
 * done on the string); times use Slack's date token so each reader sees their own time zone.
 */
import { tz } from '@date-fns/tz';
import { format } from 'date-fns';
import { escapeMrkdwn } from './mrkdwn.js';
import { groupThousands, isSignedDecimal } from '../../domain/money.js';

/**
 * The one money and price formatter. Groups the integer part with commas and adds the currency:
 * "12345.5", "BTC" -> "12,345.5 BTC". Plain text; a non-decimal value (an exchange sent something
 * odd) is returned as it is. formatAmount is the same for mrkdwn.
 */
export function amountText(value: string, currency?: string): string {
  const grouped = isSignedDecimal(value) ? groupThousands(value) : value;
  return currency ? `${grouped} ${currency}` : grouped;
}

/** amountText for mrkdwn: a non-decimal value is escaped (the currency is the caller's to escape). */
export function formatAmount(value: string, currency?: string): string {
  return isSignedDecimal(value) ? amountText(value, currency) : amountText(escapeMrkdwn(value, 60), currency);
}

/** How the exchange's payment methods read: "user_balance" -> "Account balance"; others as sent. */
export function paymentMethodText(method: string): string {
  // A Map, not an object: a method typed as "valueOf" must not find Object.prototype's.
  return PAYMENT_METHOD_WORDS.get(method) ?? method;
}

const PAYMENT_METHOD_WORDS = new Map([['user_balance', 'Account balance']]);

/** "0x1234567890abcdef" -> "0x1234…cdef"; short addresses unchanged. */
export function shortAddress(address: string, head = 6, tail = 4): string {
  if (address.length <= head + tail + 1) return address;
  return `${address.slice(0, head)}…${address.slice(-tail)}`;
}

/** Last four of an account number: "****6789". */
export function maskAccount(accountNumber: string): string {
  const digits = accountNumber.replace(/\s/g, '');
  return digits.length <= 4 ? digits : `****${digits.slice(-4)}`;
}

/** "2024-05-01 14:03 UTC": the fallback where Slack cannot render a date token. */
export function utcText(ms: number): string {
  return `${format(ms, 'yyyy-MM-dd HH:mm', { in: tz('UTC') })} UTC`;
}

/** The same instant at a fixed offset from users.info `tz_offset` (seconds): "2024-05-01 22:03 UTC+8". */
export function zonedText(ms: number, tzOffsetSeconds: number): string {
  const sign = tzOffsetSeconds < 0 ? '-' : '+';
  const abs = Math.abs(tzOffsetSeconds);
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const zone = abs === 0 ? 'UTC' : `UTC${sign}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
  return `${format(ms, 'yyyy-MM-dd HH:mm', { in: tz(offsetZone(tzOffsetSeconds)) })} ${zone}`;
}

/** A fixed offset as @date-fns/tz reads it: 28800 -> "+08:00". */
export function offsetZone(tzOffsetSeconds: number): string {
  const abs = Math.abs(tzOffsetSeconds);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${tzOffsetSeconds < 0 ? '-' : '+'}${two(Math.floor(abs / 3600))}:${two(Math.floor((abs % 3600) / 60))}`;
}

/**
 * A time for mrkdwn: Slack's `<!date^…>` token, rendered in each reader's own time zone (no
 * users:read needed, and one message reads right for every member of a channel). The fallback
 * is shown where the token cannot render.
 * @example slackDate(1714572180000) // '<!date^1714572180^{date_short_pretty} {time}|2024-05-01 14:03 UTC>'
 */
export function slackDate(ms: number, format = '{date_short_pretty} {time}'): string {
  return `<!date^${Math.floor(ms / 1000)}^${format}|${utcText(ms)}>`;
}

/**
 * A duration that reads the same in every time zone, for plain text (select options, field
 * errors) where a date token cannot render: "in 2 h 5 min", "3 min ago", "now".
 */
export function relativeTime(targetMs: number, nowMs: number): string {
  const diff = targetMs - nowMs;
  const span = durationText(Math.abs(diff));
  if (span === null) return 'now';
  return diff > 0 ? `in ${span}` : `${span} ago`;
}

/** "2 d 3 h", "2 h 5 min", "45 s"; null under a second. */
export function durationText(ms: number): string | null {
  const s = Math.floor(ms / 1000);
  if (s < 1) return null;
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  if (m > 0) return `${m} min`;
  return `${s} s`;
}

/**
 * Exchange timestamps come as epoch ms or (fiat records, "not shown") as strings: the instant
 * when it can be read, else undefined.
 */
export function toEpochMs(value: number | string | null | undefined): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '') {
    if (/^\d{13}$/.test(value)) return Number(value);
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
}
