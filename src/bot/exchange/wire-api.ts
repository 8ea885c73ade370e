// The exchange operations the bot uses, in the reference's own bodies; client.ts implements it.
// Every method throws ExchangeError only; writes are never retried inside, reads may be.
import type { ListOptions } from '../ports/list-options.js';
import type {
  AddressBookAddress,
  Balance,
  BankAccount,
  CounterpartyInfoBody,
  CreateCryptoWithdrawalBody,
  CreateFiatWithdrawalBody,
  CreateOrderBody,
  CreateQuoteBody,
  CryptoCurrencyEntry,
  CryptoDeposit,
  CryptoWithdrawal,
  CryptoWithdrawalListItem,
  FiatDeposit,
  FiatWithdrawal,
  FiatWithdrawalFee,
  FiatWithdrawalLimit,
  FiatWithdrawalListItem,
  KnownWallet,
  Network,
  Order,
  Quote,
  SpotPrice,
} from './schemas.js';

export interface ExchangeApi {
  listBalances(query?: { currency?: string }): Promise<Balance[]>;
  listBankAccounts(query?: { currency?: string }, opts?: ListOptions): AsyncIterable<BankAccount>;
  deleteBankAccount(id: string): Promise<void>;
  listCryptoDeposits(
    query?: { created_at_after?: number; created_at_before?: number },
    opts?: ListOptions,
  ): AsyncIterable<CryptoDeposit>;
  createCryptoWithdrawal(body: CreateCryptoWithdrawalBody): Promise<CryptoWithdrawal>;
  listCryptoWithdrawals(
    query?: { from_time?: number; to_time?: number },
    opts?: ListOptions,
  ): AsyncIterable<CryptoWithdrawalListItem>;
  getCryptoWithdrawal(id: string): Promise<CryptoWithdrawal>;
  listKnownWallets(query?: { name?: string }): Promise<KnownWallet[]>;
  listFiatDeposits(opts?: ListOptions): AsyncIterable<FiatDeposit>;
  listFiatWithdrawalFees(): Promise<FiatWithdrawalFee[]>;
  listFiatWithdrawalLimits(): Promise<FiatWithdrawalLimit[]>;
  listFiatWithdrawals(opts?: ListOptions): AsyncIterable<FiatWithdrawalListItem>;
  createFiatWithdrawal(body: CreateFiatWithdrawalBody): Promise<FiatWithdrawal>;
  submitCounterpartyInfo(transactionId: string, body: CounterpartyInfoBody): Promise<Record<string, unknown>>;
  listNetworks(): Promise<Network[]>;
  listCryptoCurrencies(): Promise<CryptoCurrencyEntry[]>;
  listAddressBook(opts?: ListOptions): AsyncIterable<AddressBookAddress>;
  createQuote(body: CreateQuoteBody): Promise<Quote>;
  createOrder(body: CreateOrderBody): Promise<Order>;
  getOrder(id: string): Promise<Order>;
  listOrders(query?: { from_time?: number; to_time?: number }, opts?: ListOptions): AsyncIterable<Order>;
  /** The unauthenticated spot price of base-counter (api-facts.md "Paths"). */
  getSpotPrice(base: string, counter: string): Promise<SpotPrice>;
  /** The exchange's clock minus ours in ms, from the latest response's Date header; undefined before any. */
  clockOffsetMs(): number | undefined;
}
