// The value of a request in a currency: decimal strings only, valued high, frozen in the snapshot.
import { describe, expect, it } from 'vitest';
import {
  pairFor,
  principalOf,
  spotPrice,
  valuationAt,
  valuationIn,
  valueAtLeast,
  withValuations,
} from '../../../src/bot/domain/valuation.js';
import type { Snapshot } from '../../../src/bot/domain/request.js';

const btc: Snapshot = {
  kind: 'crypto_withdrawal',
  cryptoCurrencyId: 101,
  asset: 'BTC',
  network: 'Bitcoin',
  precision: 8,
  amount: '1.5',
  fee: '0.0002',
  total: '1.5002',
  destination: { id: 'a', label: 'Cold', address: 'bc1q', addressTag: null },
  note: null,
  purpose: null,
};
const trade = (side: 'buy' | 'sell', quantityCurrency: string | null): Snapshot => ({
  kind: 'trade',
  symbol: 'BTC-USD',
  side,
  quantity: '1000',
  quantityCurrency,
  paymentMethod: 'user_balance',
  limitPrice: '61000',
  slippageBps: null,
  quote: { quoteId: 'q', price: '60000', expiresAt: 0 },
  note: null,
});

describe('principalOf: what is valued, fees apart', () => {
  it.each([
    ['a crypto withdrawal: its amount, not its total', btc, { amount: '1.5', currency: 'BTC' }],
    ['a buy with no quantity currency: the counter currency', trade('buy', null), { amount: '1000', currency: 'USD' }],
    ['a sell with no quantity currency: the base', trade('sell', null), { amount: '1000', currency: 'BTC' }],
    ['a trade in the currency given', trade('buy', 'BTC'), { amount: '1000', currency: 'BTC' }],
  ])('%s', (_, snapshot, expected) => {
    expect(principalOf(snapshot)).toEqual(expected);
  });

  it('a bank account removal moves nothing', () => {
    expect(
      principalOf({ kind: 'bank_account_removal', bankAccount: { id: 1, currency: 'USD', display: 'x' }, note: null }),
    ).toBeUndefined();
  });
});

describe('valuationAt', () => {
  it.each([
    // amount, price, value: exact decimal products, never floats
    ['1.5', '82304.52', '123456.78'],
    ['0.1', '0.2', '0.02'],
    ['0.00000001', '99999.99', '0.0009999999'],
    ['123456789.123456789', '1', '123456789.123456789'],
  ])('%s at %s is worth %s', (amount, price, value) => {
    expect(valuationAt({ amount, currency: 'BTC' }, 'USD', price, 7)).toEqual({
      currency: 'USD',
      value,
      amount,
      of: 'BTC',
      price,
      pair: 'BTC-USD',
      at: 7,
    });
  });

  it('needs no price in its own currency', () => {
    expect(pairFor('USD', 'USD')).toBeUndefined();
    expect(valuationAt({ amount: '250.50', currency: 'USD' }, 'USD', 'ignored', 1)).toMatchObject({
      value: '250.5',
      price: '1',
      pair: null,
    });
  });

  it('takes the higher side of the spot, so the spread never makes a request look small', () => {
    expect(spotPrice({ buy: '60060', sell: '59940' })).toBe('60060');
    expect(spotPrice({ buy: '1.0', sell: '1.5' })).toBe('1.5');
  });
});

describe('frozen in the snapshot', () => {
  const usd = valuationAt({ amount: '1.5', currency: 'BTC' }, 'USD', '70000', 1);
  it('reads back by currency, replacing a valuation in the same currency', () => {
    const once = withValuations(btc, [usd]);
    expect(valuationIn(once, 'USD')).toEqual(usd);
    expect(valuationIn(once, 'SGD')).toBeUndefined();
    const again = withValuations(once, [{ ...usd, value: '1' }]);
    expect(again.kind === 'crypto_withdrawal' && again.valuations).toHaveLength(1);
  });

  it.each([
    ['104999.99', true],
    ['105000', true],
    ['105000.01', false],
  ])('value 105000 is at least %s: %s', (threshold, expected) => {
    expect(valueAtLeast(withValuations(btc, [usd]), threshold, 'USD')).toBe(expected);
  });

  it('says nothing (undefined) for a currency it was never priced in', () => {
    expect(valueAtLeast(btc, '1', 'USD')).toBeUndefined();
  });
});
