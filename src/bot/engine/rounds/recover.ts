/**
 * Start-up: a previous process may have stopped anywhere. First every request in doubt
 * (`executing` means a call may have left without its answer being recorded; `unknown` is known
 * to be in doubt) is reconciled, one by one; then approved requests are executed; submitted ones
 * are polled from the next tick on. A request another replica (or the process before this one)
 * still holds a live execution lease on is left to it: the ticks take it over once the lease expires.
 */
import { audit, SYSTEM, type EngineContext } from '../context.js';
import { recountChangedPolicy } from '../approval/recount.js';
import { refreshMessages } from '../notices/refresh-messages.js';
import { execute } from '../execution/runner.js';
import { schedulesOf } from '../polling/poll-schedules.js';

export interface RecoverySummary {
  inDoubt: number;
  approved: number;
  submitted: number;
  pending: number;
}

export async function recover(ctx: EngineContext): Promise<RecoverySummary> {
  const live = await ctx.requests.listLive();
  const of = (...states: string[]) => live.filter((r) => states.includes(r.state));
  const summary: RecoverySummary = {
    inDoubt: of('executing', 'unknown').length,
    approved: of('approved').length,
    submitted: of('submitted').length,
    pending: of('pending', 'awaiting_reapproval').length,
  };
  await audit(ctx, 'engine.started', SYSTEM, undefined, { ...summary, replica: ctx.replica });
  for (const request of of('executing', 'unknown'))
    await ctx.background.start(`recovery of ${request.id}`, execute(ctx, request.id));
  for (const request of of('approved'))
    await ctx.background.start(`recovery of ${request.id}`, execute(ctx, request.id));
  for (const request of of('submitted')) schedulesOf(ctx).poll.delete(request.id);
  // Messages worked out under other groups say who counts as the policy says now (in the outbox, with the record).
  await recountChangedPolicy(ctx);
  // What the last run left in the outbox goes out now, and every open request's message is checked.
  const delivered = new Set((await ctx.requests.outbox.pending()).map((e) => e.requestId));
  await ctx.notices.delivery.resume();
  ctx.lastRefreshAt = ctx.clock.now();
  void ctx.background.start(
    'refresh of the request messages',
    refreshMessages(ctx, delivered).then(() => undefined),
  );
  return summary;
}
