// The one amount rule: read what was typed, check it against the asset (precision, minimum,
// maximum), work out fee and total. Too many decimals is refused with the rounded-down value
// offered, never rounded silently: money moves only as typed. request.ts applies it per kind.
import { add, decimalPlaces, groupThousands, gt, isZero, lt, normalize, roundDown } from './money.js';

export const FIAT_PRECISION = 2;
/** Decimal places accepted for a trade quantity; the exchange has the last word. */
export const TRADE_QUANTITY_PRECISION = 8;
export const PRICE_DECIMALS = 18;

/** "12,345.5 BTC" (values are decimals here). */
const formatAmount = (value: string, currency: string): string => `${groupThousands(value)} ${currency}`;

export interface AmountRules {
  /** Shown in messages, e.g. "BTC". */
  currency: string;
  /** Decimal places allowed (the crypto entry's precision; 2 for most fiat). */
  precision: number;
  minimum?: string;
  maximum?: string;
  /** Spendable balance; with `fee`, amount + fee must fit in it. */
  available?: string;
  fee?: string;
  /** What the number is, for the messages. */
  what?: 'amount' | 'quantity' | 'price';
}

export type AmountCheck = { ok: true; amount: string; fee: string; total: string } | { ok: false; error: string };

/** Longest input we read; anything longer is not an amount a person typed. */
const MAX_INPUT = 60;

/**
 * Read an amount: "0.25", ".5", "12." are fine; commas, signs, exponents and words are refused with how to write it.
 * @example checkAmount('1.123456789', { currency: 'BTC', precision: 8 }) // error: "... did you mean 1.12345678?"
 */
export function checkAmount(text: string | null | undefined, rules: AmountRules): AmountCheck {
  const what = rules.what ?? 'amount';
  const t = (text ?? '').trim();
  if (t === '') return fail(`Enter ${what === 'amount' ? 'an' : 'a'} ${what}.`);
  if (t.length > MAX_INPUT) return fail('That is not a number: use digits and a point, e.g. 0.25.');
  if (/^[-−]/.test(t)) return fail(`The ${what} must be more than zero.`);
  if (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(t) || /^\d+,\d+$/.test(t))
    return fail(`Write the ${what} without commas: digits and a point, e.g. 1250.5.`);
  const m = /^(\d*)(?:\.(\d*))?$/.exec(t);
  if (!m || (m[1] === '' && (m[2] ?? '') === ''))
    return fail('That is not a number: use digits and a point, e.g. 0.25.');
  const amount = normalize(`${m[1] || '0'}${m[2] ? `.${m[2]}` : ''}`);
  if (isZero(amount)) return fail(`The ${what} must be more than zero.`);

  const c = rules.currency;
  if (decimalPlaces(amount) > rules.precision) {
    const rounded = roundDown(amount, rules.precision);
    const allowed =
      rules.precision === 0
        ? 'whole amounts only'
        : `at most ${rules.precision} decimal${rules.precision === 1 ? '' : 's'}`;
    if (isZero(rounded)) return fail(`${c} takes ${allowed}; this rounds down to 0.`);
    return fail(`${c} takes ${allowed}. Did you mean ${rounded}? (rounded down)`);
  }
  if (rules.minimum !== undefined && lt(amount, rules.minimum))
    return fail(`The minimum is ${formatAmount(normalize(rules.minimum), c)}.`);
  if (rules.maximum !== undefined && gt(amount, rules.maximum))
    return fail(`The maximum is ${formatAmount(normalize(rules.maximum), c)}.`);
  const fee = rules.fee === undefined ? '0' : normalize(rules.fee);
  const total = add(amount, fee);
  if (rules.available !== undefined && gt(total, rules.available)) {
    const available = formatAmount(normalize(rules.available), c);
    if (isZero(fee)) return fail(`${formatAmount(amount, c)} is more than the ${available} available.`);
    return fail(
      `${formatAmount(amount, c)} plus the ${formatAmount(fee, c)} fee is ${formatAmount(total, c)}, more than the ${available} available.`,
    );
  }
  return { ok: true, amount, fee, total };
}

const fail = (error: string): AmountCheck => ({ ok: false, error });
