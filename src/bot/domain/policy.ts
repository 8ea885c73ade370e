// Who may do what (requesters, the groups of approvers, compliance), which rule decides a request
// and who still must approve it (never the requester, one person once, never fewer than two), and
// when it expires; pure decisions. The model, matcher, counting and checks live in policy/.
import { refuse, type Refusal } from './refusals.js';
import type { RequestKind, Snapshot } from './request.js';
import { awaitsVerdict, type RequestState } from './state-machine.js';
import { groupsIn, placesOf, tally, type GroupsOf, type Tally } from './policy/count.js';
import { ANY_APPROVER, type FrozenRule, type Policy, type Requirement } from './policy/model.js';
import { requireText, MIN_APPROVALS } from './policy/build.js';
import { freeze, hashOf, ruleFor } from './policy/rules.js';

export {
  APPROVERS_GROUP,
  createPolicy,
  DEFAULT_EXPIRY_MS,
  DEFAULT_REMINDERS,
  EXPIRY_WARNING_AT,
  DEFAULT_REQUIRED_APPROVALS,
  MIN_APPROVALS,
  PolicyConfigError,
  requireText,
  type AmountThreshold,
  type LimitInput,
  type PolicyInput,
  type ReminderRule,
  type RuleInput,
} from './policy/build.js';
export { currenciesToValue, ruleFor, assetOf } from './policy/rules.js';
export { groupsIn, tally, type GroupsOf, type GroupTally, type Tally } from './policy/count.js';
export { checkLimits, longestWindow, roomLeft, usedUnder, type LimitCheck } from './policy/limits.js';
export type { FrozenRule, Limit, Policy, PolicySource, Requirement, Rule } from './policy/model.js';

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

/**
 * Why the policy lets nobody approve in `userId`'s place, in its words; undefined when it allows a
 * delegate. A member of any group in delegation.forbidden_for may not delegate, whatever their other groups.
 */
export function delegationRefusal(policy: Policy, userId: string): string | undefined {
  const groups = [...policy.delegationForbiddenFor].filter((g) => policy.groups.get(g)?.has(userId));
  if (groups.length === 0) return undefined;
  const names = groups.length === 1 ? groups[0] : `${groups.slice(0, -1).join(', ')} and ${groups.at(-1)}`;
  return `The approval policy forbids delegation for ${names}: you are in ${names}, so nobody may approve in your place.`;
}

/** The rule this snapshot is approved under: the one frozen in it, else the policy's first match. */
export function frozenRuleFor(policy: Policy, snapshot: Snapshot): FrozenRule | undefined {
  if (snapshot.rule) return snapshot.rule;
  const rule = ruleFor(policy, snapshot);
  return rule && freeze(rule);
}

/** Approvals needed for this snapshot: the places of its rule (0 when no rule matches: such a request is refused). */
export function requiredApprovalsFor(policy: Policy, snapshot: Snapshot): number {
  const rule = frozenRuleFor(policy, snapshot);
  return rule ? placesOf(rule.require) : 0;
}

/**
 * The policy's allowlist of saved addresses for `asset` (by label or id); an asset it does not name
 * may go to any saved address.
 */
export function destinationAllowed(
  policy: Pick<Policy, 'destinations'>,
  asset: string,
  address: { id: string; label: string },
): { ok: true } | { ok: false; message: string } {
  const allowed = policy.destinations.get(asset);
  if (allowed === undefined || allowed.includes(address.id) || allowed.includes(address.label)) return { ok: true };
  return {
    ok: false,
    message: `The approval policy allows ${asset} withdrawals only to ${allowed.map((a) => `"${a}"`).join(', ')}.`,
  };
}

/** The expires_after of the rule the request keeps, else the kind's default. */
export function expiryFor(policy: Policy, kind: RequestKind, snapshot?: Snapshot): number {
  return snapshot?.rule?.expiresAfterMs ?? policy.expiryMs[kind];
}

/** What an approval decision needs to see of a request. */
export interface ApprovalView {
  state: RequestState;
  requester: string;
  snapshot: Snapshot;
  snapshotHash: string;
  approvals: readonly { userId: string; snapshotHash?: string }[];
  /** The count fixed when the request was made (a request made before rules were frozen needs this many of any approver). */
  requiredApprovals: number;
  /** Groups added by a limit the request goes over. */
  limitRequire?: readonly { limit: string; require: readonly Requirement[] }[];
}

export type ApprovalJudgement = { ok: true; count: number; required: number; last: boolean; tally: Tally } | Refusal;

/**
 * Never the requester, one person once, only people in a group the rule still needs, and only for
 * the snapshot they saw (`seenHash`): an approval of changed terms does not carry over. `groupsOf`
 * is who counts in which group now (the policy's groups by default).
 */
export function judgeApproval(
  policy: Policy,
  request: ApprovalView,
  userId: string,
  seenHash: string,
  groupsOf: GroupsOf = groupsIn(policy),
): ApprovalJudgement {
  if (!awaitsVerdict(request.state)) return refuse('already_decided');
  if (userId === request.requester) return refuse('own_request');
  if (seenHash !== request.snapshotHash) return refuse('stale_snapshot');
  if (request.approvals.some((a) => a.userId === userId)) return refuse('already_approved');
  const require = requirementOf(request);
  const before = tallyOf(policy, request, groupsOf);
  const after = tally(require, [...before.counted, userId], groupsOf);
  if (after.counted.length === before.counted.length) {
    const mine = groupsOf(userId);
    // Someone in no group at all: not an approver (the variables' policy has nothing more to say).
    if (mine.size === 0)
      return policy.source.from === 'file'
        ? refuse('not_approver', notNeededText(before, mine))
        : refuse('not_approver');
    return refuse('not_in_group', notNeededText(before, mine));
  }
  const required = placesOf(require);
  return { ok: true, count: after.counted.length, required, last: after.met, tally: after };
}

/**
 * What this request needs: its frozen rule (N of any approver for a request made before rules), with
 * the groups a limit it goes over added (the most of each group).
 */
export function requirementOf(
  request: Pick<ApprovalView, 'snapshot' | 'requiredApprovals'> & { limitRequire?: ApprovalView['limitRequire'] },
): readonly Requirement[] {
  const base = request.snapshot.rule?.require ?? [
    { group: ANY_APPROVER, count: Math.max(request.requiredApprovals, MIN_APPROVALS) },
  ];
  const most = new Map(base.map((r) => [r.group, r.count]));
  for (const added of request.limitRequire ?? [])
    for (const r of added.require) most.set(r.group, Math.max(most.get(r.group) ?? 0, r.count));
  return [...most].map(([group, count]) => ({ group, count }));
}

/** Who counts for which group now: distinct approvers, never the requester, bound to the current snapshot. */
export function tallyOf(
  policy: Policy,
  request: Pick<
    ApprovalView,
    'requester' | 'snapshot' | 'snapshotHash' | 'approvals' | 'requiredApprovals' | 'limitRequire'
  >,
  groupsOf: GroupsOf = groupsIn(policy),
): Tally {
  const people = request.approvals
    .filter(
      (a) =>
        a.userId !== request.requester && (a.snapshotHash === undefined || a.snapshotHash === request.snapshotHash),
    )
    .map((a) => a.userId);
  return tally(requirementOf(request), people, groupsOf);
}

/**
 * Which version of "who counts" a rendered tally was worked out with: the groups and the groups
 * that may not delegate (a pending request keeps its rule, so nothing else changes who counts).
 */
export function countingHash(policy: Pick<Policy, 'groups' | 'delegationForbiddenFor'>): string {
  const groups = [...policy.groups].map(([name, members]) => [name, [...members].sort()]).sort();
  return hashOf({ groups, delegationForbiddenFor: [...policy.delegationForbiddenFor].sort() });
}

/** The approvers whose approval would count now: in a group the request still needs, not the requester, not counted yet. */
export function stillNeeded(
  policy: Policy,
  request: Pick<
    ApprovalView,
    'requester' | 'snapshot' | 'snapshotHash' | 'approvals' | 'requiredApprovals' | 'limitRequire'
  >,
): string[] {
  const groupsOf = groupsIn(policy);
  const before = tallyOf(policy, request, groupsOf);
  const acted = new Set(
    request.approvals
      .filter((a) => a.snapshotHash === undefined || a.snapshotHash === request.snapshotHash)
      .map((a) => a.userId),
  );
  const require = requirementOf(request);
  return [...policy.approvers].filter(
    (id) =>
      id !== request.requester &&
      !acted.has(id) &&
      tally(require, [...before.counted, id], groupsOf).counted.length > before.counted.length,
  );
}

/** "You are not in risk or treasury." / "Treasury has its 2; this still needs 1 of risk, and you are not in risk." */
function notNeededText(before: Tally, mine: ReadonlySet<string>): string {
  const missing = before.groups.filter((g) => g.by.length < g.count);
  const names = (groups: { group: string }[]) =>
    groups.map((g) => (g.group === ANY_APPROVER ? 'the approvers' : g.group)).join(' or ');
  const inAny = before.groups.some((g) => mine.has(g.group));
  if (!inAny) return `You are not in ${names(before.groups)}, so your approval cannot count for this request.`;
  const still = requireText(missing.map((g) => ({ group: g.group, count: g.count - g.by.length })));
  return `The groups you are in have all the approvals this request needs from them; it still needs ${still}, and you are not in ${names(missing)}.`;
}

/** The count a request needs: the places of its rule (never below two). */
export function approvalsNeeded(
  policy: Policy,
  request: Pick<ApprovalView, 'snapshot' | 'requiredApprovals' | 'limitRequire'>,
): number {
  void policy;
  return placesOf(requirementOf(request));
}

/** The approvals that count now (a person removed from a group stops counting at once). */
export function countingApprovals<A extends { userId: string; snapshotHash?: string }>(
  policy: Policy,
  request: {
    requester: string;
    snapshot: Snapshot;
    snapshotHash: string;
    requiredApprovals: number;
    approvals: readonly A[];
  },
): A[] {
  const counted = new Set(tallyOf(policy, request).counted);
  return request.approvals.filter(
    (a) => counted.has(a.userId) && (a.snapshotHash === undefined || a.snapshotHash === request.snapshotHash),
  );
}

/** True when the request's approvals still meet its rule with the groups as they are now (checked again before executing). */
export function hasRequiredApprovals(
  policy: Policy,
  request: Pick<
    ApprovalView,
    'requester' | 'snapshot' | 'snapshotHash' | 'approvals' | 'requiredApprovals' | 'limitRequire'
  >,
): boolean {
  return tallyOf(policy, request).met;
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
