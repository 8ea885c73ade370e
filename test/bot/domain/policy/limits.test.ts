// Limit arithmetic: what a request counts (fees apart), which requests count (approved onwards,
// inside the window) and the room left, in decimal strings.
import { describe, expect, it } from 'vitest';
import { checkLimits, limitAmount, roomLeft, usedUnder } from '../../../../src/bot/domain/policy/limits.js';
import type { Limit } from '../../../../src/bot/domain/policy/model.js';
import type { RequestRecord } from '../../../../src/bot/domain/record.js';
import type { Snapshot } from '../../../../src/bot/domain/request.js';
import type { RequestState } from '../../../../src/bot/domain/state-machine.js';

const HOUR = 3_600_000;
const NOW = 100 * HOUR;
const limit: Limit = {
  name: 'daily BTC outflow',
  match: { kinds: ['crypto_withdrawal'], asset: 'BTC' },
  windowMs: 24 * HOUR,
  max: '5',
  over: 'refuse',
  hash: 'h',
};
const btc = (amount: string, asset = 'BTC'): Snapshot => ({
  kind: 'crypto_withdrawal',
  cryptoCurrencyId: 2,
  asset,
  network: 'Bitcoin',
  precision: 8,
  amount,
  fee: '0.0005',
  total: amount,
  destination: { id: 'a', label: 'Cold', address: 'bc1q', addressTag: null },
  note: null,
  purpose: null,
});
const record = (amount: string, state: RequestState, approvedAgoMs: number | null, asset = 'BTC') =>
  ({
    id: `R${amount}${state}`,
    state,
    snapshot: btc(amount, asset),
    execution: approvedAgoMs === null ? null : { approvedAt: NOW - approvedAgoMs },
  }) as unknown as RequestRecord;

describe('limitAmount: fees apart, only what the limit covers', () => {
  it.each([
    ['a BTC withdrawal: its amount, not its total with the fee', btc('1.25'), '1.25'],
    ['another asset', btc('1', 'ETH'), undefined],
  ])('%s', (_, snapshot, expected) => {
    expect(limitAmount(limit, snapshot)).toBe(expected);
  });

  it('another kind', () => {
    const trade: Snapshot = {
      kind: 'trade',
      symbol: 'BTC-USD',
      side: 'sell',
      quantity: '1',
      quantityCurrency: 'BTC',
      paymentMethod: 'user_balance',
      limitPrice: '1',
      slippageBps: null,
      quote: { quoteId: 'q', price: '1', expiresAt: 0 },
      note: null,
    };
    expect(limitAmount(limit, trade)).toBeUndefined();
    expect(limitAmount({ match: { asset: 'BTC' } }, trade)).toBe('1');
    expect(limitAmount({ match: { asset: 'BTC' } }, { ...trade, quantityCurrency: 'USD' })).toBeUndefined();
  });
});

describe('usedUnder and roomLeft', () => {
  it.each([
    ['nothing', [], '0', '5'],
    [
      'approved, executing, unknown, submitted and completed count',
      [
        record('0.1', 'approved', 0),
        record('0.2', 'executing', HOUR),
        record('0.3', 'unknown', HOUR),
        record('0.4', 'submitted', HOUR),
        record('0.5', 'completed', 23 * HOUR),
      ],
      '1.5',
      '3.5',
    ],
    [
      'pending, failed, rejected, cancelled and expired do not',
      [
        record('1', 'pending', null),
        record('1', 'failed', HOUR),
        record('1', 'rejected', null),
        record('1', 'cancelled', null),
        record('1', 'expired', null),
      ],
      '0',
      '5',
    ],
    [
      'approved exactly 24 h ago is out of the window; a millisecond later, in',
      [record('2', 'completed', 24 * HOUR), record('0.00000001', 'completed', 24 * HOUR - 1)],
      '0.00000001',
      '4.99999999',
    ],
    ['another asset does not count', [record('4', 'completed', HOUR, 'ETH')], '0', '5'],
    ['used beyond the max (a limit lowered): no room, never negative', [record('7', 'completed', HOUR)], '7', '0'],
  ])('%s', (_, records, used, room) => {
    const u = usedUnder(limit, records, NOW);
    expect(u).toBe(used);
    expect(roomLeft(limit, u)).toBe(room);
  });
});

describe('checkLimits', () => {
  const others = [record('3', 'completed', HOUR)];
  it.each([
    ['fits exactly', '2', false],
    ['one satoshi over', '2.00000001', true],
  ])('%s', (_, amount, over) => {
    expect(checkLimits({ limits: [limit] }, btc(amount), others, NOW)).toEqual([
      { limit, used: '3', room: '2', amount, over },
    ]);
  });
});
