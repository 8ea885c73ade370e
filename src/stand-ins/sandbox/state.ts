// In-memory state: reference data shared by every account, one AccountState each. Amounts are decimal
// strings; only domain/money.ts computes with them.
import type { Rng } from './prng.js';
import type { PriceBook } from './prices.js';

export interface Asset {
  id: number;
  name: string;
  symbol: string;
  icon_url: string | null;
  asset_type: 'crypto' | 'fiat';
  /** Decimal places the exchange keeps for this asset (order amounts, fees). */
  precision: number;
}

export interface NetworkRecord {
  uuid: string;
  name: string;
  network_code: string;
  /** Explorer URL prefix; a transaction hash is appended. */
  explorer: string;
}

/** One crypto currency entry: an asset on one network (the numeric id a withdrawal names). */
export interface CurrencyEntry {
  id: number;
  name: string;
  code: string;
  assetSymbol: string;
  networkUuid: string;
  precision: number;
  withdrawal_fee: string;
  minimum_withdrawal: string;
  minimum_sell: string;
  has_address_tag: boolean;
}

export interface WalletIdentityRecord {
  id: string;
  entity_name: string;
  entity_type: 'individual' | 'entity';
  ownership: 'first_party' | 'third_party';
  additional_info_provided: boolean;
}

export interface AddressRecord {
  id: string;
  label: string;
  created_at: number;
  address: string;
  address_tag: string | null;
  /** Verification status: only ADDRESS_VERIFIED_STATUS may receive a withdrawal. */
  status: string;
  display_status: string | null;
  crypto_wallet: { id: string; name: string; type: string } | null;
  /** Recipient details; null when they were never completed in the mobile app. */
  wallet_identity: WalletIdentityRecord | null;
  networkUuids: string[];
  withdrawal_cooldown_until: number | null;
}

export interface BalanceRecord {
  regular: string;
  orders: string;
  alternative_products: string;
}

export interface BankAccountRecord {
  id: number;
  currency: 'USD' | 'SGD';
  account_number: string;
  beneficiary_name: string;
  last_used_at: number | null;
  verified: boolean;
  bank: {
    name: string;
    swift_code: string | null;
    bic_code: string | null;
    branch_name: string | null;
    branch_code: string | null;
    address: string | null;
  };
}

export interface CryptoDepositRecord {
  id: string;
  entryId: number;
  to_address: string;
  amount: string;
  created_at: number;
  transaction_hash: string;
  status: string;
  travel_rule_status: string;
  transactionUuid: string;
  /** True once the amount is in the regular balance. */
  credited: boolean;
  /** When the deposit completes by itself; null while it waits for counterparty info. */
  completesAt: number | null;
}

export interface CryptoWithdrawalRecord {
  id: string;
  entryId: number;
  addressId: string;
  address: string;
  address_tag: string | null;
  amount: string;
  fee: string;
  total: string;
  created_at: number;
  status: string;
  travel_rule_status: string | null;
  pending_reason: string | null;
  transaction_hash: string | null;
  link_explorer: string | null;
  note: string | null;
  request_id: string | null;
  transaction_purpose: string | null;
  transactionUuid: string;
  /** Index into WITHDRAWAL_TIMELINE of the stage reached; -1 once ended off the timeline. */
  stage: number;
  /** Funds held outside `regular` until the withdrawal is final (see timings.ts). */
  held: boolean;
  /** Put at its status by the control surface: the clock no longer moves it on. */
  pinned?: boolean;
}

export interface FiatDepositRecord {
  id: number;
  currency: string;
  amount: string;
  status: string;
  created_at: number;
  bank_reference: string;
}

export interface FiatWithdrawalRecord {
  id: number;
  currency: string;
  amount: string;
  withdrawal_fee: string;
  status: string;
  bank_reference: string | null;
  bank_account_id: number;
  created_at: number;
  transactionUuid: string;
  request_id: string | null;
  /** As created (null when none was sent, or the drop_notes fault was on); listed per assumptions.ts. */
  note: string | null;
  stage: number;
  held: boolean;
  /** Put at its status by the control surface: the clock no longer moves it on. */
  pinned?: boolean;
}

export interface QuoteRecord {
  quote_id: string;
  account: string;
  symbol: string;
  base: string;
  counter: string;
  side: 'buy' | 'sell';
  quantity: string;
  currency: string;
  payment_method: string;
  locked_price: string;
  baseAmount: string;
  counterAmount: string;
  created_at: number;
  expires_at: number;
  supersededBy: string | null;
  usedByOrder: string | null;
}

export interface OrderRecord {
  id: string;
  order_receipt_id: string;
  quote_id: string;
  client_order_id: string | null;
  symbol: string;
  base: string;
  counter: string;
  side: 'buy' | 'sell';
  quantity: string;
  currency: string;
  price: string;
  paidCurrency: string;
  paidAmount: string;
  receivedCurrency: string;
  receivedAmount: string;
  fee: string;
  net_amount: string;
  created_at: number;
  expires_at: number;
  /** Lowercase status; the wire form varies its letter case (see present.ts). */
  status: 'pending' | 'open' | 'cancelling' | 'completed' | 'cancelled';
  statusSince: number;
  /** Put at its status by the control surface: the clock no longer moves it on. */
  pinned?: boolean;
  cancel_reason: string | null;
  /** Drives the letter case of the status on the wire, so it varies between orders. */
  caseSeed: number;
}

export interface CounterpartySubmission {
  id: string;
  transaction_id: string;
  created_at: number;
  body: unknown;
}

export interface AccountState {
  name: string;
  balances: Map<string, BalanceRecord>;
  addressBook: AddressRecord[];
  bankAccounts: BankAccountRecord[];
  deposits: CryptoDepositRecord[];
  withdrawals: CryptoWithdrawalRecord[];
  fiatDeposits: FiatDepositRecord[];
  fiatWithdrawals: FiatWithdrawalRecord[];
  quotes: QuoteRecord[];
  orders: OrderRecord[];
  counterparty: CounterpartySubmission[];
  /** client_order_ids of orders taken but not yet committed (late_commit): a repeat is refused now. */
  lateClientOrderIds?: string[];
}

export interface FiatRule {
  currency: 'USD' | 'SGD';
  minimum: string;
  maximum: string;
  fee: string;
}

export interface KnownWalletRecord {
  id: string;
  type: 'private' | 'hosted';
  name: string;
  risk_level?: 'low' | 'medium' | 'high';
}

export interface SandboxState {
  seed: string;
  /** Ids and hashes made while serving requests (a fork of the seed, so replays match). */
  rng: Rng;
  assets: Asset[];
  networks: NetworkRecord[];
  currencies: CurrencyEntry[];
  wallets: KnownWalletRecord[];
  fiatRules: FiatRule[];
  prices: PriceBook;
  accounts: Map<string, AccountState>;
  /** Counters for the integer ids the reference gives some records. */
  counters: { bankAccount: number; fiatWithdrawal: number; fiatDeposit: number; order: number };
}

/** The account's record of an asset, created empty on first use. */
export function balanceOf(account: AccountState, symbol: string): BalanceRecord {
  let b = account.balances.get(symbol);
  if (!b) {
    b = { regular: '0', orders: '0', alternative_products: '0' };
    account.balances.set(symbol, b);
  }
  return b;
}

export function assetBySymbol(state: SandboxState, symbol: string): Asset | undefined {
  return state.assets.find((a) => a.symbol === symbol);
}

export function entryById(state: SandboxState, id: number): CurrencyEntry | undefined {
  return state.currencies.find((c) => c.id === id);
}

export function networkByUuid(state: SandboxState, uuid: string): NetworkRecord | undefined {
  return state.networks.find((n) => n.uuid === uuid);
}

/** A RECEIVE or SEND transaction of the account by its uuid (the counterparty operation's id). */
export function findTransaction(
  account: AccountState,
  uuid: string,
): { type: 'RECEIVE'; deposit: CryptoDepositRecord } | { type: 'SEND' } | undefined {
  const deposit = account.deposits.find((d) => d.transactionUuid === uuid);
  if (deposit) return { type: 'RECEIVE', deposit };
  if (account.withdrawals.some((w) => w.transactionUuid === uuid)) return { type: 'SEND' };
  if (account.fiatWithdrawals.some((w) => w.transactionUuid === uuid)) return { type: 'SEND' };
  return undefined;
}
