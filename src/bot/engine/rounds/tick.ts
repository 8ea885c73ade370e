/**
 * One turn of the clock: expire what waited too long, settle what is in doubt (reconcile comes
 * before anything else), execute what is approved and due, poll what is submitted, then remind
 * approvers of what still waits for them.
 */
import { refreshMessages, REFRESH_EVERY_MS } from '../notices/refresh-messages.js';
import type { RequestRecord } from '../../domain/record.js';
import type { EngineContext } from '../context.js';
import { execute } from '../execution/runner.js';
import { expireDue } from '../approval/expire.js';
import { recount, recountEndedActingDelegates } from '../approval/recount.js';
import { pollDue, type PollSummary } from '../polling/poll.js';
import { remindDue } from '../reminders/remind.js';

export interface TickSummary extends PollSummary {
  expired: number;
  /** Requests driven (reconciled or executed) this tick. */
  driven: number;
}

export async function tick(ctx: EngineContext): Promise<TickSummary> {
  const live = await ctx.requests.listLive();
  const expired = await expireDue(ctx, live);
  const inDoubt = await driveAll(
    ctx,
    live.filter((r) => r.state === 'executing' || r.state === 'unknown'),
  );
  const approved = await driveAll(
    ctx,
    live.filter((r) => r.state === 'approved'),
  );
  const current = await ctx.requests.listLive();
  const polled = await pollDue(ctx, current);
  // After the money's steps: a slow store read for a nudge never delays an execution.
  await remindDue(ctx, current);
  // A delegation that ended takes its delegate off the messages that named them.
  await recountEndedActingDelegates(ctx, current);
  // Messages Slack refused earlier, whose next try has come; and now and then every open message,
  // after working out again who counts (a new round, a delegation changed on a replica that stopped).
  if (ctx.clock.now() - ctx.lastRefreshAt >= REFRESH_EVERY_MS) {
    ctx.lastRefreshAt = ctx.clock.now();
    await recount(ctx);
    void ctx.background.start(
      'refresh of the request messages',
      refreshMessages(ctx).then(() => undefined),
    );
  }
  ctx.notices.kick();
  return { expired, driven: inDoubt + approved, ...polled };
}

/** Drives every request nobody is driving already; their failures are logged, not thrown. */
async function driveAll(ctx: EngineContext, requests: RequestRecord[]): Promise<number> {
  const free = requests.filter((r) => !ctx.requestLocks.isBusy(r.id));
  await Promise.all(free.map((r) => ctx.background.start(`drive ${r.id}`, execute(ctx, r.id))));
  return free.length;
}
