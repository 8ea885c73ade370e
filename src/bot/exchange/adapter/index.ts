// The engine's exchange port over the wire API: the one place that maps exchange bodies to the
// engine's records and back.
import type { ExchangeLimits, ExchangePort } from '../../ports/exchange-port.js';
import type { ExchangeApi } from '../wire-api.js';
import { DEFAULT_RATE_LIMIT_PER_SECOND, MAX_PAGE_SIZE, PAYMENT_METHODS } from '../assumptions.js';
import { declareCounterparty } from './counterparty-body.js';
import { deposit } from './deposit-records.js';
import { balance, currencyEntry, fiatTerms, knownWallet, savedAddress, savedBankAccount } from './lookup-records.js';
import {
  cryptoWithdrawalView,
  listedCryptoWithdrawal,
  listedFiatWithdrawal,
  listedOrder,
  orderView,
} from './remote-views.js';
import { mapped } from './mapped.js';
import { sends } from './sends.js';

/** What the exchange allows, as assumptions.ts states it. */
export const EXCHANGE_LIMITS: ExchangeLimits = {
  maxPageSize: MAX_PAGE_SIZE,
  requestsPerSecond: DEFAULT_RATE_LIMIT_PER_SECOND,
};

export function createExchangePort(api: ExchangeApi): ExchangePort {
  return {
    limits: EXCHANGE_LIMITS,
    paymentMethods: PAYMENT_METHODS,
    currencyEntries: async () => (await api.listCryptoCurrencies()).map(currencyEntry),
    savedAddresses: (opts) => mapped(api.listAddressBook(opts), savedAddress),
    bankAccounts: (query, opts) => mapped(api.listBankAccounts(query, opts), savedBankAccount),
    fiatTerms: async () => {
      const [fees, limits] = await Promise.all([api.listFiatWithdrawalFees(), api.listFiatWithdrawalLimits()]);
      return fiatTerms(fees, limits);
    },
    balances: async (query) => (await api.listBalances(query)).map(balance),
    knownWallets: async (query) => (await api.listKnownWallets(query)).map(knownWallet),
    spotPrice: async (base, counter) => {
      const spot = await api.getSpotPrice(base, counter);
      return { buy: spot.buy_price, sell: spot.sell_price };
    },

    ...sends(api),

    cryptoWithdrawal: async (id) => cryptoWithdrawalView(await api.getCryptoWithdrawal(id)),
    order: async (id) => orderView(await api.getOrder(id)),
    cryptoWithdrawals: (window, opts) =>
      mapped(api.listCryptoWithdrawals(timeQuery(window), opts), listedCryptoWithdrawal),
    fiatWithdrawals: (opts) => mapped(api.listFiatWithdrawals(opts), listedFiatWithdrawal),
    orders: (window, opts) => mapped(api.listOrders(timeQuery(window), opts), listedOrder),

    cryptoDeposits: (window, opts) =>
      mapped(
        api.listCryptoDeposits(
          {
            ...(window.createdAfter !== undefined ? { created_at_after: window.createdAfter } : {}),
            ...(window.createdBefore !== undefined ? { created_at_before: window.createdBefore } : {}),
          },
          opts,
        ),
        deposit,
      ),
    declareCounterparty: (transactionId, declaration) => declareCounterparty(api, transactionId, declaration),

    clockOffsetMs: () => api.clockOffsetMs(),
  };
}

function timeQuery(window: { from?: number; to?: number }): { from_time?: number; to_time?: number } {
  return {
    ...(window.from !== undefined ? { from_time: window.from } : {}),
    ...(window.to !== undefined ? { to_time: window.to } : {}),
  };
}
