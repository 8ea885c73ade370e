/**
 * What the deposit watch needs to know about a deposit's state: whether it can still change
 * (status or Travel Rule review not final) and whether it waits for our declaration. The values
 * are guesses kept in exchange/assumptions.ts (the reference shows none); compared case-insensitively.
 */
import { DEPOSIT_FINAL_STATUSES, TRAVEL_RULE_DECLARABLE_STATUSES, TRAVEL_RULE_DECLARATION_NEEDED, TRAVEL_RULE_OPEN_STATUSES } from '../../exchange/assumptions.js';
import type { CryptoDeposit } from '../../exchange/schemas.js';
import { normalizeStatus } from '../../exchange/statuses.js';
import type { DepositChanges } from './notifier.js';

export function isFinalDepositStatus(status: string): boolean {
  return (DEPOSIT_FINAL_STATUSES as readonly string[]).includes(normalizeStatus(status));
}

/** True while the exchange waits for the receiver to declare who sent the deposit. */
export function needsDeclaration(deposit: Pick<CryptoDeposit, 'travel_rule_status'>): boolean {
  return deposit.travel_rule_status !== undefined && normalizeStatus(deposit.travel_rule_status) === TRAVEL_RULE_DECLARATION_NEEDED;
}

/** A declaration can still be sent: no review started or closed yet (the button is offered). */
export function acceptsDeclaration(deposit: Pick<CryptoDeposit, 'travel_rule_status'>): boolean {
  const trs = deposit.travel_rule_status;
  return trs === undefined || (TRAVEL_RULE_DECLARABLE_STATUSES as readonly string[]).includes(normalizeStatus(trs));
}

/** Worth watching for changes: not final yet, or its Travel Rule review is still open. */
export function isStillMoving(deposit: Pick<CryptoDeposit, 'status' | 'travel_rule_status'>): boolean {
  if (!isFinalDepositStatus(deposit.status)) return true;
  const trs = deposit.travel_rule_status;
  return trs !== undefined && (TRAVEL_RULE_OPEN_STATUSES as readonly string[]).includes(normalizeStatus(trs));
}

/** The status and travel_rule_status changes from `before` to `after`; undefined when neither moved. */
export function depositChanges(before: CryptoDeposit, after: CryptoDeposit): DepositChanges | undefined {
  const changes: DepositChanges = {};
  if (normalizeStatus(before.status) !== normalizeStatus(after.status)) changes.status = { from: before.status, to: after.status };
  const from = before.travel_rule_status ?? null;
  const to = after.travel_rule_status ?? null;
  if ((from === null ? null : normalizeStatus(from)) !== (to === null ? null : normalizeStatus(to))) changes.travel_rule_status = { from, to };
  return Object.keys(changes).length > 0 ? changes : undefined;
}
