/**
 * What moved in a deposit between two reads. What its statuses mean (final, waiting for a
 * declaration, review open) is read by the exchange port (ports/exchange-port.ts Deposit).
 */
import { normalizeStatus } from '../../domain/status.js';
import type { Deposit } from '../../ports/exchange-port.js';
import type { DepositChanges } from '../../ports/events.js';

/** Worth watching for changes: not final yet, or its Travel Rule review is still open. */
export function isStillMoving(deposit: Pick<Deposit, 'final' | 'reviewOpen'>): boolean {
  return !deposit.final || deposit.reviewOpen;
}

/** The status and Travel Rule status changes from `before` to `after`; undefined when neither moved. */
export function depositChanges(before: Deposit, after: Deposit): DepositChanges | undefined {
  const changes: DepositChanges = {};
  if (normalizeStatus(before.status) !== normalizeStatus(after.status))
    changes.status = { from: before.status, to: after.status };
  const from = before.travelRuleStatus;
  const to = after.travelRuleStatus;
  if ((from === null ? null : normalizeStatus(from)) !== (to === null ? null : normalizeStatus(to)))
    changes.travelRuleStatus = { from, to };
  return Object.keys(changes).length > 0 ? changes : undefined;
}
