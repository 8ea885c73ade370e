/**
 * Every open request has its message in Slack, as it is now: on start and every ten minutes, each
 * live request with nothing waiting in the outbox is handed to the notifier as `message.refresh`,
 * which posts a missing message (once) and updates one that no longer shows the record (it keeps
 * a digest of what it sent, so an unchanged message costs no Slack call). It heals what no event
 * would: a message whose event an older version lost, or one edited away in Slack. Not written to
 * the outbox: it is derived from the records, and the next refresh does it again if Slack fails.
 */
import { errorText } from '../../domain/error-text.js';
import { isReminderEvent } from '../../ports/events.js';
import { stamp, type EngineContext } from '../context.js';

export const REFRESH_EVERY_MS = 10 * 60_000;

/** The pass running per engine: Slack can slow one past its ten minutes, and two would double every call. */
const running = new WeakMap<EngineContext, Promise<number>>();

/**
 * `skip`: requests whose events were just delivered (their message is as fresh as it gets).
 * While a pass runs, another call joins it instead of starting a second one.
 */
export function refreshMessages(ctx: EngineContext, skip: ReadonlySet<string> = new Set()): Promise<number> {
  const current = running.get(ctx);
  if (current) return current;
  const pass = refreshAll(ctx, skip).finally(() => running.delete(ctx));
  running.set(ctx, pass);
  return pass;
}

async function refreshAll(ctx: EngineContext, skip: ReadonlySet<string>): Promise<number> {
  // A reminder in the outbox does not touch the message: its request is refreshed like any other.
  const updating = (await ctx.requests.outbox.pending()).filter((e) => !isReminderEvent(e.event));
  const waiting = new Set([...skip, ...updating.map((e) => e.requestId)]);
  let refreshed = 0;
  // One record read at a time: a desk with thousands open keeps no copy of all of them meanwhile.
  const ids = (await ctx.requests.listLive()).map((r) => r.id).filter((id) => !waiting.has(id));
  for (const id of ids) {
    const request = await ctx.requests.get(id);
    if (request === undefined) continue;
    try {
      await ctx.notifier.notify(stamp(ctx, request, { type: 'message.refresh' }));
      refreshed++;
    } catch (err) {
      ctx.logger.warn('request message not refreshed; the next refresh tries again', {
        requestId: request.id,
        error: errorText(err),
      });
    }
  }
  return refreshed;
}
