/**
 * The deposit watch: polls crypto deposits, reports each new one once (the event
 * `deposit.seen`), follows the ones still moving and reports each status or travel_rule_status
 * change once (`deposit.changed`). Every new deposit and change is audited, then persisted with its
 * notification in the outbox (watch-state.ts), then delivered: a restart neither misses nor
 * repeats a deposit, and a notifier that fails is tried again on the next poll.
 *
 * Call `poll()` on an interval (main.ts); overlapping calls share one run.
 */
import type { Deposit, ExchangePort } from '../../ports/exchange-port.js';
import type { AuditLog, KeyValueStore } from '../../ports/store.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import { depositChanges, isStillMoving } from './deposit-status.js';
import type { ComplianceNotifier } from '../../ports/compliance-events.js';
import { initialWatchState, loadWatchState, oldestFirst, saveWatchState, type OutboxEntry, type WatchState } from './watch-state.js';
import { errorText } from '../../domain/error-text.js';

const HOUR = 3_600_000;

export interface DepositWatchOptions {
  /** First run only: deposits created this long before the start are reported too. Default 24 h. */
  initialLookbackMs?: number;
  /** page[size] asked for. Default MAX_PAGE_SIZE (100). */
  pageSize?: number;
  /** Pages one walk reads before it counts as cut short. Default 5. */
  pagesPerWalk?: number;
  /** Walks one poll may make while catching up on new deposits. Default 4. */
  walksPerPoll?: number;
  /** A deposit still moving after this long (from its created_at) is no longer followed. Default 30 days. */
  trackForMs?: number;
  /**
   * A notification that failed this many times in a row is dropped (logged and audited), so one
   * that Slack will never take cannot hold the others back for ever. Default 60 (ten minutes of
   * a Slack outage at a 10 s interval).
   */
  maxDeliveryAttempts?: number;
}

export interface DepositWatchDeps {
  exchange: Pick<ExchangePort, 'cryptoDeposits' | 'limits'>;
  kv: KeyValueStore;
  audit: AuditLog;
  notifier: ComplianceNotifier;
  clock: Pick<Clock, 'now'>;
  logger: Logger;
}

export interface DepositPollSummary {
  /** Deposits seen for the first time this poll. */
  newDeposits: number;
  /** Status or travel_rule_status changes found this poll. */
  changes: number;
  /** Notifications delivered this poll (new, changed, and earlier ones left in the outbox). */
  delivered: number;
  /** False when the page bound cut a walk short: the next poll goes on from there. */
  caughtUp: boolean;
  /** Deposits still followed for changes. */
  tracked: number;
}

export interface DepositWatch {
  /** One round: deliver what is pending, read new deposits, re-read the tracked ones. */
  poll(): Promise<DepositPollSummary>;
}

interface Walk {
  items: Deposit[];
  /** The bound was reached: older deposits in the window may be unread. */
  cut: boolean;
}

/** Build the watch over its ports. */
export function createDepositWatch(deps: DepositWatchDeps, options: DepositWatchOptions = {}): DepositWatch {
  const o = {
    initialLookbackMs: options.initialLookbackMs ?? 24 * HOUR,
    pageSize: Math.min(options.pageSize ?? deps.exchange.limits.maxPageSize, deps.exchange.limits.maxPageSize),
    pagesPerWalk: options.pagesPerWalk ?? 5,
    walksPerPoll: options.walksPerPoll ?? 4,
    trackForMs: options.trackForMs ?? 30 * 24 * HOUR,
    maxDeliveryAttempts: options.maxDeliveryAttempts ?? 60,
  };
  for (const [name, value] of Object.entries(o)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`deposit watch option ${name} must be a positive whole number, got ${value}`);
  }
  const { exchange, kv, audit, notifier, clock, logger } = deps;
  let running: Promise<DepositPollSummary> | undefined;

  /**
   * Deposits with created_at in [from, to] (to: open when null), newest first as the exchange
   * lists them. One item more than the bound is asked for, so "exactly the bound" reads as complete.
   */
  async function walk(from: number, to: number | null): Promise<Walk> {
    const bound = o.pageSize * o.pagesPerWalk;
    const window = { createdAfter: Math.max(0, from - 1), ...(to !== null ? { createdBefore: to + 1 } : {}) };
    const items: Deposit[] = [];
    for await (const d of exchange.cryptoDeposits(window, { pageSize: o.pageSize, maxPages: o.pagesPerWalk + 1, maxItems: bound + 1 })) {
      // The filter is the exchange's; checked again so a looser server cannot make us repeat.
      if (d.createdAt >= from && (to === null || d.createdAt <= to)) items.push(d);
    }
    return { items, cut: items.length > bound };
  }

  /** Deliver the outbox in order; after a failure, nothing more this poll (order is kept). */
  async function deliver(state: WatchState, run: { blocked: boolean }): Promise<number> {
    let delivered = 0;
    while (state.outbox.length > 0 && !run.blocked) {
      const entry = state.outbox[0]!;
      try {
        await notifier.notify(entry.kind === 'seen' ? { type: 'deposit.seen', deposit: entry.deposit } : { type: 'deposit.changed', deposit: entry.deposit, changes: entry.changes });
        state.outbox.shift();
        delivered++;
      } catch (err) {
        entry.attempts++;
        const message = errorText(err);
        if (entry.attempts < o.maxDeliveryAttempts) {
          logger.warn('deposit notification failed; will retry next poll', { depositId: entry.deposit.id, kind: entry.kind, attempts: entry.attempts, error: message });
          await saveWatchState(kv, state);
          run.blocked = true;
          return delivered;
        }
        logger.error('deposit notification failed too often; dropped', { depositId: entry.deposit.id, kind: entry.kind, attempts: entry.attempts, error: message });
        await audit.append({ type: 'deposit.notify_failed', actor: 'system', data: { depositId: entry.deposit.id, transactionId: entry.deposit.transactionId, kind: entry.kind, attempts: entry.attempts, error: message } });
        state.outbox.shift();
      }
      // Marked delivered at once: a restart repeats at most the one call in flight.
      await saveWatchState(kv, state);
    }
    return delivered;
  }

  /** Read new deposits, walk by walk, until caught up or out of walks. */
  async function readNew(state: WatchState, run: { blocked: boolean }): Promise<{ fresh: number; caughtUp: boolean; delivered: number }> {
    let fresh = 0;
    let delivered = 0;
    for (let i = 0; i < o.walksPerPoll; i++) {
      const window = state.ceiling;
      const { items, cut } = await walk(state.after, window);
      const found = items.filter((d) => state.seen[d.id] === undefined).sort(oldestFirst);
      // De-duplicate within one walk too (an item repeated across pages).
      const unique = found.filter((d, k) => found.findIndex((x) => x.id === d.id) === k);
      for (const d of unique) {
        await audit.append({ type: 'deposit.seen', actor: 'exchange', data: depositFacts(d) });
        state.seen[d.id] = d.createdAt;
        if (isStillMoving(d)) state.tracked[d.id] = { deposit: d, firstSeenAt: clock.now() };
        state.outbox.push({ kind: 'seen', deposit: d, attempts: 0 });
      }
      fresh += unique.length;
      let stuck = false;
      if (cut) {
        const oldest = Math.min(...items.map((d) => d.createdAt));
        stuck = window !== null && oldest >= window;
        state.ceiling = oldest;
      } else {
        const newest = items.length > 0 ? Math.max(...items.map((d) => d.createdAt)) : state.after;
        state.after = window !== null ? window : Math.max(state.after, newest);
        state.ceiling = null;
        state.seen = Object.fromEntries(Object.entries(state.seen).filter(([, at]) => at >= state.after));
      }
      await saveWatchState(kv, state);
      delivered += await deliver(state, run);
      if (stuck) {
        logger.error('more deposits share one created_at than one walk can read; raise pagesPerWalk', { createdAt: state.ceiling, bound: o.pageSize * o.pagesPerWalk });
        return { fresh, caughtUp: false, delivered };
      }
      if (!cut && window === null) return { fresh, caughtUp: true, delivered };
    }
    return { fresh, caughtUp: false, delivered };
  }

  /** Re-read the tracked deposits' window and report what moved. */
  async function refreshTracked(state: WatchState, run: { blocked: boolean }): Promise<{ changes: number; delivered: number; cut: boolean }> {
    const now = clock.now();
    for (const [id, t] of Object.entries(state.tracked)) {
      if (now - t.deposit.createdAt > o.trackForMs) {
        logger.info('deposit no longer followed (too old)', { depositId: id, status: t.deposit.status, travelRuleStatus: t.deposit.travelRuleStatus });
        delete state.tracked[id];
      }
    }
    const tracked = Object.values(state.tracked);
    if (tracked.length === 0) {
      state.refreshCeiling = null;
      return { changes: 0, delivered: 0, cut: false };
    }
    const from = Math.min(...tracked.map((t) => t.deposit.createdAt));
    const to = state.refreshCeiling ?? Math.max(...tracked.map((t) => t.deposit.createdAt));
    const { items, cut } = await walk(from, to);
    let changes = 0;
    for (const d of [...items].sort(oldestFirst)) {
      const before = state.tracked[d.id];
      if (!before) continue;
      const moved = depositChanges(before.deposit, d);
      if (moved) {
        await audit.append({ type: 'deposit.changed', actor: 'exchange', data: { ...depositFacts(d), changes: moved } });
        state.outbox.push({ kind: 'changed', deposit: d, changes: moved, attempts: 0 });
        changes++;
      }
      if (isStillMoving(d)) state.tracked[d.id] = { ...before, deposit: d };
      else delete state.tracked[d.id];
    }
    const oldest = items.length > 0 ? Math.min(...items.map((d) => d.createdAt)) : to;
    state.refreshCeiling = cut && oldest < to ? oldest : null;
    await saveWatchState(kv, state);
    return { changes, delivered: await deliver(state, run), cut };
  }

  async function run(): Promise<DepositPollSummary> {
    const state = (await loadWatchState(kv)) ?? initialWatchState(clock.now() - o.initialLookbackMs);
    const run = { blocked: false };
    let delivered = await deliver(state, run);
    const fresh = await readNew(state, run);
    const refreshed = await refreshTracked(state, run);
    delivered += fresh.delivered + refreshed.delivered;
    return { newDeposits: fresh.fresh, changes: refreshed.changes, delivered, caughtUp: fresh.caughtUp && !refreshed.cut, tracked: Object.keys(state.tracked).length };
  }

  return {
    poll() {
      running ??= run().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}

/** What the audit keeps of a deposit: the facts, never more than the exchange listed. */
function depositFacts(d: Deposit): Record<string, unknown> {
  return {
    depositId: d.id,
    transactionId: d.transactionId,
    asset: d.currency?.code ?? null,
    amount: d.amount,
    toAddress: d.toAddress,
    transactionHash: d.transactionHash,
    status: d.status,
    travelRuleStatus: d.travelRuleStatus,
    createdAt: d.createdAt,
  };
}

export type { OutboxEntry };
