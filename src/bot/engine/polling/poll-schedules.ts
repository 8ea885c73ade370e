// When each submitted request is read next, and the walks under way. In memory on purpose: it decides
// only how soon a status is read, never what is true, so a restart only reads everything once more.
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
  /** `single`: no list walk reached it, read alone until one does; `notFound`: consecutive 404s since when (poll.ts's bound). */
  poll: Map<
    string,
    { nextAt: number; intervalMs: number; single?: boolean; notFound?: { since: number; reads: number } }
  >;
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
