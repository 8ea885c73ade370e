/**
 * What the exchange says about a submitted request, as one shape for every kind: the fields
 * reported to people, whether the status is final, and the order result. Status values are kept
 * verbatim; only the final/not-final decision reads them (case-insensitively).
 */
import type { RemoteStatus } from '../../domain/record.js';
import { WITHDRAWAL_SUCCESS_STATUS } from '../../exchange/assumptions.js';
import type { CryptoWithdrawal, CryptoWithdrawalListItem, FiatWithdrawal, FiatWithdrawalListItem, Order } from '../../exchange/schemas.js';
import { isFinalFiatWithdrawalStatus, isFinalOrderStatus, isFinalWithdrawalStatus, sameStatus } from '../../exchange/statuses.js';

export interface RemoteView extends RemoteStatus {
  exchangeId: string;
  final: 'completed' | 'failed' | null;
  /** Order result fields, verbatim. */
  result: Record<string, string | null> | null;
}

export const REMOTE_FIELDS: readonly (keyof RemoteStatus)[] = ['status', 'travelRuleStatus', 'pendingReason', 'transactionHash', 'linkExplorer'];

export function fromCryptoWithdrawal(w: CryptoWithdrawal | CryptoWithdrawalListItem): RemoteView {
  return {
    exchangeId: w.id,
    status: w.status,
    travelRuleStatus: blankToNull(w.travel_rule_status),
    pendingReason: blankToNull(w.pending_reason),
    // Both "may be empty until an on-chain transaction exists": empty means not yet.
    transactionHash: blankToNull(w.transaction_hash),
    linkExplorer: blankToNull(w.link_explorer),
    final: isFinalWithdrawalStatus(w.status) ? (sameStatus(w.status, WITHDRAWAL_SUCCESS_STATUS) ? 'completed' : 'failed') : null,
    result: null,
  };
}

export function fromOrder(o: Order): RemoteView {
  return {
    exchangeId: String(o.id),
    status: o.status,
    travelRuleStatus: null,
    pendingReason: null,
    transactionHash: null,
    linkExplorer: null,
    final: isFinalOrderStatus(o.status) ? (sameStatus(o.status, 'completed') ? 'completed' : 'failed') : null,
    result: {
      order_receipt_id: o.order_receipt_id ?? null,
      price: o.price ?? null,
      fee: o.fee ?? null,
      fee_currency: o.fee_currency ?? null,
      net_amount: o.net_amount ?? null,
      received_currency: o.received_currency ?? null,
      cancel_reason: o.cancel_reason ?? null,
    },
  };
}

/** Undefined for a list item without an id (fiat list item fields are not shown). */
export function fromFiatWithdrawal(f: FiatWithdrawal | FiatWithdrawalListItem): RemoteView | undefined {
  if (f.id === undefined) return undefined;
  const status = f.status ?? null;
  return {
    exchangeId: String(f.id),
    status,
    travelRuleStatus: null,
    pendingReason: null,
    transactionHash: null,
    linkExplorer: null,
    final: status !== null && isFinalFiatWithdrawalStatus(status) ? (sameStatus(status, 'completed') ? 'completed' : 'failed') : null,
    result: f.bank_reference ? { bank_reference: f.bank_reference } : null,
  };
}

/** Fields whose value differs from what was last reported (status compared case-insensitively). */
export function changedFields(reported: RemoteStatus | null, view: RemoteStatus): (keyof RemoteStatus)[] {
  return REMOTE_FIELDS.filter((field) => {
    const before = reported?.[field] ?? null;
    const after = view[field];
    if (field === 'status' && before !== null && after !== null) return !sameStatus(before, after);
    return before !== after;
  });
}

export function remoteStatusOf(view: RemoteView): RemoteStatus {
  return {
    status: view.status,
    travelRuleStatus: view.travelRuleStatus,
    pendingReason: view.pendingReason,
    transactionHash: view.transactionHash,
    linkExplorer: view.linkExplorer,
  };
}

/** A plain sentence for a final failure status. */
export function finalFailureReason(kind: string, view: RemoteView): string {
  const cancelReason = view.result?.cancel_reason;
  const what = kind === 'trade' ? 'The order' : 'The withdrawal';
  return `${what} ended as "${view.status}" on the exchange${cancelReason ? `: ${cancelReason}` : ''}.`;
}

function blankToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value;
}
