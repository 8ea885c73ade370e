/** Use case (on tick): requests still waiting for approvals past their deadline expire. */
import { isExpired } from '../../domain/policy.js';
import { mustAdvance, type RequestRecord } from '../../domain/record.js';
import { audit, emit, SYSTEM, type EngineContext } from '../context.js';

/** Expires every due request in `live`; returns how many expired. */
export async function expireDue(ctx: EngineContext, live: readonly RequestRecord[]): Promise<number> {
  let expired = 0;
  for (const candidate of live) {
    if (!isExpired(candidate, ctx.clock.now())) continue;
    const request = await ctx.requests.mutate(candidate.id, (current) => {
      const now = ctx.clock.now();
      if (current === undefined || !isExpired(current, now)) return { result: undefined };
      const next = mustAdvance(current, 'expire', now, { decision: { by: SYSTEM, at: now, reason: 'expired' } });
      return { next, result: next };
    });
    if (request === undefined) continue;
    expired++;
    await audit(ctx, 'request.expired', SYSTEM, request.id, {
      expiresAt: request.expiresAt,
      approvals: request.approvals.length,
    });
    emit(ctx, request, { type: 'request.expired' });
  }
  return expired;
}
