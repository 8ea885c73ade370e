/**
 * What the World's sandbox holds from its seed (ids are the seed's, whatever the clock), and
 * ready-made request inputs against it.
 */
import type { RequestInput } from '../../../../src/bot/engine/approval/make-request.js';
import { seedState } from '../../../../src/stand-ins/sandbox/seed.js';

/** The seed of every World's sandbox. */
export const SEED = 'engine';

const seeded = seedState(SEED, 0, []);
const book = seeded.accounts.get('main')!.addressBook;
const addressId = (label: string) => book.find((a) => a.label === label)!.id;

/** USDT on Tron: fee 1, minimum 10, precision 2. */
export const USDT_TRON = 104;
/** Verified, names its wallet, out of its cooldown: the usual destination (a USDT TRC20 address). */
export const ADDR_OK = addressId('OTC partner (TRC20)');
/** Verified, on Ethereum, in its cooldown for 22 hours from the start. */
export const ADDR_COOLDOWN = addressId('New exchange account');
/** USDT on Ethereum (ADDR_COOLDOWN's network). */
export const USDT_ERC20 = 103;
/** The verified USD account, and an unverified SGD one. */
export const USD_BANK = 1001;
export const SGD_BANK_UNVERIFIED = 1002;

export const cryptoInput = (
  amount = '250.12',
  over: Partial<Extract<RequestInput, { kind: 'crypto_withdrawal' }>> = {},
): RequestInput => ({
  kind: 'crypto_withdrawal',
  cryptoCurrencyId: USDT_TRON,
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
  bankAccountId: USD_BANK,
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

export const removalInput = (bankAccountId = SGD_BANK_UNVERIFIED): RequestInput => ({
  kind: 'bank_account_removal',
  bankAccountId,
});
