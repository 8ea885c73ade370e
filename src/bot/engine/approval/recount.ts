/**
 * What a waiting request's message says about who counts (`tally`, `actingDelegates`) is worked out again
 * when that changes without an approval: on start under other groups (`talliedWith`), when a
 * delegation is set or ended, when one runs out. Only a request whose words change gets an
 * `approval.recounted` in the outbox, in the same write: its message is updated (spaced like the
 * refresh) and App Home follows; none twice (a second pass finds the record already says it).
 */
import { actingDelegatesFor, type ActingDelegate, type Delegation } from '../../domain/delegation.js';
import { errorText } from '../../domain/error-text.js';
import { countingHash, delegationRefusal, isApprover, tallyOf, type Policy } from '../../domain/policy.js';
import type { RequestRecord } from '../../domain/record.js';
import { awaitsVerdict } from '../../domain/state-machine.js';
import { audit, stamp, SYSTEM, type EngineContext } from '../context.js';
import { activeDelegations } from '../delegation/delegations.js';
import { awaitedOf } from '../reminders/awaited.js';

export type Counted = Pick<RequestRecord, 'tally' | 'actingDelegates' | 'talliedWith'>;

/** Who may approve now in place of the approvers `request` still awaits (`awaited`, by default worked out here). */
export function actingDelegatesOf(
  policy: Policy,
  request: RequestRecord,
  delegations: readonly Delegation[],
  now: number,
  awaited: readonly string[] = awaitedOf(policy, request).approvers,
): ActingDelegate[] {
  return actingDelegatesFor({
    now,
    requester: request.requester,
    approvals: request.approvals.filter((a) => a.snapshotHash === undefined || a.snapshotHash === request.snapshotHash),
    delegations,
    isApprover: (id) => isApprover(policy, id),
    mayDelegate: (id) => delegationRefusal(policy, id) === undefined,
    awaited,
  });
}

/** Who counts for a waiting request now, and who may approve in an awaited approver's place. */
export function countedNow(
  policy: Policy,
  request: RequestRecord,
  delegations: readonly Delegation[],
  now: number,
): Counted {
  const actingDelegates = actingDelegatesOf(policy, request, delegations, now);
  return {
    tally: tallyOf(policy, request).groups,
    ...(actingDelegates.length > 0 ? { actingDelegates } : {}),
    talliedWith: countingHash(policy),
  };
}

/** Whether the message's words differ (the hash alone changes no word). */
function shownDiffers(request: RequestRecord, next: Counted): boolean {
  return (
    JSON.stringify(request.tally ?? null) !== JSON.stringify(next.tally ?? null) ||
    JSON.stringify((request.actingDelegates ?? []).map(({ userId, delegate }) => [userId, delegate])) !==
      JSON.stringify((next.actingDelegates ?? []).map(({ userId, delegate }) => [userId, delegate]))
  );
}

/**
 * Works out again the waiting requests `which` picks; returns how many messages it asked to
 * refresh. A store that does not answer is logged: the next trigger (or the ten-minute pass) tries again.
 */
export async function recount(ctx: EngineContext, which: (r: RequestRecord) => boolean = () => true): Promise<number> {
  const candidates = (await ctx.requests.listLive()).filter((r) => awaitsVerdict(r.state) && which(r));
  if (candidates.length === 0) return 0;
  const delegations = await activeDelegations(ctx);
  let refreshed = 0;
  const countedOf = (r: RequestRecord) => countedNow(ctx.policy, r, delegations, ctx.clock.now());
  const stale = (r: RequestRecord, counted: Counted) =>
    shownDiffers(r, counted) || r.talliedWith !== counted.talliedWith;
  for (const candidate of candidates) {
    // Read first, written only when it differs: a pass over a quiet desk queues no write.
    if (!stale(candidate, countedOf(candidate))) continue;
    try {
      const changed = await ctx.requests.mutate(candidate.id, (current) => {
        if (!current || !awaitsVerdict(current.state)) return { result: undefined };
        const counted = countedOf(current);
        if (!stale(current, counted)) return { result: undefined };
        const shown = shownDiffers(current, counted);
        // Not a transition: updatedAt stays, so the message does not count it as a newer record.
        const { actingDelegates: _dropped, ...rest } = current;
        const next: RequestRecord = { ...rest, ...counted };
        return {
          next,
          result: shown ? next : undefined,
          outbox: shown ? [stamp(ctx, next, { type: 'approval.recounted' })] : [],
        };
      });
      if (changed === undefined) continue;
      refreshed++;
      await audit(ctx, 'approval.recounted', SYSTEM, changed.id, {
        tally: changed.tally ?? null,
        actingDelegates: changed.actingDelegates ?? [],
        talliedWith: changed.talliedWith ?? null,
      });
    } catch (err) {
      ctx.logger.warn('who counts not worked out again for a request; the next pass tries again', {
        requestId: candidate.id,
        error: errorText(err),
      });
    }
  }
  if (refreshed > 0) ctx.notices.kick();
  return refreshed;
}

/** On start: the requests last worked out under other groups than the policy's now. */
export function recountChangedPolicy(ctx: EngineContext): Promise<number> {
  const hash = countingHash(ctx.policy);
  return recount(ctx, (r) => r.talliedWith !== hash);
}

/** On a tick: the requests among `live` naming a delegate whose delegation has ended (no store read when none does). */
export async function recountEndedActingDelegates(ctx: EngineContext, live: readonly RequestRecord[]): Promise<number> {
  const now = ctx.clock.now();
  const ended = (r: RequestRecord) => (r.actingDelegates ?? []).some((s) => s.until <= now);
  return live.some(ended) ? recount(ctx, ended) : 0;
}

/** After `approver`'s delegation started or ended: the requests that wait for them or named their delegate. */
export function recountFor(ctx: EngineContext, approver: string): Promise<number> {
  return recount(
    ctx,
    (r) =>
      awaitedOf(ctx.policy, r).approvers.includes(approver) ||
      (r.actingDelegates ?? []).some((s) => s.userId === approver),
  );
}
