/** Ready-made request inputs against the fake exchange's seed data. */
import type { RequestInput } from '../../../../src/bot/engine/approval/make-request.js';
import { ADDR_OK } from './fake-exchange.js';

export const cryptoInput = (
  amount = '250.123456',
  over: Partial<Extract<RequestInput, { kind: 'crypto_withdrawal' }>> = {},
): RequestInput => ({
  kind: 'crypto_withdrawal',
  cryptoCurrencyId: 1,
  addressBookId: ADDR_OK,
  amount,
  note: 'OTC settlement <!channel>',
  purpose: 'settlement',
  ...over,
});

export const fiatInput = (
  amount = '1000',
  over: Partial<Extract<RequestInput, { kind: 'fiat_withdrawal' }>> = {},
): RequestInput => ({
  kind: 'fiat_withdrawal',
  currency: 'USD',
  bankAccountId: 101,
  amount,
  ...over,
});

export const tradeInput = (over: Partial<Extract<RequestInput, { kind: 'trade' }>> = {}): RequestInput => ({
  kind: 'trade',
  symbol: 'BTC-USD',
  side: 'buy',
  quantity: '1',
  quantityCurrency: 'BTC',
  paymentMethod: 'user_balance',
  limit: { slippageBps: 50 },
  ...over,
});

export const removalInput = (bankAccountId = 102): RequestInput => ({ kind: 'bank_account_removal', bankAccountId });
