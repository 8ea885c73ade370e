import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalJson } from '../../../src/bot/domain/canonical.js';
import {
  bankAccountDisplay,
  buildCryptoWithdrawal,
  buildFiatWithdrawal,
  buildTrade,
  checkLimitPrice,
  checkTradeFields,
  checkTradeQuantity,
  cryptoWithdrawalAmount,
  fiatWithdrawalAmount,
  limitFromSlippage,
  snapshotHash,
  withinLimit,
  type CurrencyEntryFacts,
  type DestinationFacts,
} from '../../../src/bot/domain/request.js';

const entry: CurrencyEntryFacts = {
  id: 7,
  asset: 'USDT',
  network: 'Tron',
  networkId: 'n-tron',
  precision: 2,
  withdrawalFee: '1.50',
  minimumWithdrawal: '10',
};
const dest: DestinationFacts = {
  id: 'd1',
  label: 'Cold',
  address: 'TXYZ',
  addressTag: null,
  verified: true,
  networkIds: ['n-tron'],
};

// The amount rule of each request kind, once (the generic reading: amount.test.ts). The builders
// below and the Slack forms (test/bot/slack/withdrawals/withdraw-validation.test.ts and
// trades/trade-validation.test.ts) are only checked to show these answers.
describe('the amount rule of each request kind', () => {
  const btc = { asset: 'BTC', precision: 8, withdrawalFee: '0.0005', minimumWithdrawal: '0.001' };
  const usd = { currency: 'USD', fee: '20', minimum: '100', maximum: '50000' };

  it("crypto: the entry's precision refuses extra decimals naming the precision and the rounded-down value; the amount is never changed", () => {
    expect(cryptoWithdrawalAmount(btc, '1.123456789')).toEqual({
      ok: false,
      error: 'BTC takes at most 8 decimals. Did you mean 1.12345678? (rounded down)',
    });
    expect(cryptoWithdrawalAmount({ ...btc, asset: 'USDT', precision: 2 }, '12.349')).toEqual({
      ok: false,
      error: 'USDT takes at most 2 decimals. Did you mean 12.34? (rounded down)',
    });
    expect(cryptoWithdrawalAmount(btc, '0.000000001')).toEqual({
      ok: false,
      error: 'BTC takes at most 8 decimals; this rounds down to 0.',
    });
    expect(cryptoWithdrawalAmount(btc, '1.12345678')).toEqual({
      ok: true,
      amount: '1.12345678',
      fee: '0.0005',
      total: '1.12395678',
    });
  });

  it('crypto: the minimum when the entry has one, the fee and the total (amount + fee, in decimal strings)', () => {
    expect(cryptoWithdrawalAmount(btc, '0.0009')).toEqual({ ok: false, error: 'The minimum is 0.001 BTC.' });
    expect(cryptoWithdrawalAmount({ ...btc, minimumWithdrawal: null }, '0.0009')).toEqual({
      ok: true,
      amount: '0.0009',
      fee: '0.0005',
      total: '0.0014',
    });
    // 0.1 + 0.2 in floating point is 0.30000000000000004: the total is decimal arithmetic.
    expect(cryptoWithdrawalAmount({ ...btc, withdrawalFee: '0.2', minimumWithdrawal: null }, '0.1')).toMatchObject({
      ok: true,
      total: '0.3',
    });
    expect(cryptoWithdrawalAmount({ ...btc, withdrawalFee: '0.00050000' }, '2.50')).toEqual({
      ok: true,
      amount: '2.5',
      fee: '0.0005',
      total: '2.5005',
    });
  });

  it('crypto: with a balance (the form knows it), the total must fit in it', () => {
    expect(cryptoWithdrawalAmount(btc, '1.2', '1.2')).toEqual({
      ok: false,
      error: '1.2 BTC plus the 0.0005 BTC fee is 1.2005 BTC, more than the 1.2 BTC available.',
    });
    expect(cryptoWithdrawalAmount(btc, '1.1995', '1.2')).toEqual({
      ok: true,
      amount: '1.1995',
      fee: '0.0005',
      total: '1.2',
    });
  });

  it('fiat: two decimals (more refused, never rounded), the minimum, the maximum, the fee and the total', () => {
    expect(fiatWithdrawalAmount(usd, '500.005')).toEqual({
      ok: false,
      error: 'USD takes at most 2 decimals. Did you mean 500? (rounded down)',
    });
    expect(fiatWithdrawalAmount(usd, '99.99')).toEqual({ ok: false, error: 'The minimum is 100 USD.' });
    expect(fiatWithdrawalAmount(usd, '50000.01')).toEqual({ ok: false, error: 'The maximum is 50,000 USD.' });
    expect(fiatWithdrawalAmount(usd, '50000')).toEqual({ ok: true, amount: '50000', fee: '20', total: '50020' });
    expect(fiatWithdrawalAmount(usd, '995', '1000')).toEqual({
      ok: false,
      error: '995 USD plus the 20 USD fee is 1,015 USD, more than the 1,000 USD available.',
    });
  });

  it('trade: a quantity takes at most 8 decimals and a price at most 18, refused not rounded', () => {
    expect(checkTradeQuantity('0.123456789', 'BTC')).toEqual({
      ok: false,
      error: 'BTC takes at most 8 decimals. Did you mean 0.12345678? (rounded down)',
    });
    expect(checkTradeQuantity('0.123456789', null)).toEqual({
      ok: false,
      error: 'The quantity takes at most 8 decimals. Did you mean 0.12345678? (rounded down)',
    });
    expect(checkTradeQuantity('.50', 'BTC')).toEqual({ ok: true, amount: '0.5', fee: '0', total: '0.5' });
    expect(checkTradeQuantity('', 'BTC')).toEqual({ ok: false, error: 'Enter a quantity.' });
    expect(checkLimitPrice('0.1234567890123456789', 'USD')).toEqual({
      ok: false,
      error: 'USD takes at most 18 decimals. Did you mean 0.123456789012345678? (rounded down)',
    });
    expect(checkLimitPrice('cheap', 'USD')).toEqual({
      ok: false,
      error: 'That is not a number: use digits and a point, e.g. 0.25.',
    });
  });
});

describe('crypto withdrawal snapshot', () => {
  it('keeps the amount as typed and adds the fee; more decimals than the precision are refused, never rounded', () => {
    const r = buildCryptoWithdrawal(entry, dest, { amount: '12.340', note: ' ', purpose: 'rent' });
    expect(r).toEqual({
      ok: true,
      value: expect.objectContaining({
        amount: '12.34',
        fee: '1.5',
        total: '13.84',
        note: null,
        purpose: 'rent',
        cryptoCurrencyId: 7,
      }),
    });
    expect(buildCryptoWithdrawal(entry, dest, { amount: '12.349' })).toEqual({
      ok: false,
      field: 'amount',
      message: 'USDT takes at most 2 decimals. Did you mean 12.34? (rounded down)',
    });
  });

  it('refuses zero, below the minimum, not a number, unverified, or other-network destinations', () => {
    expect(buildCryptoWithdrawal(entry, dest, { amount: '0.001' })).toMatchObject({ ok: false, field: 'amount' });
    expect(buildCryptoWithdrawal(entry, dest, { amount: '0' })).toMatchObject({ ok: false, field: 'amount' });
    expect(buildCryptoWithdrawal(entry, dest, { amount: '9.99' })).toMatchObject({ ok: false, field: 'amount' });
    expect(buildCryptoWithdrawal(entry, dest, { amount: '1e3' })).toMatchObject({ ok: false, field: 'amount' });
    expect(buildCryptoWithdrawal(entry, { ...dest, verified: false }, { amount: '20' })).toMatchObject({
      ok: false,
      field: 'destination',
    });
    expect(buildCryptoWithdrawal(entry, { ...dest, networkIds: ['n-eth'] }, { amount: '20' })).toMatchObject({
      ok: false,
      field: 'destination',
    });
  });
});

describe('fiat withdrawal snapshot', () => {
  const facts = {
    currency: 'USD',
    fee: '20',
    minimum: '100',
    maximum: '50000',
    bankAccount: { id: 3, currency: 'USD', display: 'x' },
  };
  it('keeps within the limits', () => {
    expect(buildFiatWithdrawal(facts, { amount: '99.99' })).toMatchObject({ ok: false, field: 'amount' });
    expect(buildFiatWithdrawal(facts, { amount: '50000.01' })).toMatchObject({ ok: false, field: 'amount' });
    expect(
      buildFiatWithdrawal({ ...facts, bankAccount: { ...facts.bankAccount, currency: 'SGD' } }, { amount: '500' }),
    ).toMatchObject({ ok: false, field: 'bank_account' });
    expect(buildFiatWithdrawal(facts, { amount: '500.0' })).toMatchObject({
      ok: true,
      value: { amount: '500', total: '520' },
    });
    // Two decimals for fiat: the third is refused, not rounded away.
    expect(buildFiatWithdrawal(facts, { amount: '500.005' })).toEqual({
      ok: false,
      field: 'amount',
      message: 'USD takes at most 2 decimals. Did you mean 500? (rounded down)',
    });
  });
});

describe('trade snapshot', () => {
  const quote = { quoteId: 'q1', price: '100', expiresAt: 5000 };
  const base = { symbol: 'BTC-USD', side: 'buy' as const, quantity: '1', paymentMethod: 'user_balance' };

  it('derives a ceiling for a buy and a floor for a sell from a slippage', () => {
    expect(buildTrade({ ...base, limit: { slippageBps: 50 } }, quote)).toMatchObject({
      ok: true,
      value: { limitPrice: '100.5', slippageBps: 50 },
    });
    expect(buildTrade({ ...base, side: 'sell', limit: { slippageBps: 50 } }, quote)).toMatchObject({
      ok: true,
      value: { limitPrice: '99.5' },
    });
    expect(buildTrade({ ...base, limit: { price: '101.00' } }, quote)).toMatchObject({
      ok: true,
      value: { limitPrice: '101', slippageBps: null },
    });
  });

  it('takes the quantity and the price as the amount rule reads them, and refuses too many decimals rather than rounding', () => {
    expect(checkTradeFields({ ...base, quantity: ' .50 ', limit: { price: '101.' } })).toEqual({
      ok: true,
      value: { ...base, quantity: '0.5', limit: { price: '101' } },
    });
    expect(buildTrade({ ...base, quantity: '.5', limit: { price: ' 101.00' } }, quote)).toMatchObject({
      ok: true,
      value: { quantity: '0.5', limitPrice: '101' },
    });
    expect(
      buildTrade({ ...base, quantity: '0.123456789', quantityCurrency: 'BTC', limit: { slippageBps: 5 } }, quote),
    ).toEqual({
      ok: false,
      field: 'quantity',
      message: 'BTC takes at most 8 decimals. Did you mean 0.12345678? (rounded down)',
    });
  });

  it('refuses bad pairs, quantities and slippage', () => {
    expect(buildTrade({ ...base, symbol: 'btcusd', limit: { slippageBps: 5 } }, quote)).toMatchObject({
      ok: false,
      field: 'symbol',
    });
    expect(buildTrade({ ...base, quantity: '0', limit: { slippageBps: 5 } }, quote)).toMatchObject({
      ok: false,
      field: 'quantity',
    });
    expect(buildTrade({ ...base, limit: { slippageBps: 1.5 } }, quote)).toMatchObject({ ok: false, field: 'limit' });
  });

  it('within limit: buy at or below the ceiling, sell at or above the floor', () => {
    expect(withinLimit('buy', '100.5', '100.5')).toBe(true);
    expect(withinLimit('buy', '100.51', '100.5')).toBe(false);
    expect(withinLimit('sell', '99.5', '99.5')).toBe(true);
    expect(withinLimit('sell', '99.49', '99.5')).toBe(false);
    expect(limitFromSlippage('sell', '200', 100)).toBe('198');
  });
});

describe('snapshot hash', () => {
  it('binds to the request id, the requester and every field, not to key order', () => {
    const s = buildCryptoWithdrawal(entry, dest, { amount: '20' });
    if (!s.ok) throw new Error('fixture');
    const h = snapshotHash('R1', 'U1', s.value);
    const reordered = Object.fromEntries(Object.entries(s.value).reverse()) as typeof s.value;
    expect(snapshotHash('R1', 'U1', reordered)).toBe(h);
    expect(snapshotHash('R2', 'U1', s.value)).not.toBe(h);
    expect(snapshotHash('R1', 'U2', s.value)).not.toBe(h);
    expect(snapshotHash('R1', 'U1', { ...s.value, amount: '20.01' })).not.toBe(h);
    expect(
      snapshotHash('R1', 'U1', { ...s.value, destination: { ...s.value.destination, address: 'TXYZ2' } }),
    ).not.toBe(h);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
  });

  it('canonical JSON is stable under key permutation and refuses floats', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null))),
        (obj) => {
          const reversed = Object.fromEntries(Object.entries(obj).reverse());
          expect(canonicalJson(reversed)).toBe(canonicalJson(obj));
          expect(JSON.parse(canonicalJson(obj))).toEqual(obj);
        },
      ),
    );
    expect(() => canonicalJson({ a: 0.1 })).toThrow(/safe integers/);
  });

  it('shows a bank account without its full number', () => {
    expect(
      bankAccountDisplay({ bankName: 'DBS', currency: 'USD', accountNumber: '0012345678', beneficiary: 'ACME' }),
    ).toBe('DBS USD ••••5678 (ACME)');
  });
});
