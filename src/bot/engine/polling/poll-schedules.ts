/**
 * Polling's own schedule: when each submitted request is read next, and the list walks under way.
 * In memory on purpose: it decides only how soon and how cheaply a status is read, never what is
 * true (every read is compared with the last-reported values persisted in the record), so a
 * restart that forgets it only reads everything once more. What decides correctness (retries,
 * looks after an unknown outcome) is a time in the record.
 */
import { perEngine } from '../context.js';
import type { RemoteView } from './remote-changes.js';

export const POLLED_KINDS = ['crypto_withdrawal', 'trade', 'fiat_withdrawal'] as const;
export type PolledKind = (typeof POLLED_KINDS)[number];

export interface Sweep {
  /** Exchange ids of the requests the sweep was started for -> seen by it yet. */
  readonly targets: Map<string, boolean>;
  reached: number;
  /** Items read so far: a new page is fetched at every multiple of pageSize. */
  items: number;
  /** Pages paid for (a token each). */
  pages: number;
  /** Pages the list really requested (ListOptions.onPage). */
  readonly fetched: { count: number };
  readonly maxPages: number;
  readonly startedAt: number;
  readonly iterator: AsyncIterator<RemoteView | undefined>;
}


/** When each submitted request is read next, the walks under way, and the cycle count. */
export interface PollSchedules {
  /**
   * `single`: a whole list walk did not reach it, so it is read on its own (until a list shows it again).
   * `notFound`: the single reads in a row the exchange answered 404, since when (poll.ts's bound).
   */
  poll: Map<string, { nextAt: number; intervalMs: number; single?: boolean; notFound?: { since: number; reads: number } }>;
  /** Per polled kind, the list walk under way: the next cycle continues it where the budget stopped it. */
  sweeps: Map<PolledKind, Sweep>;
  /** Polling cycles so far (which kind goes first). */
  pollCycle: number;
}

function newPollSchedules(): PollSchedules {
  return { poll: new Map(), sweeps: new Map(), pollCycle: 0 };
}

/** The engine's polling schedule. */
export const schedulesOf = perEngine(newPollSchedules);
