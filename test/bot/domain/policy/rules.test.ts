// The rule matcher: the first rule whose criteria all hold decides; the value is the one frozen in the snapshot.
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../../../src/bot/domain/policy.js';
import { currenciesToValue, ruleFor } from '../../../../src/bot/domain/policy/rules.js';
import type { Snapshot } from '../../../../src/bot/domain/request.js';
import { valuationAt, withValuations } from '../../../../src/bot/domain/valuation.js';

const policy = createPolicy({
  requesters: ['R'],
  groups: { treasury: ['T1', 'T2', 'T3'], risk: ['K1', 'K2'] },
  rules: [
    {
      name: 'large withdrawals',
      match: { kinds: ['crypto_withdrawal', 'fiat_withdrawal'], valueAtLeast: { amount: '100000', currency: 'USD' } },
      require: [
        { group: 'treasury', count: 2 },
        { group: 'risk', count: 1 },
      ],
    },
    { name: 'ETH trades', match: { kinds: ['trade'], assets: ['ETH'] }, require: [{ group: 'risk', count: 2 }] },
    {
      name: 'trades',
      match: { kinds: ['trade'] },
      require: [{ group: 'treasury', count: 2 }],
      expiresAfterMs: 900_000,
    },
    { name: 'everything else', require: [{ group: 'treasury', count: 2 }] },
  ],
});

const btc = (amount: string): Snapshot => ({
  kind: 'crypto_withdrawal',
  cryptoCurrencyId: 101,
  asset: 'BTC',
  network: 'Bitcoin',
  precision: 8,
  amount,
  fee: '0.0002',
  total: amount,
  destination: { id: 'a', label: 'Cold', address: 'bc1q', addressTag: null },
  note: null,
  purpose: null,
});
const worth = (s: Snapshot, usd: string): Snapshot =>
  withValuations(s, [valuationAt({ amount: '1', currency: 'BTC' }, 'USD', usd, 0)]);
const trade = (symbol: string): Snapshot => ({
  kind: 'trade',
  symbol,
  side: 'buy',
  quantity: '1',
  quantityCurrency: null,
  paymentMethod: 'user_balance',
  limitPrice: '1',
  slippageBps: null,
  quote: { quoteId: 'q', price: '1', expiresAt: 0 },
  note: null,
});
const removal: Snapshot = {
  kind: 'bank_account_removal',
  bankAccount: { id: 1, currency: 'USD', display: 'x' },
  note: null,
};

describe('ruleFor', () => {
  it.each([
    ['a withdrawal worth exactly the value', worth(btc('1'), '100000'), 'large withdrawals'],
    ['a withdrawal worth a cent less', worth(btc('1'), '99999.99'), 'everything else'],
    ['a withdrawal never priced: taken as large, never as small', btc('1'), 'large withdrawals'],
    ['an ETH trade: the asset criterion', trade('ETH-USD'), 'ETH trades'],
    ['a BTC trade: the first rule that matches', trade('BTC-USD'), 'trades'],
    ['a removal: no value, so no value rule', removal, 'everything else'],
  ])('%s: %s', (_, snapshot, name) => {
    expect(ruleFor(policy, snapshot)?.name).toBe(name);
  });

  it('none matches: undefined (the request is refused)', () => {
    const narrow = createPolicy({
      requesters: ['R'],
      groups: { treasury: ['T1', 'T2', 'T3'] },
      rules: [{ name: 'trades', match: { kinds: ['trade'] }, require: [{ group: 'treasury', count: 2 }] }],
    });
    expect(ruleFor(narrow, removal)).toBeUndefined();
  });
});

describe('currenciesToValue', () => {
  it.each([
    ['a withdrawal: the value rule before the catch-all', btc('1'), ['USD']],
    ['a trade: no value rule could decide it', trade('BTC-USD'), []],
    ['a removal moves nothing', removal, []],
  ])('%s', (_, snapshot, currencies) => {
    expect(currenciesToValue(policy, snapshot)).toEqual(currencies);
  });
});
