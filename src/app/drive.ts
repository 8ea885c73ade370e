/**
 * Drives one request forward as far as it can go now, holding its lock so that a last approval,
 * a tick and a recovery never work on the same request at once. Each step reads the persisted
 * record and does exactly what its state calls for.
 */
import { hasRequiredApprovals } from '../domain/policy.js';
import type { DeskRequest } from '../domain/record.js';
import type { EngineContext } from './context.js';
import { hasSettledRefusal, resumeSettled } from './definitive-no.js';
import { executeTrade } from './execute-trade.js';
import { executeTransfer } from './execute-transfer.js';
import { markFailed, markUnknown } from './outcomes.js';
import { reconcile } from './reconcile.js';

/** More steps than any legal path needs (re-quotes and resends are bounded well below it). */
const MAX_STEPS = 25;

export function drive(ctx: EngineContext, requestId: string): Promise<void> {
  return ctx.requestLocks.run(requestId, () => driveHoldingLock(ctx, requestId));
}

/** Like drive, for a caller that already holds the request's lock. */
export async function driveHoldingLock(ctx: EngineContext, requestId: string): Promise<void> {
  for (let step = 0; step < MAX_STEPS; step++) {
    const request = await ctx.requests.get(requestId);
    if (request === undefined || !(await stepOnce(ctx, request))) return;
  }
  ctx.logger.warn('request not settled after the maximum number of steps', { requestId });
}

/** One step; true when there is more to do at once. */
async function stepOnce(ctx: EngineContext, request: DeskRequest): Promise<boolean> {
  switch (request.state) {
    case 'approved':
      if ((request.execution?.retry?.nextAt ?? 0) > ctx.clock.now()) return false;
      if (!hasRequiredApprovals(ctx.policy, request)) return refuseStaleApprovals(ctx, request);
      return request.kind === 'trade' ? executeTrade(ctx, request) : executeTransfer(ctx, request);
    case 'executing':
      // Nobody holds the lock, so no call is in flight here: the process stopped mid-call, or
      // between settling a definitive refusal and acting on it (nothing in flight: finish that).
      if (hasSettledRefusal(request)) return resumeSettled(ctx, request);
      return (await markUnknown(ctx, request, 'The process stopped before the exchange answer was recorded.')) !== undefined;
    case 'unknown':
      return reconcile(ctx, request);
    default:
      return false;
  }
}

/** The policy was raised (or an approver removed) since the approvals came in: nothing is sent. */
async function refuseStaleApprovals(ctx: EngineContext, request: DeskRequest): Promise<boolean> {
  const reason = 'The approvals no longer meet the approval policy, which changed since they were given; request again.';
  await markFailed(ctx, request, ['approved'], { stage: 'checks', reason, exchangeMessage: null });
  return false;
}
