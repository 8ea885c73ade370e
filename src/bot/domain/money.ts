// Money is a decimal string end to end: every function takes and returns strings, arithmetic is
// big.js, so nothing float-shaped leaks out.
import Big from 'big.js';

// Enough room for any crypto amount; rounding is always explicit below.
Big.DP = 40;
Big.RM = Big.roundDown;
// Never switch to exponent notation in toString().
Big.NE = -1e6;
Big.PE = 1e6;

const DECIMAL = /^\d+(\.\d+)?$/;
const SIGNED_DECIMAL = /^-?\d+(\.\d+)?$/;

/** A plain non-negative decimal string ("12", "0.5"); no signs, exponents, spaces or commas. */
export function isDecimal(text: string): boolean {
  return DECIMAL.test(text);
}

export function isSignedDecimal(text: string): boolean {
  return SIGNED_DECIMAL.test(text);
}

function big(value: string): Big {
  if (!SIGNED_DECIMAL.test(value)) throw new TypeError(`not a decimal string: ${JSON.stringify(value)}`);
  return new Big(value);
}

/** Canonical form: no trailing zeros after the point, no leading zeros ("1.50" -> "1.5"). */
export function normalize(value: string): string {
  return big(value).toString();
}

export function add(a: string, b: string): string {
  return big(a).plus(big(b)).toString();
}

export function sub(a: string, b: string): string {
  return big(a).minus(big(b)).toString();
}

export function mul(a: string, b: string): string {
  return big(a).times(big(b)).toString();
}

/** a / b rounded down to `dp` decimal places. */
export function div(a: string, b: string, dp: number): string {
  return big(a).div(big(b)).round(dp, Big.roundDown).toString();
}

export function cmp(a: string, b: string): -1 | 0 | 1 {
  return big(a).cmp(big(b));
}

export const gt = (a: string, b: string): boolean => cmp(a, b) > 0;
export const gte = (a: string, b: string): boolean => cmp(a, b) >= 0;
export const lt = (a: string, b: string): boolean => cmp(a, b) < 0;
export const lte = (a: string, b: string): boolean => cmp(a, b) <= 0;
export const isZero = (a: string): boolean => big(a).eq(0);

/** Round down (towards zero) to `precision` decimal places, as the exchange does for withdrawals. */
export function roundDown(value: string, precision: number): string {
  return big(value).round(precision, Big.roundDown).toString();
}

/** Round up to `precision` places (for a buy's worst price, which is a ceiling). */
export function roundUp(value: string, precision: number): string {
  return big(value).round(precision, Big.roundUp).toString();
}

/** Number of digits after the point ("1.250" -> 3). */
export function decimalPlaces(value: string): number {
  const dot = value.indexOf('.');
  return dot === -1 ? 0 : value.length - dot - 1;
}

/** Fixed number of places for display, rounding down ("1.5", 2 -> "1.50"). */
export function toFixed(value: string, places: number): string {
  return big(value).toFixed(places, Big.roundDown);
}

/** Up for a buy's ceiling (bps > 0), down for a sell's floor. @example applyBps('100', 50) // '100.5' */
export function applyBps(price: string, bps: number): string {
  if (!Number.isInteger(bps)) throw new TypeError('basis points must be a whole number');
  return big(price)
    .times(new Big(10_000 + bps))
    .div(10_000)
    .toString();
}

/** The integer part grouped with commas, on the string: "-12345.5" -> "-12,345.5". For a signed decimal only. */
export function groupThousands(value: string): string {
  const negative = value.startsWith('-');
  const unsigned = negative ? value.slice(1) : value;
  const [int = '0', frac] = unsigned.split('.');
  const withCommas = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${withCommas}${frac === undefined ? '' : `.${frac}`}`;
}
