// What the exchange says about a submitted request, one shape for every kind: fields reported to
// people (statuses verbatim), whether the status is final (assumptions.ts), the order result.
import { decimalString } from '../schemas.js';
import type {
  ListedCryptoWithdrawal,
  ListedFiatWithdrawal,
  ListedOrder,
  RemoteView,
} from '../../ports/exchange-port.js';
import { sameStatus } from '../../domain/status.js';
import { WITHDRAWAL_SUCCESS_STATUS } from '../assumptions.js';
import type * as Wire from '../schemas.js';
import { isFinalFiatWithdrawalStatus, isFinalOrderStatus, isFinalWithdrawalStatus } from '../statuses.js';

export function cryptoWithdrawalView(w: Wire.CryptoWithdrawal | Wire.CryptoWithdrawalListItem): RemoteView {
  return {
    exchangeId: w.id,
    status: w.status,
    travelRuleStatus: blankToNull(w.travel_rule_status),
    pendingReason: blankToNull(w.pending_reason),
    // Both "may be empty until an on-chain transaction exists": empty means not yet.
    transactionHash: blankToNull(w.transaction_hash),
    linkExplorer: blankToNull(w.link_explorer),
    final: isFinalWithdrawalStatus(w.status)
      ? sameStatus(w.status, WITHDRAWAL_SUCCESS_STATUS)
        ? 'completed'
        : 'failed'
      : null,
    result: null,
  };
}

export function listedCryptoWithdrawal(w: Wire.CryptoWithdrawalListItem): ListedCryptoWithdrawal {
  return {
    ...cryptoWithdrawalView(w),
    createdAt: w.created_at,
    amount: w.amount,
    cryptoCurrencyId: w.crypto_currency.id,
    requestId: nonBlank(w.request_id),
    note: nonBlank(w.note),
    destinationId: w.address_book_address?.id ?? null,
    address: w.address ?? null,
    destinationLabel: w.address_book_address?.label ?? null,
  };
}

export function orderView(o: Wire.Order): RemoteView {
  return {
    exchangeId: String(o.id),
    status: o.status,
    travelRuleStatus: null,
    pendingReason: null,
    transactionHash: null,
    linkExplorer: null,
    final: isFinalOrderStatus(o.status) ? (sameStatus(o.status, 'completed') ? 'completed' : 'failed') : null,
    result: {
      receiptId: o.order_receipt_id ?? null,
      price: o.price ?? null,
      fee: o.fee ?? null,
      feeCurrency: o.fee_currency ?? null,
      netAmount: o.net_amount ?? null,
      receivedCurrency: o.received_currency ?? null,
      cancelReason: o.cancel_reason ?? null,
    },
  };
}

export function listedOrder(o: Wire.Order): ListedOrder {
  return { ...orderView(o), clientOrderId: nonBlank(o.client_order_id) };
}

/** The create answer carries an id; a list item may not (its fields are not shown). */
export function fiatWithdrawalView(
  f: Wire.FiatWithdrawal | (Wire.FiatWithdrawalListItem & { id: number }),
): RemoteView {
  const status = f.status ?? null;
  return {
    exchangeId: String(f.id),
    status,
    travelRuleStatus: null,
    pendingReason: null,
    transactionHash: null,
    linkExplorer: null,
    final:
      status !== null && isFinalFiatWithdrawalStatus(status)
        ? sameStatus(status, 'completed')
          ? 'completed'
          : 'failed'
        : null,
    result: f.bank_reference ? { bankReference: f.bank_reference } : null,
  };
}

/** Undefined for a list item without an id: nothing can be followed or matched by it. */
export function listedFiatWithdrawal(f: Wire.FiatWithdrawalListItem): ListedFiatWithdrawal | undefined {
  if (f.id === undefined) return undefined;
  return {
    ...fiatWithdrawalView({ ...f, id: f.id }),
    createdAt: timeMs(f.created_at),
    amount: f.amount !== undefined && decimalString.safeParse(f.amount).success ? f.amount : null,
    currency: f.currency ?? null,
    bankAccountId: typeof f.bank_account_id === 'number' ? f.bank_account_id : null,
    requestId: nonBlank(f.request_id),
    note: nonBlank(f.note),
  };
}

/** A time the reference leaves open: epoch ms as a number or digits, or a date string. */
export function timeMs(value: string | number | undefined): number | null {
  if (typeof value === 'number') return value;
  if (value === undefined) return null;
  const parsed = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  return Number.isFinite(parsed) ? parsed : null;
}

function nonBlank(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function blankToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value;
}
