// Records to wire shapes built to the client's schemas (tests parse every answer with them); decimals normalised.
import { add, normalize } from '../../bot/domain/money.js';
import { FIAT_WITHDRAWAL_NOTE_LISTED } from '../../bot/exchange/assumptions.js';
import { networkByUuid } from './state.js';
import type {
  AddressRecord,
  BalanceRecord,
  BankAccountRecord,
  CryptoDepositRecord,
  CryptoWithdrawalRecord,
  CurrencyEntry,
  FiatDepositRecord,
  FiatWithdrawalRecord,
  NetworkRecord,
  OrderRecord,
  QuoteRecord,
  SandboxState,
} from './state.js';

export function presentBalance(currency: string, b: BalanceRecord) {
  return {
    currency,
    regular: normalize(b.regular),
    // Deprecated total, kept equal to the sum of the parts as the reference says.
    locked: add(b.orders, b.alternative_products),
    locked_balance: { orders: normalize(b.orders), alternative_products: normalize(b.alternative_products) },
  };
}

export function presentNetwork(n: NetworkRecord) {
  return { uuid: n.uuid, name: n.name, network_code: n.network_code };
}

/** `crypto_currency` as inside a withdrawal. */
export function presentCurrencyRef(state: SandboxState, e: CurrencyEntry) {
  const asset = state.assets.find((a) => a.symbol === e.assetSymbol)!;
  const network = networkByUuid(state, e.networkUuid)!;
  return {
    id: e.id,
    name: e.name,
    code: e.code,
    minimum_sell: e.minimum_sell,
    precision: e.precision,
    allow_multiple_user_addresses: false,
    icon: asset.icon_url ?? '',
    network_id: e.networkUuid,
    has_address_tag: e.has_address_tag,
    network: presentNetwork(network),
    asset: {
      id: asset.id,
      name: asset.name,
      symbol: asset.symbol,
      icon_url: asset.icon_url,
      asset_type: asset.asset_type,
    },
  };
}

export function presentCurrencyEntry(state: SandboxState, e: CurrencyEntry) {
  return {
    ...presentCurrencyRef(state, e),
    withdrawal_fee: e.withdrawal_fee,
    minimum_withdrawal: e.minimum_withdrawal,
  };
}

/** `address_book_address` as inside a withdrawal. */
export function presentAddressRef(state: SandboxState, a: AddressRecord) {
  return {
    id: a.id,
    label: a.label,
    created_at: a.created_at,
    address: a.address,
    address_tag: a.address_tag,
    status: a.status,
    display_status: a.display_status,
    crypto_wallet: a.crypto_wallet,
    wallet_identity: a.wallet_identity,
    crypto_currency_networks: a.networkUuids.map((u) => presentNetwork(networkByUuid(state, u)!)),
  };
}

/** An address-book listing item: the reference form plus the cooldown. */
export function presentAddress(state: SandboxState, a: AddressRecord) {
  return { ...presentAddressRef(state, a), withdrawal_cooldown_until: a.withdrawal_cooldown_until };
}

/** A crypto withdrawal in its create/get form (the list form accepts the same fields). */
export function presentWithdrawal(
  state: SandboxState,
  addressBook: readonly AddressRecord[],
  w: CryptoWithdrawalRecord,
) {
  const entry = state.currencies.find((c) => c.id === w.entryId)!;
  const address = addressBook.find((a) => a.id === w.addressId);
  return {
    id: w.id,
    address: w.address,
    amount: w.amount,
    total_amount: w.total,
    created_at: w.created_at,
    fee: w.fee,
    memo: w.address_tag,
    status: w.status,
    travel_rule_status: w.travel_rule_status,
    pending_reason: w.pending_reason,
    recipient_fullname: address?.wallet_identity?.entity_name ?? null,
    transaction_hash: w.transaction_hash,
    link_explorer: w.link_explorer,
    crypto_currency: presentCurrencyRef(state, entry),
    address_book_address: address ? presentAddressRef(state, address) : null,
    note: w.note,
    invoice_downloadable: w.status === 'completed',
    transaction: { uuid: w.transactionUuid },
    transaction_purpose: w.transaction_purpose,
  };
}

export function presentDeposit(state: SandboxState, d: CryptoDepositRecord) {
  const entry = state.currencies.find((c) => c.id === d.entryId)!;
  const network = networkByUuid(state, entry.networkUuid)!;
  return {
    id: d.id,
    to_address: d.to_address,
    amount: d.amount,
    created_at: d.created_at,
    transaction_hash: d.transaction_hash,
    status: d.status,
    travel_rule_status: d.travel_rule_status,
    link_explorer: network.explorer + d.transaction_hash,
    invoice_downloadable: d.status === 'completed',
    transaction: { uuid: d.transactionUuid },
    crypto_currency: { id: entry.id, name: entry.name, code: entry.code },
  };
}

export function presentBankAccount(b: BankAccountRecord) {
  return { ...b, bank: { ...b.bank } };
}

export function presentFiatDeposit(d: FiatDepositRecord) {
  return { ...d };
}

/** The create answer has the fields the reference shows; a list item adds what assumptions.ts chose to list. */
export function presentFiatWithdrawal(w: FiatWithdrawalRecord, form: 'created' | 'listed') {
  const listed = form === 'listed' && FIAT_WITHDRAWAL_NOTE_LISTED ? { note: w.note } : {};
  return {
    ...listed,
    id: w.id,
    currency: w.currency,
    amount: w.amount,
    status: w.status,
    bank_reference: w.bank_reference,
    withdrawal_fee: w.withdrawal_fee,
    created_at: w.created_at,
    invoice_downloadable: w.status === 'completed',
    transaction: { uuid: w.transactionUuid },
    bank_account_id: w.bank_account_id,
  };
}

export function presentQuote(q: QuoteRecord) {
  return {
    quote_id: q.quote_id,
    locked_price: q.locked_price,
    expires_at: q.expires_at,
    symbol: q.symbol,
    side: q.side,
    quantity: q.quantity,
    currency: q.currency,
    payment_method: q.payment_method,
    base_amount: q.baseAmount,
    counter_amount: q.counterAmount,
    created_at: q.created_at,
  };
}

const STAGE = { pending: 0, open: 1, completed: 2, cancelling: 3, cancelled: 4 } as const;
const CASES: ReadonlyArray<(s: string) => string> = [
  (s) => s.charAt(0).toUpperCase() + s.slice(1),
  (s) => s,
  (s) => s.toUpperCase(),
];

/** The reference warns of varying case ("Completed", "completed"): varied per order and stage so case-sensitive code fails fast. */
export function orderStatusOnWire(o: OrderRecord): string {
  return CASES[(o.caseSeed + STAGE[o.status]) % CASES.length]!(o.status);
}

export function presentOrder(o: OrderRecord) {
  return {
    id: o.id,
    order_receipt_id: o.order_receipt_id,
    status: orderStatusOnWire(o),
    client_order_id: o.client_order_id,
    order_quote_id: o.quote_id,
    execution_type: 'rfq',
    symbol: o.symbol,
    base_currency: o.base,
    counter_currency: o.counter,
    side: o.side,
    quantity: o.quantity,
    currency: o.currency,
    price: o.price,
    fee: o.fee,
    fee_currency: o.receivedCurrency,
    net_amount: o.net_amount,
    received_currency: o.receivedCurrency,
    expires_at: o.expires_at,
    cancel_reason: o.cancel_reason,
    created_at: o.created_at,
  };
}
