/**
 * Every open request has its message in Slack, as it is now: on start and every ten minutes, each
 * live request with nothing waiting in the outbox gets a `message.refresh`, which posts a missing
 * message (once) and updates one that no longer shows the record. It heals what no event would:
 * a message lost with an outbox written by an older version, or edited away in Slack.
 */
import { stamp, type EngineContext } from '../context.js';

export const REFRESH_EVERY_MS = 10 * 60_000;

export async function refreshMessages(ctx: EngineContext): Promise<number> {
  const waiting = new Set((await ctx.requests.outbox.pending()).map((e) => e.requestId));
  const events = (await ctx.requests.listLive()).filter((r) => !waiting.has(r.id)).map((r) => stamp(ctx, r, { type: 'message.refresh' }));
  if (events.length > 0) {
    await ctx.requests.outbox.append(events);
    ctx.notices.kick();
  }
  return events.length;
}
