// A list walk ("sweep") over the due requests' window that pauses when the budget runs out and resumes
// next cycle, so a sweep costs about requests / pageSize pages. In memory only; correctness never
// depends on it. docs/execution.md "Polling".
import { firstSentAt, type ExecutedRequest } from '../../domain/record.js';
import { untilOlderThan } from '../bounded-lists.js';
import type { EngineContext } from '../context.js';
import type { PolledKind, Sweep } from './poll-schedules.js';
import type { RemoteView } from './remote-changes.js';

/** Fetches nothing yet; the page cap covers the targets plus `maxPages` pages of others. Exchange errors are thrown. */
export function startSweep(ctx: EngineContext, kind: PolledKind, targets: readonly ExecutedRequest[]): Sweep {
  const { pageSize, maxPages } = ctx.config.poll;
  const cap = Math.ceil(targets.length / pageSize) + maxPages;
  const fetched = { count: 0 };
  const bounds = { pageSize, maxPages: cap, maxItems: cap * pageSize, onPage: () => void fetched.count++ };
  // The window of the targets only: a list that serves newest first cannot starve older ones.
  const sentAt = targets.map((r) => firstSentAt(r) ?? r.execution.submittedAt ?? 0);
  const window = {
    from: Math.max(0, Math.min(...sentAt) - ctx.config.clockSkewMs),
    to: Math.max(...targets.map((r) => r.execution.submittedAt ?? 0)) + ctx.config.clockSkewMs,
  };
  const views =
    kind === 'crypto_withdrawal'
      ? viewsOf(ctx.exchange.cryptoWithdrawals(window, bounds))
      : kind === 'trade'
        ? viewsOf(ctx.exchange.orders(window, bounds))
        : // No time filter on the fiat list: newest first, it ends past the window's start.
          viewsOf(untilOlderThan(ctx.exchange.fiatWithdrawals(bounds), window.from, (f) => f.createdAt));
  return {
    targets: new Map(targets.map((r) => [r.execution.exchangeId!, false])),
    reached: 0,
    items: 0,
    pages: 0,
    fetched,
    maxPages: cap,
    startedAt: ctx.clock.now(),
    iterator: views,
  };
}

/**
 * True when the sweep is over, false when the budget paused it. A short page fetched without a token
 * is paid on sight (a debt), so the budget holds whatever page sizes (docs/execution.md "Polling").
 */
export async function walk(
  ctx: EngineContext,
  sweep: Sweep,
  onPage: () => void,
  onView: (view: RemoteView) => Promise<void>,
): Promise<boolean> {
  const { pageSize } = ctx.config.poll;
  for (;;) {
    if (sweep.reached === sweep.targets.size) return true;
    if (sweep.items % pageSize === 0) {
      if (sweep.pages >= sweep.maxPages) return true;
      if (!ctx.pollBudget.tryTake()) return false;
      sweep.pages++;
      onPage();
    }
    const next = await sweep.iterator.next();
    for (; sweep.pages < sweep.fetched.count; sweep.pages++) {
      ctx.pollBudget.take();
      onPage();
    }
    if (next.done) return true;
    sweep.items++;
    const view = next.value;
    if (view === undefined) continue;
    if (sweep.targets.get(view.exchangeId) === false) {
      sweep.targets.set(view.exchangeId, true);
      sweep.reached++;
    }
    await onView(view);
  }
}

export function unreached(sweep: Sweep): string[] {
  return [...sweep.targets].filter(([, seen]) => !seen).map(([id]) => id);
}

/** Releases the list (a paused generator holds no connection, but may hold a cursor). */
export async function closeSweep(sweep: Sweep): Promise<void> {
  await sweep.iterator.return?.();
}

/** The list as a generator the sweep can pause and resume. */
async function* viewsOf(items: AsyncIterable<RemoteView>): AsyncGenerator<RemoteView, void, undefined> {
  yield* items;
}
