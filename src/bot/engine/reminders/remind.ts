/**
 * Use case (on the leader's tick): the DM reminders and the expiry warning of requests waiting for
 * approvals. Each nudge is claimed in the shared store (`setIfAbsent`, one key per round and slot)
 * before its event is written to the outbox, so a restart or a second replica never sends it
 * again; a crash between the claim and the write loses that one nudge rather than repeating it.
 * Whether the request still waits, and for whom, is read again when the event is delivered.
 */
import { errorText } from '../../domain/error-text.js';
import { isExpired } from '../../domain/policy.js';
import type { RequestRecord } from '../../domain/record.js';
import { awaitsVerdict } from '../../domain/state-machine.js';
import type { EventInput } from '../../ports/events.js';
import { audit, perEngine, stamp, SYSTEM, type EngineContext } from '../context.js';
import { awaitedOf } from './awaited.js';
import { expiryWarningAt, reminderDueAt, reminderRuleFor } from './reminder-plan.js';

export const REMINDER_KEY_PREFIX = 'reminder:';

/** What a claimed slot holds: when, and by which replica. */
export interface NudgeClaim {
  at: number;
  replica: string;
}

/** Slots this replica has seen claimed (by anyone), so a tick reads the store only for what is due. */
const knownClaims = perEngine(() => new Map<string, number>());

export function nudgeKey(request: Pick<RequestRecord, 'id' | 'round'>, slot: number | 'expiring'): string {
  return `${REMINDER_KEY_PREFIX}${request.id}:${request.round}:${slot}`;
}

/** Nudges what is due among `live`; returns how many this tick claimed. */
export async function remindDue(ctx: EngineContext, live: readonly RequestRecord[]): Promise<number> {
  let nudged = 0;
  for (const request of live) {
    if (!awaitsVerdict(request.state) || isExpired(request, ctx.clock.now())) continue;
    if (awaitedOf(ctx.policy, request).approvers.length === 0) continue;
    try {
      nudged += (await remindOnce(ctx, request)) + (await warnBeforeExpiry(ctx, request));
    } catch (err) {
      // The store did not answer: the next tick tries again (a slot claimed but not written stays lost).
      ctx.logger.warn('reminders not sent this tick', { requestId: request.id, error: errorText(err) });
    }
  }
  return nudged;
}

/** At most one reminder per request and tick: the first slot due that nobody has claimed. */
async function remindOnce(ctx: EngineContext, request: RequestRecord): Promise<number> {
  const rule = reminderRuleFor(ctx.policy, request);
  let previousAt: number | undefined;
  for (let n = 1; ; n++) {
    const dueAt = reminderDueAt(rule, request, n, previousAt);
    if (dueAt === undefined || ctx.clock.now() < dueAt) return 0;
    const claim = await claimSlot(ctx, nudgeKey(request, n));
    if (claim.mine) {
      await nudge(ctx, request, { type: 'approval.reminder', n, round: request.round });
      return 1;
    }
    previousAt = claim.at;
  }
}

async function warnBeforeExpiry(ctx: EngineContext, request: RequestRecord): Promise<number> {
  if (ctx.clock.now() < expiryWarningAt(request)) return 0;
  const claim = await claimSlot(ctx, nudgeKey(request, 'expiring'));
  if (!claim.mine) return 0;
  await nudge(ctx, request, { type: 'request.expiring', round: request.round });
  return 1;
}

/** Claims `key` for this replica, or says when whoever holds it claimed it. */
async function claimSlot(ctx: EngineContext, key: string): Promise<{ mine: boolean; at: number }> {
  const known = knownClaims(ctx);
  const seen = known.get(key);
  if (seen !== undefined) return { mine: false, at: seen };
  const now = ctx.clock.now();
  if (await ctx.kv.setIfAbsent<NudgeClaim>(key, { at: now, replica: ctx.replica })) {
    known.set(key, now);
    return { mine: true, at: now };
  }
  const held = await ctx.kv.get<NudgeClaim>(key);
  const at = held?.at ?? now;
  known.set(key, at);
  return { mine: false, at };
}

/** The claimed nudge: written to the outbox, delivered, audited. */
async function nudge(
  ctx: EngineContext,
  request: RequestRecord,
  event: Extract<EventInput, { type: 'approval.reminder' | 'request.expiring' }>,
): Promise<void> {
  await ctx.requests.outbox.append([stamp(ctx, request, event)]);
  ctx.notices.kick();
  const { type, ...data } = event;
  await audit(ctx, type, SYSTEM, request.id, { ...data, awaited: awaitedOf(ctx.policy, request).approvers });
}
