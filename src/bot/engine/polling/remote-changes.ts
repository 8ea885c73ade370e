// What changed in the exchange's view of a submitted request, and how a final failure is said to people.
import type { RemoteStatus } from '../../domain/record.js';
import { sameStatus } from '../../domain/status.js';
import type { RemoteView } from '../../ports/exchange-port.js';

export type { RemoteView };

export const REMOTE_FIELDS: readonly (keyof RemoteStatus)[] = [
  'status',
  'travelRuleStatus',
  'pendingReason',
  'transactionHash',
  'linkExplorer',
];

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
  const cancelReason = view.result?.cancelReason;
  const what = kind === 'trade' ? 'The order' : 'The withdrawal';
  return `${what} ended as "${view.status}" on the exchange${cancelReason ? `: ${cancelReason}` : ''}.`;
}
