/**
 * Use case (on the leader's tick): the DM reminders and the expiry warning of requests waiting for
 * approvals. Each nudge is recorded on the request in the same write as its outbox event, and only
 * while the request still waits in that round: a restart or a second replica reads it there and
 * never sends it again, and a request decided meanwhile gets none. Whether the request still
 * waits, and for whom, is read again when the event is delivered.
 */
import { errorText } from '../../domain/error-text.js';
import { isExpired } from '../../domain/policy.js';
import type { RequestRecord } from '../../domain/record.js';
import { awaitsVerdict } from '../../domain/state-machine.js';
import { audit, stamp, SYSTEM, type EngineContext } from '../context.js';
import { awaitedOf } from './awaited.js';
import { nudgeDue, reminderRuleFor, type Nudge } from './reminder-plan.js';

/** Nudges what is due among `live`; returns how many went into the outbox. */
export async function remindDue(ctx: EngineContext, live: readonly RequestRecord[]): Promise<number> {
  let nudged = 0;
  for (const candidate of live) {
    if (dueFor(ctx, candidate, ctx.clock.now()) === undefined) continue;
    try {
      const done = await ctx.requests.mutate(candidate.id, (current) => {
        const now = ctx.clock.now();
        const nudge = current && dueFor(ctx, current, now);
        if (!current || !nudge) return { result: undefined };
        // Not a transition: updatedAt stays, so the approval message does not count it as a change.
        const next = { ...current, reminders: nudge.reminders };
        return { next, result: { request: next, nudge }, outbox: [stamp(ctx, next, nudge.event)] };
      });
      if (done === undefined) continue;
      nudged++;
      ctx.notices.kick();
      const { type, ...data } = done.nudge.event;
      await audit(ctx, type, SYSTEM, candidate.id, { ...data, awaited: awaitedOf(ctx.policy, done.request).approvers });
    } catch (err) {
      // The store did not answer: if the write landed, the record says so and nothing goes out twice.
      ctx.logger.warn('reminders not sent this tick', { requestId: candidate.id, error: errorText(err) });
    }
  }
  return nudged;
}

/** The nudge due for a request still waiting for someone in this round, if any. */
function dueFor(ctx: EngineContext, request: RequestRecord, now: number): Nudge | undefined {
  if (!awaitsVerdict(request.state) || isExpired(request, now)) return undefined;
  if (awaitedOf(ctx.policy, request).approvers.length === 0) return undefined;
  return nudgeDue(reminderRuleFor(ctx.policy, request), request, now);
}
