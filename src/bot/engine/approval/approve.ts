// An approver approves the snapshot they saw: the approval and, when last, the move to `approved` are
// one write. The leader executes at once; a follower leaves it for the leader's next tick, so two
// replicas never drive one request.
import { countsFor, type Delegation } from '../../domain/delegation.js';
import { countingHash, judgeApproval, isApprover, isExpired } from '../../domain/policy.js';
import { awaitsVerdict } from '../../domain/state-machine.js';
import { mustAdvance, newExecution, type RequestRecord } from '../../domain/record.js';
import { refuse, type Refusal } from '../../domain/refusals.js';
import { stepUpRequired, type StepUpProof } from '../../domain/step-up/required.js';
import { audit, emit, stamp, SYSTEM, type EngineContext } from '../context.js';
import { activeDelegations, mayDelegate } from '../delegation/delegations.js';
import { execute } from '../execution/runner.js';
import { awaitedOf } from '../reminders/awaited.js';
import { isLimited, judgeLimits, limitScope, withLimitGroups } from './limits.js';
import type { Mutation } from '../../ports/store.js';

export type ApproveResult =
  | {
      ok: true;
      request: RequestRecord;
      count: number;
      required: number;
      /** True when this approval was the last one needed. */
      approved: boolean;
      /** The execution this approval started (resolves when it has settled); undefined if not the last, or on a follower. */
      execution: Promise<void> | undefined;
    }
  | Refusal;

export type Counted =
  | { ok: true; request: RequestRecord; count: number; required: number; last: boolean }
  | { ok: false; refusal: Refusal; request?: RequestRecord; expired?: boolean };

/** Counts `userId`'s approval of the snapshot with hash `seenHash`, or refuses with a reason. */
export async function approve(
  ctx: EngineContext,
  requestId: string,
  userId: string,
  seenHash: string,
  stepUp?: StepUpProof,
): Promise<ApproveResult> {
  const now = ctx.clock.now();
  const delegations = isApprover(ctx.policy, userId) ? [] : await activeDelegations(ctx);
  // A request a limit covers is counted against the others in the same write, one at a time.
  const limited = ctx.policy.limits.length > 0;
  const outcome = limited
    ? await ctx.requests.mutateInScope<Counted>(limitScope(ctx.policy, now), requestId, (current, others) =>
        countApproval(ctx, current, userId, seenHash, now, others, delegations, stepUp),
      )
    : await ctx.requests.mutate<Counted>(requestId, (current) =>
        countApproval(ctx, current, userId, seenHash, now, [], delegations, stepUp),
      );
  if (!outcome.ok) return reportRefusal(ctx, requestId, userId, seenHash, outcome);
  const audited = reportCounted(ctx, outcome, userId);
  if (!outcome.last) {
    await audited;
    return {
      ok: true,
      request: outcome.request,
      count: outcome.count,
      required: outcome.required,
      approved: false,
      execution: undefined,
    };
  }
  // The approval is persisted; execution starts without waiting for these audit lines to reach
  // the disk. They were appended first, so the audit log still has them before the attempt line.
  const execution = ctx.leadership.isLeader()
    ? ctx.background.start(`execution of ${requestId}`, execute(ctx, requestId))
    : undefined;
  await audited;
  return {
    ok: true,
    request: outcome.request,
    count: outcome.count,
    required: outcome.required,
    approved: true,
    execution,
  };
}

/** The write of an approval: expire a request past its deadline, refuse, count, or complete the count. */
export function countApproval(
  ctx: EngineContext,
  current: RequestRecord | undefined,
  userId: string,
  seenHash: string,
  now: number,
  others: readonly RequestRecord[] = [],
  delegations: readonly Delegation[] = [],
  stepUp?: StepUpProof,
): Mutation<RequestRecord, Counted> {
  if (current === undefined) return { result: { ok: false, refusal: refuse('not_found') } };
  if (isExpired(current, now)) {
    const expired = mustAdvance(current, 'expire', now, { decision: { by: SYSTEM, at: now, reason: 'expired' } });
    return {
      next: expired,
      result: {
        ok: false,
        refusal: refuse('already_decided', 'This request has expired.'),
        request: expired,
        expired: true,
      },
    };
  }
  // A delegate's click counts for the approver they act for (domain/delegation.ts).
  const whom = awaitsVerdict(current.state)
    ? countsFor({
        clicker: userId,
        now,
        requester: current.requester,
        approvals: current.approvals,
        delegations,
        isApprover: (id) => isApprover(ctx.policy, id),
        mayDelegate: (id) => mayDelegate(ctx, id),
      })
    : { ok: true as const, userId };
  if (!whom.ok) return { result: { ok: false, refusal: whom, request: current } };
  const approver = whom.userId;
  let decision = judgeApproval(ctx.policy, current, approver, seenHash);
  if (!decision.ok) return { result: { ok: false, refusal: decision, request: current } };
  // Judged in the same write as the count: only an accepted code counts a step-up approval.
  if (!stepUp && stepUpRequired(current, ctx.stepUpSettings))
    return { result: { ok: false, refusal: refuse('step_up_required'), request: current } };
  if (decision.last && isLimited(ctx.policy, current.snapshot)) {
    // Checked again now: other requests may have used the room since this one was made.
    const limits = judgeLimits(ctx.policy, current.snapshot, others, now);
    if (!limits.ok) return { result: { ok: false, refusal: limits, request: current } };
    const known = new Set((current.limitRequire ?? []).map((l) => l.limit));
    const added = limits.added.filter((l) => !known.has(l.limit));
    if (added.length > 0) {
      current = withLimitGroups(current, [...(current.limitRequire ?? []), ...added]);
      decision = judgeApproval(ctx.policy, current, approver, seenHash);
      if (!decision.ok) return { result: { ok: false, refusal: decision, request: current } };
    }
  }
  const approval = { userId: approver, at: now, snapshotHash: current.snapshotHash };
  const approvals = [...current.approvals, whom.delegate ? { ...approval, delegate: whom.delegate } : approval];
  const tally = decision.tally.groups;
  const counted = {
    approvals,
    tally,
    talliedWith: countingHash(ctx.policy),
    requiredApprovals: decision.required,
    ...limitGroups(current),
  };
  const advanced = decision.last
    ? mustAdvance(current, 'approve_last', now, { ...counted, execution: newExecution(now, current.execution) })
    : mustAdvance(current, 'approve', now, counted);
  const next = withoutActedDelegates(ctx, advanced);
  // Written with the approval, so its messages come before the execution's in the outbox.
  const events = [
    stamp(ctx, next, { type: 'approval.counted', by: userId, count: decision.count, required: decision.required }),
  ];
  if (decision.last) events.push(stamp(ctx, next, { type: 'request.approved' }));
  return {
    next,
    result: { ok: true, request: next, count: decision.count, required: decision.required, last: decision.last },
    outbox: events,
  };
}

/** An approval only takes people off the awaited list: a delegate for someone no longer awaited, or who clicked, is no longer shown. */
function withoutActedDelegates(ctx: EngineContext, record: RequestRecord): RequestRecord {
  const { actingDelegates, ...rest } = record;
  if (actingDelegates === undefined) return record;
  const awaited = awaitsVerdict(record.state) ? awaitedOf(ctx.policy, record).approvers : [];
  const clicked = new Set(record.approvals.map((a) => a.delegate ?? a.userId));
  const still = actingDelegates.filter((s) => awaited.includes(s.userId) && !clicked.has(s.delegate));
  return still.length > 0 ? { ...rest, actingDelegates: still } : rest;
}

function limitGroups(record: RequestRecord): Pick<RequestRecord, 'limitRequire'> {
  return record.limitRequire ? { limitRequire: record.limitRequire } : {};
}

/** Audit lines appended at once (one flush) and the events written with the approval delivered; resolves when durable. */
export function reportCounted(
  ctx: EngineContext,
  counted: Extract<Counted, { ok: true }>,
  userId: string,
): Promise<void> {
  const { request, count, required, last } = counted;
  const approval = request.approvals.at(-1);
  const lines = [
    audit(ctx, 'approval.counted', userId, request.id, {
      count,
      required,
      snapshotHash: request.snapshotHash,
      round: request.round,
      rule: request.snapshot.rule?.name ?? null,
      tally: request.tally ?? null,
      // A delegate's approval names the approver it counted for.
      ...(approval?.delegate === userId ? { for: approval.userId } : {}),
    }),
  ];
  if (last)
    lines.push(
      audit(ctx, 'request.approved', SYSTEM, request.id, {
        approvers: request.approvals.map((a) => a.userId),
        snapshotHash: request.snapshotHash,
      }),
    );
  ctx.notices.kick();
  return Promise.all(lines).then(() => undefined);
}

export async function reportRefusal(
  ctx: EngineContext,
  requestId: string,
  userId: string,
  seenHash: string,
  outcome: Extract<Counted, { ok: false }>,
): Promise<Refusal> {
  const { refusal, request } = outcome;
  await audit(ctx, 'approval.refused', userId, requestId, {
    reason: refusal.reason,
    seenHash,
    snapshotHash: request?.snapshotHash,
  });
  if (request !== undefined) {
    if (outcome.expired) {
      await audit(ctx, 'request.expired', SYSTEM, requestId, { expiresAt: request.expiresAt });
      emit(ctx, request, { type: 'request.expired' });
    }
    emit(ctx, request, { type: 'approval.refused', by: userId, reason: refusal.reason, message: refusal.message });
  }
  return refusal;
}
