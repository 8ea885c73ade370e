/** The one amount rule (domain/amount.ts): what a person types, the asset's rules, the fee and the total. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAmount } from '../../../src/bot/domain/amount.js';
import { decimalPlaces, isDecimal, normalize } from '../../../src/bot/domain/money.js';

const BTC = { currency: 'BTC', precision: 8 };
const err = (text: string, rules: Parameters<typeof checkAmount>[1] = BTC) => {
  const r = checkAmount(text, rules);
  return r.ok ? `ok ${r.amount}` : r.error;
};

describe('checkAmount', () => {
  it('reads what people type', () => {
    expect(checkAmount(' 0.25 ', BTC)).toEqual({ ok: true, amount: '0.25', fee: '0', total: '0.25' });
    expect(err('.5')).toBe('ok 0.5');
    expect(err('12.')).toBe('ok 12');
    expect(err('007.50')).toBe('ok 7.5');
  });

  it('refuses what is not a number, in plain words', () => {
    expect(err('')).toBe('Enter an amount.');
    expect(err('abc')).toBe('That is not a number: use digits and a point, e.g. 0.25.');
    expect(err('1e3')).toBe('That is not a number: use digits and a point, e.g. 0.25.');
    expect(err('1,250.5')).toBe('Write the amount without commas: digits and a point, e.g. 1250.5.');
    expect(err('0,5')).toBe('Write the amount without commas: digits and a point, e.g. 1250.5.');
    expect(err('-1')).toBe('The amount must be more than zero.');
    expect(err('0.000')).toBe('The amount must be more than zero.');
  });

  it('shows the rounded value when there are too many decimals', () => {
    expect(err('1.123456789')).toBe('BTC takes at most 8 decimals. Did you mean 1.12345678? (rounded down)');
    expect(err('0.000000001')).toBe('BTC takes at most 8 decimals; this rounds down to 0.');
    expect(err('10.5', { currency: 'JPY', precision: 0 })).toBe(
      'JPY takes whole amounts only. Did you mean 10? (rounded down)',
    );
  });

  it('checks the minimum, the maximum and the balance including the fee, with the numbers', () => {
    const rules = { currency: 'BTC', precision: 8, minimum: '0.001', available: '1.2', fee: '0.0005' };
    expect(err('0.0009', rules)).toBe('The minimum is 0.001 BTC.');
    expect(err('1.2', rules)).toBe('1.2 BTC plus the 0.0005 BTC fee is 1.2005 BTC, more than the 1.2 BTC available.');
    expect(checkAmount('1.1995', rules)).toEqual({ ok: true, amount: '1.1995', fee: '0.0005', total: '1.2' });
    expect(err('250001', { currency: 'SGD', precision: 2, maximum: '250000' })).toBe('The maximum is 250,000 SGD.');
    expect(err('5', { currency: 'SGD', precision: 2, available: '4' })).toBe('5 SGD is more than the 4 SGD available.');
  });

  it('property: any string is either a field error or a valid normalized decimal within the precision', () => {
    const inputs = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.stringMatching(/^[0-9.,\- e+]{0,30}$/),
      fc
        .tuple(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.bigInt({ min: 0n, max: 10n ** 20n }))
        .map(([a, b]) => `${a}.${b}`),
    );
    fc.assert(
      fc.property(inputs, fc.integer({ min: 0, max: 18 }), (text, precision) => {
        const r = checkAmount(text, { currency: 'X', precision, available: '1000000', fee: '0.1' });
        if (r.ok) {
          expect(isDecimal(r.amount)).toBe(true);
          expect(normalize(r.amount)).toBe(r.amount);
          expect(decimalPlaces(r.amount)).toBeLessThanOrEqual(precision);
        } else {
          expect(typeof r.error).toBe('string');
          expect(r.error.length).toBeGreaterThan(0);
          expect(r.error.length).toBeLessThan(300);
        }
      }),
      { numRuns: 500 },
    );
  });
});
