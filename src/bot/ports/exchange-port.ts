/**
 * The exchange as the engine sees it: in the engine's terms (camelCase records, final or not,
 * verified or not), never the wire's snake_case bodies. The adapter in exchange/engine-port/ maps
 * the wire to these records and reads statuses and refusals (assumptions.ts); app/ and the Slack
 * forms use only this. Every method throws ExchangeError (ports/exchange-error.ts) and nothing else.
 * Writes are never retried inside; reads may be.
 */
import type { RemoteResult, RemoteStatus } from '../domain/record.js';
import type {
  BankAccountRef,
  CurrencyEntryFacts,
  DestinationFacts,
  IndicativeQuote,
  TradeSnapshot,
} from '../domain/request.js';
import type { SpotQuote } from '../domain/valuation.js';
import type { ListOptions } from './list-options.js';

// ---- lookups: what a request is built from and checked against again before it executes ------

/** A crypto currency entry (one asset on one network); `precision` null when the exchange gives none. */
export interface CurrencyEntry extends Omit<CurrencyEntryFacts, 'precision'> {
  precision: number | null;
}

/** An address-book address. `verified` is read from its status by the port. */
export interface SavedAddress extends DestinationFacts {
  /** The exchange's status, verbatim, for people. */
  status: string;
  /** Withdrawals to it wait until then (epoch ms); null when none. */
  cooldownUntil: number | null;
}

/** A bank account as a request keeps it, plus what forms and checks show. */
export interface SavedBankAccount extends BankAccountRef {
  accountNumberDigest: string;
  /** Null when the exchange does not say. */
  verified: boolean | null;
}

/** A currency fiat withdrawals are enabled in: its limits, and its fee when the exchange lists one. */
export interface FiatTerms {
  currency: string;
  minimum: string;
  maximum: string;
  /** Null when the exchange lists no fee for the currency (not enabled for this account's entity). */
  fee: string | null;
}

export interface Balance {
  currency: string;
  /** What can be withdrawn or traded now. */
  available: string;
  locked: string;
  lockedInOrders: string;
  lockedInOtherProducts: string;
}

export type QuoteTerms = Pick<TradeSnapshot, 'symbol' | 'side' | 'quantity' | 'quantityCurrency' | 'paymentMethod'>;

// ---- what the exchange says about a submitted request -----------------------------------------

/** One shape for every kind: the fields reported to people, whether it is final, the order result. */
export interface RemoteView extends RemoteStatus {
  exchangeId: string;
  final: 'completed' | 'failed' | null;
  /** What an order (or a fiat withdrawal: its bank reference) came to. */
  result: RemoteResult | null;
}

/** A crypto withdrawal as a list shows it: what a search matches a request by. */
export interface ListedCryptoWithdrawal extends RemoteView {
  createdAt: number;
  amount: string;
  cryptoCurrencyId: number;
  /** The request_id it was sent with, when the list carries one. */
  requestId: string | null;
  /** Its note (where the bot's desk reference is), null when blank or not listed. */
  note: string | null;
  destinationId: string | null;
  address: string | null;
  destinationLabel: string | null;
}

/** A fiat withdrawal as a list shows it (the reference does not show its fields: any may be missing). */
export interface ListedFiatWithdrawal extends RemoteView {
  /** Null when missing or unreadable. */
  createdAt: number | null;
  /** A decimal, or null when missing or not a decimal. */
  amount: string | null;
  currency: string | null;
  bankAccountId: number | null;
  requestId: string | null;
  /** As the crypto withdrawal's: null when blank or not listed. */
  note: string | null;
}

export interface ListedOrder extends RemoteView {
  clientOrderId: string | null;
}

/** A time window in epoch ms; either end open. */
export interface TimeWindow {
  from?: number;
  to?: number;
}

// ---- compliance -------------------------------------------------------------------------------

/** A received crypto deposit, with what its statuses mean for compliance already read. */
export interface Deposit {
  id: string;
  /** What a counterparty declaration names. */
  transactionId: string;
  createdAt: number;
  status: string;
  travelRuleStatus: string | null;
  amount: string | null;
  /** e.g. { code: 'USDC', name: 'USD Coin' }. */
  currency: { code: string; name: string } | null;
  toAddress: string | null;
  transactionHash: string | null;
  linkExplorer: string | null;
  /** Its status will not change any more. */
  final: boolean;
  /** The exchange waits for the receiver to declare who sent it. */
  needsDeclaration: boolean;
  /** A declaration can still be sent (no review started or closed yet). */
  acceptsDeclaration: boolean;
  /** Its Travel Rule review is still open. */
  reviewOpen: boolean;
}

/** Who sent a deposit, as compliance declares it. */
export interface CounterpartyDeclaration {
  entityType: 'individual' | 'entity';
  legalName: string;
  ownership: 'first_party' | 'third_party';
  documentNumber?: string;
  address?: {
    countryCode: string;
    address1?: string;
    address2?: string;
    postcode?: string;
    district?: string;
    region?: string;
  };
  /** A known wallet by id, or a wallet named by us (which the exchange creates unverified). */
  wallet?: { id: string } | { name: string };
}

export interface KnownWallet {
  id: string;
  type: 'private' | 'hosted';
  name: string;
  riskLevel: 'low' | 'medium' | 'high' | null;
}

/**
 * What a known wallet id looks like. The reference states 8-4-4-4-4-8 lowercase hex groups; real
 * ids are UUIDs (8-4-4-4-12). Both are accepted, lowercase only, as stated.
 */
export const KNOWN_WALLET_ID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-(?:[0-9a-f]{12}|[0-9a-f]{4}-[0-9a-f]{8})$/;

// ---- the port ---------------------------------------------------------------------------------

/** What the exchange allows (exchange/assumptions.ts): the engine's defaults for polling and lists. */
export interface ExchangeLimits {
  /** The largest page[size] a list serves. */
  maxPageSize: number;
  /** Our own cap on requests per second. */
  requestsPerSecond: number;
}

export interface ExchangePort {
  readonly limits: ExchangeLimits;
  /** How a trade may be paid (the reference shows only `user_balance`). */
  readonly paymentMethods: readonly [string, ...string[]];

  // lookups
  currencyEntries(): Promise<CurrencyEntry[]>;
  savedAddresses(opts?: ListOptions): AsyncIterable<SavedAddress>;
  bankAccounts(query?: { currency?: string }, opts?: ListOptions): AsyncIterable<SavedBankAccount>;
  fiatTerms(): Promise<FiatTerms[]>;
  balances(query?: { currency?: string }): Promise<Balance[]>;
  knownWallets(query?: { name?: string }): Promise<KnownWallet[]>;

  // the calls that move money or change the account, each with its idempotency key where the exchange takes one
  quote(terms: QuoteTerms): Promise<IndicativeQuote>;
  /** The spot price of BASE-COUNTER, both sides; for valuing a request (domain/valuation.ts), never for executing it. */
  spotPrice(base: string, counter: string): Promise<SpotQuote>;
  withdrawCrypto(
    w: { cryptoCurrencyId: number; amount: string; destinationId: string; note: string | null; purpose: string | null },
    requestId: string,
  ): Promise<RemoteView>;
  withdrawFiat(
    w: { bankAccountId: number; currency: string; amount: string; note: string | null },
    requestId: string,
  ): Promise<RemoteView>;
  /** Refused with `refusal: 'duplicate_client_order_id'` or `'quote_unusable'` where the exchange's words say so. */
  placeOrder(quoteId: string, clientOrderId: string): Promise<RemoteView>;
  removeBankAccount(id: number): Promise<void>;

  // following
  cryptoWithdrawal(id: string): Promise<RemoteView>;
  order(id: string): Promise<RemoteView>;
  cryptoWithdrawals(window: TimeWindow, opts?: ListOptions): AsyncIterable<ListedCryptoWithdrawal>;
  /** Records without an id are left out: nothing can be followed or matched by them. */
  fiatWithdrawals(opts?: ListOptions): AsyncIterable<ListedFiatWithdrawal>;
  orders(window: TimeWindow, opts?: ListOptions): AsyncIterable<ListedOrder>;

  // compliance
  /** Both bounds exclusive, as the exchange's created_at_after and created_at_before. */
  cryptoDeposits(window: { createdAfter?: number; createdBefore?: number }, opts?: ListOptions): AsyncIterable<Deposit>;
  /** Resolves with the exchange's answer fields (not shown by the reference), for the audit. */
  declareCounterparty(transactionId: string, declaration: CounterpartyDeclaration): Promise<Record<string, unknown>>;

  /** The exchange's clock minus ours in ms, from the latest response's Date header; undefined before any. */
  clockOffsetMs(): number | undefined;
}
