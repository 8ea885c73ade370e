// Who may do what (requesters, approvers, compliance from configuration), how many distinct
// approvals a request needs (never fewer than two) and when it expires; pure decisions.
import { gte, isDecimal } from './money.js';
import { refuse, type Refusal } from './refusals.js';
import { amountsMoved, REQUEST_KINDS, type RequestKind, type Snapshot } from './request.js';
import { awaitsVerdict, type RequestState } from './state-machine.js';

/** Two people other than the requester: the floor for anything configured. */
export const MIN_APPROVALS = 2;
export const DEFAULT_REQUIRED_APPROVALS = 2;

const HOUR = 3_600_000;
export const DEFAULT_EXPIRY_MS: Readonly<Record<RequestKind, number>> = {
  crypto_withdrawal: 24 * HOUR,
  fiat_withdrawal: 24 * HOUR,
  // Approvers approve a price limit; a stale trade request is a different trade.
  trade: 15 * 60_000,
  bank_account_removal: 24 * HOUR,
};

/**
 * When approvers who have not acted are reminded by DM: first `delayMs` into the round, then at
 * most once every `intervalMs`, at most `max` times. Defaults by kind; a rule may set its own.
 */
export interface ReminderRule {
  delayMs: number;
  intervalMs: number;
  max: number;
}

const MINUTE = 60_000;
export const DEFAULT_REMINDERS: Readonly<Record<RequestKind, ReminderRule>> = {
  crypto_withdrawal: { delayMs: 30 * MINUTE, intervalMs: 30 * MINUTE, max: 3 },
  fiat_withdrawal: { delayMs: 30 * MINUTE, intervalMs: 30 * MINUTE, max: 3 },
  // A trade lives 15 minutes: a reminder after 5 still leaves time to approve the price.
  trade: { delayMs: 5 * MINUTE, intervalMs: 5 * MINUTE, max: 3 },
  bank_account_removal: { delayMs: 30 * MINUTE, intervalMs: 30 * MINUTE, max: 3 },
};

/** The request's thread warns that it is about to expire at this share of its round's life. */
export const EXPIRY_WARNING_AT = 0.8;

/** A higher count for requests moving at least `atLeast` of `currency` (optionally only some kinds). */
export interface AmountThreshold {
  currency: string;
  atLeast: string;
  approvals: number;
  kinds?: RequestKind[];
}

export interface PolicyInput {
  requesters: Iterable<string>;
  approvers: Iterable<string>;
  compliance?: Iterable<string>;
  /** REQUIRED_APPROVALS; default 2; below 2 is refused. */
  requiredApprovals?: number;
  /** Higher counts for some kinds (never lower than requiredApprovals' floor of 2). */
  approvalsByKind?: Partial<Record<RequestKind, number>>;
  thresholds?: AmountThreshold[];
  /** How long a request waits for approvals, by kind. */
  expiryMs?: Partial<Record<RequestKind, number>>;
}

export interface Policy {
  readonly requesters: ReadonlySet<string>;
  readonly approvers: ReadonlySet<string>;
  readonly compliance: ReadonlySet<string>;
  readonly requiredApprovals: number;
  readonly approvalsByKind: Readonly<Partial<Record<RequestKind, number>>>;
  readonly thresholds: readonly AmountThreshold[];
  readonly expiryMs: Readonly<Record<RequestKind, number>>;
}

/** Thrown at start-up for a configuration that would weaken the two-person rule; lists every problem. */
export class PolicyConfigError extends Error {
  override name = 'PolicyConfigError';
  constructor(readonly problems: string[]) {
    super(`Approval policy is not valid:\n- ${problems.join('\n- ')}`);
  }
}

/** @example createPolicy({ requesters: ['U1'], approvers: ['U2', 'U3'], requiredApprovals: 2 }) */
export function createPolicy(input: PolicyInput): Policy {
  const problems: string[] = [];
  const requesters = userSet('requesters', input.requesters, problems);
  const approvers = userSet('approvers', input.approvers, problems);
  const compliance = userSet('compliance', input.compliance ?? [], problems);
  const requiredApprovals = input.requiredApprovals ?? DEFAULT_REQUIRED_APPROVALS;
  checkCount('REQUIRED_APPROVALS', requiredApprovals, problems);
  for (const [kind, count] of Object.entries(input.approvalsByKind ?? {})) {
    if (!(REQUEST_KINDS as readonly string[]).includes(kind))
      problems.push(`approvals by kind: unknown kind "${kind}"`);
    checkCount(`approvals for ${kind}`, count, problems);
  }
  for (const [i, t] of (input.thresholds ?? []).entries()) checkThreshold(i, t, problems);
  const expiryMs = { ...DEFAULT_EXPIRY_MS, ...input.expiryMs };
  for (const [kind, ms] of Object.entries(expiryMs)) {
    if (!Number.isSafeInteger(ms) || ms <= 0)
      problems.push(`expiry for ${kind} must be a positive number of milliseconds, got ${ms}`);
  }
  const policy: Policy = {
    requesters,
    approvers,
    compliance,
    requiredApprovals,
    approvalsByKind: { ...input.approvalsByKind },
    thresholds: [...(input.thresholds ?? [])],
    expiryMs,
  };
  const highest = Math.max(
    requiredApprovals,
    ...Object.values(policy.approvalsByKind),
    ...policy.thresholds.map((t) => t.approvals),
  );
  if (approvers.size < highest)
    problems.push(
      `${approvers.size} approver(s) configured, but up to ${highest} approvals can be required: nothing could ever be approved`,
    );
  else {
    // The requester never counts: a requester who is also an approver has one fewer to ask. Every
    // request needs at least REQUIRED_APPROVALS (thresholds and kinds only raise it).
    for (const requester of requesters) {
      const others = [...approvers].filter((a) => a !== requester).length;
      if (others < requiredApprovals) {
        problems.push(
          `requester ${requester} is also an approver, which leaves ${others} other approver(s), but every request needs ${requiredApprovals} approvals: their requests could never be approved`,
        );
      }
    }
  }
  if (problems.length > 0) throw new PolicyConfigError(problems);
  return policy;
}

function userSet(name: string, ids: Iterable<string>, problems: string[]): ReadonlySet<string> {
  const set = new Set<string>();
  for (const id of ids) {
    const trimmed = id.trim();
    if (trimmed === '') problems.push(`${name}: empty user id`);
    else set.add(trimmed);
  }
  return set;
}

function checkCount(name: string, count: number | undefined, problems: string[]): void {
  if (count === undefined || !Number.isInteger(count)) problems.push(`${name} must be a whole number, got ${count}`);
  else if (count < MIN_APPROVALS)
    problems.push(`${name} is ${count}: money never moves with fewer than ${MIN_APPROVALS} approvals`);
}

function checkThreshold(i: number, t: AmountThreshold, problems: string[]): void {
  if (t.currency.trim() === '') problems.push(`threshold ${i + 1}: currency is empty`);
  if (!isDecimal(t.atLeast))
    problems.push(`threshold ${i + 1}: atLeast must be a decimal string, got ${JSON.stringify(t.atLeast)}`);
  checkCount(`threshold ${i + 1} approvals`, t.approvals, problems);
}

export function mayRequest(policy: Policy, userId: string): boolean {
  return policy.requesters.has(userId);
}

export function isApprover(policy: Policy, userId: string): boolean {
  return policy.approvers.has(userId);
}

export function isCompliance(policy: Policy, userId: string): boolean {
  return policy.compliance.has(userId);
}

/** Requester, approver or compliance: may read balances, records and the desk's activity. */
export function isDeskMember(policy: Policy, userId: string): boolean {
  return mayRequest(policy, userId) || isApprover(policy, userId) || isCompliance(policy, userId);
}

/** Approvals needed for this snapshot: the highest of the base count, its kind's and any threshold met. */
export function requiredApprovalsFor(policy: Policy, snapshot: Snapshot): number {
  let required = Math.max(policy.requiredApprovals, policy.approvalsByKind[snapshot.kind] ?? 0);
  const moved = amountsMoved(snapshot);
  for (const t of policy.thresholds) {
    if (t.kinds && !t.kinds.includes(snapshot.kind)) continue;
    if (moved.some((m) => m.currency === t.currency && gte(m.amount, t.atLeast)))
      required = Math.max(required, t.approvals);
  }
  return required;
}

export function expiryFor(policy: Policy, kind: RequestKind): number {
  return policy.expiryMs[kind];
}

/** What an approval decision needs to see of a request. */
export interface ApprovalView {
  state: RequestState;
  requester: string;
  snapshot: Snapshot;
  snapshotHash: string;
  approvals: readonly { userId: string; snapshotHash?: string }[];
  /** The count fixed when the request was made; a policy raised since then raises it. */
  requiredApprovals: number;
}

export type ApprovalJudgement = { ok: true; count: number; required: number; last: boolean } | Refusal;

/**
 * Never the requester, one person once, only approvers, and only for the snapshot they saw
 * (`seenHash`): an approval of changed terms does not carry over.
 */
export function judgeApproval(
  policy: Policy,
  request: ApprovalView,
  userId: string,
  seenHash: string,
): ApprovalJudgement {
  if (!awaitsVerdict(request.state)) return refuse('already_decided');
  if (userId === request.requester) return refuse('own_request');
  if (!isApprover(policy, userId)) return refuse('not_approver');
  if (seenHash !== request.snapshotHash) return refuse('stale_snapshot');
  if (request.approvals.some((a) => a.userId === userId)) return refuse('already_approved');
  const count = countingApprovals(policy, request).length + 1;
  const required = approvalsNeeded(policy, request);
  return { ok: true, count, required, last: count >= required };
}

/** The count a request needs now: never below its own, the policy's current one, or two. */
export function approvalsNeeded(policy: Policy, request: Pick<ApprovalView, 'snapshot' | 'requiredApprovals'>): number {
  return Math.max(request.requiredApprovals, requiredApprovalsFor(policy, request.snapshot), MIN_APPROVALS);
}

/** Distinct approvers, never the requester, bound to the current snapshot; a removed approver stops counting. */
export function countingApprovals<A extends { userId: string; snapshotHash?: string }>(
  policy: Policy,
  request: { requester: string; snapshotHash: string; approvals: readonly A[] },
): A[] {
  const seen = new Set<string>();
  return request.approvals.filter((a) => {
    const counts =
      a.userId !== request.requester &&
      isApprover(policy, a.userId) &&
      !seen.has(a.userId) &&
      (a.snapshotHash === undefined || a.snapshotHash === request.snapshotHash);
    seen.add(a.userId);
    return counts;
  });
}

/** True when the request's approvals still meet the policy as it is now (checked again before executing). */
export function hasRequiredApprovals(
  policy: Policy,
  request: Pick<ApprovalView, 'requester' | 'snapshot' | 'snapshotHash' | 'approvals' | 'requiredApprovals'>,
): boolean {
  return countingApprovals(policy, request).length >= approvalsNeeded(policy, request);
}

export type RejectJudgement = { ok: true; reason: string } | Refusal;

/** Any approver may reject a request waiting for approvals, with a reason. */
export function judgeReject(
  policy: Policy,
  request: Pick<ApprovalView, 'state'>,
  userId: string,
  reason: string,
): RejectJudgement {
  if (!awaitsVerdict(request.state)) return refuse('already_decided');
  if (!isApprover(policy, userId)) return refuse('not_approver');
  const trimmed = reason.trim();
  if (trimmed === '') return refuse('reason_required');
  return { ok: true, reason: trimmed };
}

export type CancelJudgement = { ok: true } | Refusal;

/** Only the requester may cancel, and only while it waits for approvals. */
export function judgeCancel(request: Pick<ApprovalView, 'state' | 'requester'>, userId: string): CancelJudgement {
  if (!awaitsVerdict(request.state)) return refuse('already_decided');
  if (userId !== request.requester) return refuse('not_requester');
  return { ok: true };
}

/** A request still waiting for people is expired once its round's deadline has passed. */
export function isExpired(request: { state: RequestState; expiresAt: number }, now: number): boolean {
  return awaitsVerdict(request.state) && now >= request.expiresAt;
}
