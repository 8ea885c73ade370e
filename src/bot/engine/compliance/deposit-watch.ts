/**
 * The deposit watch: polls crypto deposits, reports each new one once (the event
 * `deposit.seen`), follows the ones still moving and reports each status or travel_rule_status
 * change once (`deposit.changed`). Every new deposit and change is audited, then persisted with its
 * notice in the watch's state (watch-state.ts), then handed to the desk's outbox, which delivers it
 * until Slack takes it: a restart neither misses nor repeats a deposit.
 *
 * The leader's scheduler calls `poll()` (engine/run-loop.ts runScheduled); overlapping calls share one run.
 */
import type { Deposit, ExchangePort } from '../../ports/exchange-port.js';
import type { AuditLog, KeyValueStore } from '../../ports/store.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { ComplianceNotices } from '../../ports/notifier.js';
import { depositKey } from '../../ports/events.js';
import { depositChanges, isStillMoving } from './deposit-status.js';
import {
  initialWatchState,
  loadWatchState,
  oldestFirst,
  saveWatchState,
  type OutboxEntry,
  type WatchState,
} from './watch-state.js';

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
}

export interface DepositWatchDeps {
  exchange: Pick<ExchangePort, 'cryptoDeposits' | 'limits'>;
  kv: KeyValueStore;
  audit: AuditLog;
  notices: ComplianceNotices;
  clock: Pick<Clock, 'now'>;
  logger: Logger;
}

export interface DepositPollSummary {
  /** Deposits seen for the first time this poll. */
  newDeposits: number;
  /** Status or travel_rule_status changes found this poll. */
  changes: number;
  /** Notices handed to the desk's outbox this poll (new, changed, and any a failed write left). */
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
  };
  for (const [name, value] of Object.entries(o)) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`deposit watch option ${name} must be a positive whole number, got ${value}`);
  }
  const { exchange, kv, audit, notices, clock, logger } = deps;
  let running: Promise<DepositPollSummary> | undefined;

  /**
   * Deposits with created_at in [from, to] (to: open when null), newest first as the exchange
   * lists them. One item more than the bound is asked for, so "exactly the bound" reads as complete.
   */
  async function walk(from: number, to: number | null): Promise<Walk> {
    const bound = o.pageSize * o.pagesPerWalk;
    const window = { createdAfter: Math.max(0, from - 1), ...(to !== null ? { createdBefore: to + 1 } : {}) };
    const items: Deposit[] = [];
    for await (const d of exchange.cryptoDeposits(window, {
      pageSize: o.pageSize,
      maxPages: o.pagesPerWalk + 1,
      maxItems: bound + 1,
    })) {
      // The filter is the exchange's; checked again so a looser server cannot make us repeat.
      if (d.createdAt >= from && (to === null || d.createdAt <= to)) items.push(d);
    }
    return { items, cut: items.length > bound };
  }

  /**
   * Hands the state's notices to the desk's outbox, then forgets them. A crash between the two
   * writes hands them over again (a notice repeated once, never lost); a failed write throws.
   */
  async function deliver(state: WatchState): Promise<number> {
    const entries = state.outbox;
    if (entries.length === 0) return 0;
    const at = clock.now();
    await notices.append(
      entries.map((e) => ({
        requestId: depositKey(e.deposit.transactionId),
        at,
        ...(e.kind === 'seen'
          ? { type: 'deposit.seen' as const, deposit: e.deposit }
          : { type: 'deposit.changed' as const, deposit: e.deposit, changes: e.changes }),
      })),
    );
    state.outbox = [];
    await saveWatchState(kv, state);
    return entries.length;
  }

  /** Read new deposits, walk by walk, until caught up or out of walks. */
  async function readNew(state: WatchState): Promise<{ fresh: number; caughtUp: boolean; delivered: number }> {
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
        state.outbox.push({ kind: 'seen', deposit: d });
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
      delivered += await deliver(state);
      if (stuck) {
        logger.error('more deposits share one created_at than one walk can read; raise pagesPerWalk', {
          createdAt: state.ceiling,
          bound: o.pageSize * o.pagesPerWalk,
        });
        return { fresh, caughtUp: false, delivered };
      }
      if (!cut && window === null) return { fresh, caughtUp: true, delivered };
    }
    return { fresh, caughtUp: false, delivered };
  }

  /** Re-read the tracked deposits' window and report what moved. */
  async function refreshTracked(state: WatchState): Promise<{ changes: number; delivered: number; cut: boolean }> {
    const now = clock.now();
    for (const [id, t] of Object.entries(state.tracked)) {
      if (now - t.deposit.createdAt > o.trackForMs) {
        logger.info('deposit no longer followed (too old)', {
          depositId: id,
          status: t.deposit.status,
          travelRuleStatus: t.deposit.travelRuleStatus,
        });
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
        await audit.append({
          type: 'deposit.changed',
          actor: 'exchange',
          data: { ...depositFacts(d), changes: moved },
        });
        state.outbox.push({ kind: 'changed', deposit: d, changes: moved });
        changes++;
      }
      if (isStillMoving(d)) state.tracked[d.id] = { ...before, deposit: d };
      else delete state.tracked[d.id];
    }
    const oldest = items.length > 0 ? Math.min(...items.map((d) => d.createdAt)) : to;
    state.refreshCeiling = cut && oldest < to ? oldest : null;
    await saveWatchState(kv, state);
    return { changes, delivered: await deliver(state), cut };
  }

  async function run(): Promise<DepositPollSummary> {
    const state = (await loadWatchState(kv)) ?? initialWatchState(clock.now() - o.initialLookbackMs);
    let delivered = await deliver(state);
    const fresh = await readNew(state);
    const refreshed = await refreshTracked(state);
    delivered += fresh.delivered + refreshed.delivered;
    return {
      newDeposits: fresh.fresh,
      changes: refreshed.changes,
      delivered,
      caughtUp: fresh.caughtUp && !refreshed.cut,
      tracked: Object.keys(state.tracked).length,
    };
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
