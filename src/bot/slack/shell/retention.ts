/**
 * How long the Slack side keeps its references in the key-value file. Every write rewrites that
 * file whole, so keys that nothing will read again must go: a desk making a hundred requests a
 * day would otherwise carry some 70,000 of them after a year into every write.
 *
 * - A submission marker (request-forms/submission-markers.ts) answers Slack's redeliveries and double submits,
 *   which come within minutes; it is kept for SUBMISSION_RETENTION_MS.
 * - An open modal's data (kit/modal-data.ts) is read only while the modal is open; it is not used
 *   after MODAL_DATA_TTL_MS and goes at the first pruning after that. A request made from the form
 *   deletes it at once; what pruning catches is the forms people closed without submitting.
 * - An App Home viewer's mark (home/homes.ts) says whose tab to refresh; it goes once the person
 *   has not opened the tab for HOME_VIEWER_RETENTION_MS (opening it again marks them again).
 * - An approval message reference (approvals/approval-notifier.ts) is read whenever its request changes. A finished
 *   request no longer changes, so the reference goes once the request has finished and its
 *   message is older than APPROVAL_MESSAGE_RETENTION_MS. An open request's reference is never
 *   dropped, however old.
 * - A deposit message reference (compliance/deposit-notifier.ts) is read when the deposit changes or is
 *   declared. It goes once its message is older than DEPOSIT_MESSAGE_RETENTION_MS and nothing can
 *   happen to it any more: the deposit is final, its Travel Rule review closed, and it is declared
 *   or no longer takes a declaration. One still waiting for a declaration is kept, however old.
 * Compliance's declaration markers and the audit log are never pruned.
 */
import { isStillMoving } from '../../engine/compliance/deposit-status.js';
import { DEPOSIT_MESSAGE_KEY_PREFIX, type DepositMessageRef } from '../compliance/deposit-notifier.js';
import { SUBMISSION_KEY_PREFIX } from '../request-forms/submission-markers.js';
import { MODAL_DATA_KEY_PREFIX, MODAL_DATA_TTL_MS } from '../kit/modal-data.js';
import { HOME_VIEWER_KEY_PREFIX } from '../home/homes.js';
import { APPROVAL_MESSAGE_KEY_PREFIX, type ApprovalMessageRef } from '../approvals/approval-notifier.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const SUBMISSION_RETENTION_MS = 7 * DAY_MS;
export const APPROVAL_MESSAGE_RETENTION_MS = 30 * DAY_MS;
export const DEPOSIT_MESSAGE_RETENTION_MS = 90 * DAY_MS;
export const HOME_VIEWER_RETENTION_MS = 30 * DAY_MS;
/**
 * How often a running bot prunes (it also prunes at start): hourly, so the data of abandoned
 * modals (the largest values here) does not stay in every rewrite of the key-value file for a day.
 */
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/** The predicate for DurableKeyValueStore.prune: true for a Slack key past its retention. */
export function expiredSlackKey(
  now: number,
  openRequestIds: ReadonlySet<string>,
): (key: string, value: unknown) => boolean {
  return (key, value) => {
    if (key.startsWith(SUBMISSION_KEY_PREFIX)) return olderThan(now, value, SUBMISSION_RETENTION_MS);
    if (key.startsWith(MODAL_DATA_KEY_PREFIX)) return olderThan(now, value, MODAL_DATA_TTL_MS);
    if (key.startsWith(HOME_VIEWER_KEY_PREFIX)) return olderThan(now, value, HOME_VIEWER_RETENTION_MS);
    if (key.startsWith(APPROVAL_MESSAGE_KEY_PREFIX)) {
      if (openRequestIds.has(key.slice(APPROVAL_MESSAGE_KEY_PREFIX.length))) return false;
      const postedAt = slackTsMs((value as Partial<ApprovalMessageRef> | null)?.ts);
      return postedAt !== undefined && now - postedAt > APPROVAL_MESSAGE_RETENTION_MS;
    }
    if (key.startsWith(DEPOSIT_MESSAGE_KEY_PREFIX)) {
      const ref = value as Partial<DepositMessageRef> | null;
      const postedAt = slackTsMs(ref?.ts);
      if (postedAt === undefined || now - postedAt <= DEPOSIT_MESSAGE_RETENTION_MS || !ref?.deposit) return false;
      return !isStillMoving(ref.deposit) && (ref.declaration !== undefined || !ref.deposit.acceptsDeclaration);
    }
    return false;
  };
}

/** True for a value stamped with `at` (epoch ms) more than `ms` before `now`; a value without it is kept. */
function olderThan(now: number, value: unknown, ms: number): boolean {
  const at = (value as { at?: unknown } | null)?.at;
  return typeof at === 'number' && now - at > ms;
}

/** A Slack message ts ("1700000000.000100") is the time it was posted, in seconds. */
function slackTsMs(ts: unknown): number | undefined {
  if (typeof ts !== 'string' || !/^\d+\.\d+$/.test(ts)) return undefined;
  return Math.floor(Number(ts.split('.')[0]) * 1000);
}
