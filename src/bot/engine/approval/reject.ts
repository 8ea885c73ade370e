/** Use case: an approver rejects a request waiting for approvals, with a reason. */
import { judgeReject } from '../../domain/policy.js';
import { mustAdvance, type RequestRecord } from '../../domain/record.js';
import { refuse, type Refusal } from '../../domain/refusals.js';
import { audit, emit, type EngineContext } from '../context.js';

export type VerdictResult = { ok: true; request: RequestRecord } | Refusal;

type Outcome = { ok: true; request: RequestRecord; reason: string } | { ok: false; refusal: Refusal };

export async function reject(
  ctx: EngineContext,
  requestId: string,
  userId: string,
  reason: string,
): Promise<VerdictResult> {
  const now = ctx.clock.now();
  const outcome = await ctx.requests.mutate<Outcome>(requestId, (current) => {
    if (current === undefined) return { result: { ok: false, refusal: refuse('not_found') } };
    const decision = judgeReject(ctx.policy, current, userId, reason);
    if (!decision.ok) return { result: { ok: false, refusal: decision } };
    const next = mustAdvance(current, 'reject', now, { decision: { by: userId, at: now, reason: decision.reason } });
    return { next, result: { ok: true, request: next, reason: decision.reason } };
  });
  if (!outcome.ok) {
    await audit(ctx, 'rejection.refused', userId, requestId, { reason: outcome.refusal.reason });
    return outcome.refusal;
  }
  await audit(ctx, 'request.rejected', userId, requestId, { reason: outcome.reason });
  emit(ctx, outcome.request, { type: 'request.rejected', by: userId, reason: outcome.reason });
  return { ok: true, request: outcome.request };
}
