/** Snapshots for the pure decision tests: what an approved request would execute. */
import type { IndicativeQuote, Snapshot } from '../../../../src/bot/domain/request.js';

export const withdrawalSnapshot: Snapshot = {
  kind: 'crypto_withdrawal',
  cryptoCurrencyId: 101,
  asset: 'BTC',
  network: 'Bitcoin',
  precision: 8,
  amount: '0.05',
  fee: '0.0001',
  total: '0.0501',
  destination: { id: 'a1', label: 'Cold', address: 'bc1q', addressTag: null },
  note: null,
  purpose: null,
};

/** Buy 0.1 BTC on `quote`, at most `limitPrice`. */
export function tradeSnapshot(quote: IndicativeQuote, limitPrice: string): Snapshot {
  return {
    kind: 'trade',
    symbol: 'BTC-USD',
    side: 'buy',
    quantity: '0.1',
    quantityCurrency: 'BTC',
    paymentMethod: 'user_balance',
    limitPrice,
    slippageBps: 50,
    quote,
    note: null,
  };
}
