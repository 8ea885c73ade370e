/**
 * What the approval engine needs from the world. Adapters implement these: exchange/ (the
 * client), store/ (durable files), slack/ (the notifier), main.ts wires them. Tests pass the
 * in-memory versions. app/ may import *types* and pure helpers from exchange/ (schemas, errors,
 * statuses, assumptions) but never the client or transport.
 */
import type {
  AddressBookAddress,
  Balance,
  BankAccount,
  CreateCryptoWithdrawalBody,
  CreateFiatWithdrawalBody,
  CreateOrderBody,
  CreateQuoteBody,
  CryptoCurrencyEntry,
  CryptoDeposit,
  CryptoWithdrawal,
  CryptoWithdrawalListItem,
  FiatWithdrawal,
  FiatWithdrawalFee,
  FiatWithdrawalLimit,
  FiatWithdrawalListItem,
  Order,
  Quote,
  CounterpartyInfoBody,
  KnownWallet,
  Network,
  FiatDeposit,
} from '../exchange/schemas.js';
import type { DeskEvent } from './events.js';
import type { Clock } from '../ports/clock.js';
import type { ListOptions } from '../ports/list-options.js';

export type { Clock, ListOptions };

// ---- exchange ---------------------------------------------------------------------------------

/**
 * The exchange as the engine and the Slack layer see it. Every method throws ExchangeError
 * (exchange/errors.ts) and nothing else. Writes are never retried inside; reads may be.
 */
export interface ExchangePort {
  listBalances(query?: { currency?: string }): Promise<Balance[]>;
  listBankAccounts(query?: { currency?: string }, opts?: ListOptions): AsyncIterable<BankAccount>;
  deleteBankAccount(id: string): Promise<void>;
  listCryptoDeposits(query?: { created_at_after?: number; created_at_before?: number }, opts?: ListOptions): AsyncIterable<CryptoDeposit>;
  createCryptoWithdrawal(body: CreateCryptoWithdrawalBody): Promise<CryptoWithdrawal>;
  listCryptoWithdrawals(query?: { from_time?: number; to_time?: number }, opts?: ListOptions): AsyncIterable<CryptoWithdrawalListItem>;
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
  /** The exchange's clock minus ours in ms, from the latest response's Date header; undefined before any. */
  clockOffsetMs(): number | undefined;
}

// ---- ids --------------------------------------------------------------------------------------

export interface Ids {
  /** A random UUID: idempotency keys (client_order_id, request_id). */
  uuid(): string;
  /** A short, human-typable request id such as `R7K2QX`. */
  requestId(): string;
}

// ---- storage ----------------------------------------------------------------------------------

export interface Mutation<R, T> {
  /** The new record to persist; undefined leaves the stored record as it is. */
  next?: R;
  /** What `mutate` resolves with. */
  result: T;
}

/**
 * Durable records with one write queue. `mutate` runs read-modify-write atomically with respect
 * to every other mutate on the same store, and resolves only after the new record is on disk
 * (fsync). Records the repository's `isFinished` says are done move to append-only history.
 */
export interface Repository<R extends { id: string }> {
  get(id: string): Promise<R | undefined>;
  /** Open and in-flight records only (not history). */
  listLive(): Promise<R[]>;
  mutate<T>(id: string, fn: (current: R | undefined) => Mutation<R, T>): Promise<T>;
  /** Most recent finished records first, for listings; bounded. */
  recentHistory(limit: number): Promise<R[]>;
}

/** Small durable values: polling positions, cursors. Written with fsync before resolving. */
export interface KeyValueStore {
  get<T>(key: string): Promise<T | undefined>;
  set<T>(key: string, value: T): Promise<void>;
}

export interface AuditEntryInput {
  /** e.g. request.created, approval.counted, approval.refused, execution.attempt, exchange.answer */
  type: string;
  /** Slack user id, `system` or `exchange`. */
  actor: string;
  requestId?: string;
  data?: Record<string, unknown>;
}

/** Append-only, fsync'd, hash-chained. Resolves after the line is durable. */
export interface AuditLog {
  append(entry: AuditEntryInput): Promise<void>;
}

// ---- notifier and logging (approval engine) ---------------------------------------------------

export type { DeskEvent, DeskEventType } from './events.js';

/**
 * Where the engine reports what happened (the Slack layer implements it). Events are delivered
 * one at a time in the order they happened, after the state they describe is persisted; a
 * notifier that throws is logged and skipped, never retried (see events.ts on "at most once").
 */
export interface Notifier {
  notify(event: DeskEvent): Promise<void> | void;
}

/** Operational log lines (never secrets). */
export interface Logger {
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}
