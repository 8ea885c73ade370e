/** Use case: the requester withdraws a request still waiting for approvals. */
import { judgeCancel } from '../../domain/policy.js';
import { mustAdvance, type RequestRecord } from '../../domain/record.js';
import { refuse, type Refusal } from '../../domain/refusals.js';
import { audit, emit, type EngineContext } from '../context.js';
import type { VerdictResult } from './reject.js';

type Outcome = { ok: true; request: RequestRecord } | { ok: false; refusal: Refusal };

export async function cancel(ctx: EngineContext, requestId: string, userId: string): Promise<VerdictResult> {
  const now = ctx.clock.now();
  const outcome = await ctx.requests.mutate<Outcome>(requestId, (current) => {
    if (current === undefined) return { result: { ok: false, refusal: refuse('not_found') } };
    const decision = judgeCancel(current, userId);
    if (!decision.ok) return { result: { ok: false, refusal: decision } };
    const next = mustAdvance(current, 'cancel', now, { decision: { by: userId, at: now, reason: null } });
    return { next, result: { ok: true, request: next } };
  });
  if (!outcome.ok) {
    await audit(ctx, 'cancel.refused', userId, requestId, { reason: outcome.refusal.reason });
    return outcome.refusal;
  }
  await audit(ctx, 'request.cancelled', userId, requestId);
  emit(ctx, outcome.request, { type: 'request.cancelled', by: userId });
  return outcome;
}
