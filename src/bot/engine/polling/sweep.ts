/**
 * A polling list walk ("sweep") that may span cycles. It is started for the requests of one kind
 * that are due, over the time window that holds them, and walked page by page while the polling
 * budget allows; when the budget runs out it pauses and the next cycle continues it from the same
 * place (the list's own cursor or page number, held in memory). So one full sweep costs about
 * ceil(requests / pageSize) pages however many cycles it takes, and none is read one by one just
 * because a cycle's budget ended. A sweep ends when it has seen every request it was started for,
 * when the list ends, or at its page cap; the requests it did not see are the ones the list
 * cannot reach, for single reads (poll.ts).
 *
 * Sweeps are in-memory scheduling: a restart forgets them and starts afresh; correctness never
 * depends on them (every status read is compared with the persisted last-reported values).
 */
import { firstSentAt, type ExecutedRequest } from '../../domain/record.js';
import { untilOlderThan } from '../bounded-lists.js';
import type { EngineContext } from '../context.js';
import type { PolledKind, Sweep } from './poll-schedules.js';
import type { RemoteView } from './remote-changes.js';

/**
 * Opens the list for `targets` (nothing is fetched yet). The page cap covers the targets plus
 * `maxPages` pages of other records in the window. Exchange errors are thrown.
 */
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
 * Walks on while the budget allows, handing every item to `onView`. A token is taken before each
 * page could be fetched (at every multiple of pageSize items), also the one after a full last
 * page that turns out not to exist: the count errs high by at most one per sweep. A list that
 * serves a short page before its last fetches where no token was taken; such a page is paid for
 * as soon as it is seen (TokenBucket.take, a debt the next cycle repays), so the budget holds
 * over time whatever page sizes the exchange serves. Returns true when the sweep is over, false
 * when the budget paused it. Exchange errors are thrown.
 */
export async function walk(ctx: EngineContext, sweep: Sweep, onPage: () => void, onView: (view: RemoteView) => Promise<void>): Promise<boolean> {
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

/** Exchange ids of the targets the sweep has not seen. */
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
