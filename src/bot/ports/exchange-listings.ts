/**
 * What the `/desk` listings read: the exchange's records as it lists them, newest first, in the
 * engine's words (camelCase) but not interpreted, because a listing shows what the exchange said:
 * a fiat record's fields are not shown by the reference, so each may be missing or odd, and the
 * Slack side escapes whatever comes. The adapter is exchange/adapter/listings.ts.
 */
import type { Deposit } from './exchange-port.js';
import type { ListOptions } from './list-options.js';

export interface WithdrawalListing {
  id: string;
  createdAt: number;
  status: string;
  amount: string;
  /** The asset's code, e.g. "USDT". */
  asset: string;
  address: string | null;
  /** The saved address's label, when the withdrawal went to one. */
  label: string | null;
  linkExplorer: string | null;
  travelRuleStatus: string | null;
}

export interface OrderListing {
  id: string;
  createdAt: number | null;
  status: string;
  price: string | null;
  netAmount: string | null;
  receivedCurrency: string | null;
  fee: string | null;
  feeCurrency: string | null;
  /** Not named by the reference: shown when the exchange sends them as text. */
  side: string | null;
  symbol: string | null;
}

export interface BankListing {
  id: number;
  currency: string | null;
  bankName: string | null;
  /** As the exchange lists it; the listing shows its last four digits only. */
  accountNumber: string;
  beneficiary: string;
  /** Null when the exchange does not say. */
  verified: boolean | null;
  lastUsedAt: number | null;
}

/** A fiat deposit or withdrawal: the reference shows none of its fields, so each is as listed or null. */
export interface FiatRecordListing {
  id: string | null;
  currency: string | null;
  /** As listed (not checked to be a decimal: the listing escapes it). */
  amount: string | null;
  status: string | null;
  /** As listed: epoch ms, digits or a date string. */
  createdAt: string | number | null;
  withdrawalFee: string | null;
  bankReference: string | null;
}

export interface FiatFee {
  currency: string;
  fee: string;
}

export interface FiatLimit {
  currency: string;
  minimum: string;
  maximum: string;
}

export interface ExchangeListings {
  withdrawals(opts?: ListOptions): AsyncIterable<WithdrawalListing>;
  deposits(opts?: ListOptions): AsyncIterable<Deposit>;
  orders(opts?: ListOptions): AsyncIterable<OrderListing>;
  bankAccounts(query?: { currency?: string }, opts?: ListOptions): AsyncIterable<BankListing>;
  fiatDeposits(opts?: ListOptions): AsyncIterable<FiatRecordListing>;
  fiatWithdrawals(opts?: ListOptions): AsyncIterable<FiatRecordListing>;
  fiatFees(): Promise<FiatFee[]>;
  fiatLimits(): Promise<FiatLimit[]>;
}
