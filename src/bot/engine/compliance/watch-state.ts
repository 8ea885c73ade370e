/**
 * The deposit watch's position and memory, kept under one key of the KeyValueStore so every
 * change is one durable write:
 * - `after` and `seen`: every deposit created before `after` has been handled, and `seen` names
 *   the handled ones created at or after it (with their created_at). The exchange's
 *   `created_at_after` is exclusive and several deposits can share a millisecond, so the watch
 *   asks from `after - 1` and skips what `seen` names: nothing missed, nothing repeated.
 * - `ceiling`: after a walk cut short by its page bound (the list is newest first), the next walk
 *   covers only [after, ceiling] to reach the older deposits it could not see.
 * - `tracked`: deposits still moving (status or Travel Rule review), with their last known form.
 * - `outbox`: notices written with the position that found them, removed once handed to the desk's
 *   outbox (which delivers them).
 */
import { z } from 'zod';
import type { Deposit } from '../../ports/exchange-port.js';
import type { KeyValueStore } from '../../ports/store.js';
import type { DepositChanges } from '../../ports/events.js';

export const WATCH_STATE_KEY = 'compliance:deposit-watch';
/**
 * 3: notices carry no delivery attempts (the desk's outbox delivers them); 2 did. 2: deposits in the
 * port's terms; 1 kept the exchange's bodies. Older versions are upgraded at start (runtime/stored-value-upgrades.ts).
 */
export const WATCH_STATE_VERSION = 3;

const change = <T extends z.ZodType>(t: T) => z.strictObject({ from: t, to: t });
const depositChangesSchema = z.strictObject({
  status: change(z.string()).optional(),
  travelRuleStatus: change(z.string().nullable()).optional(),
});

const nullableString = z.string().nullable();
const deposit = z.strictObject({
  id: z.string(),
  transactionId: z.string(),
  createdAt: z.number().int(),
  status: z.string(),
  travelRuleStatus: nullableString,
  amount: nullableString,
  currency: z.strictObject({ code: z.string(), name: z.string() }).nullable(),
  toAddress: nullableString,
  transactionHash: nullableString,
  linkExplorer: nullableString,
  final: z.boolean(),
  needsDeclaration: z.boolean(),
  acceptsDeclaration: z.boolean(),
  reviewOpen: z.boolean(),
});

const outboxEntry = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('seen'), deposit }),
  z.strictObject({ kind: z.literal('changed'), deposit, changes: depositChangesSchema }),
]);

const trackedDeposit = z.strictObject({
  deposit,
  /** Our clock when the watch first saw it (ms). */
  firstSeenAt: z.number().int(),
});

export const watchStateSchema = z.strictObject({
  version: z.literal(WATCH_STATE_VERSION),
  after: z.number().int().nonnegative(),
  seen: z.record(z.string(), z.number().int()),
  ceiling: z.number().int().nullable(),
  tracked: z.record(z.string(), trackedDeposit),
  refreshCeiling: z.number().int().nullable(),
  outbox: z.array(outboxEntry),
});

export type WatchState = z.infer<typeof watchStateSchema>;
export type OutboxEntry = z.infer<typeof outboxEntry>;
export type TrackedDeposit = z.infer<typeof trackedDeposit>;

/** Compile-time checks: what is stored is the notifier's DepositChanges and the port's Deposit, both ways. */
const _sameChanges: (c: z.infer<typeof depositChangesSchema>) => DepositChanges = (c) => c;
const _sameDeposit: [(d: z.infer<typeof deposit>) => Deposit, (d: Deposit) => z.infer<typeof deposit>] = [
  (d) => d,
  (d) => d,
];
void _sameChanges;
void _sameDeposit;

/** The state of a watch that has never run: handle deposits created from `after` on. */
export function initialWatchState(after: number): WatchState {
  return {
    version: WATCH_STATE_VERSION,
    after: Math.max(0, Math.floor(after)),
    seen: {},
    ceiling: null,
    tracked: {},
    refreshCeiling: null,
    outbox: [],
  };
}

/** Thrown when the stored state cannot be read: starting over would report every deposit again. */
export class WatchStateError extends Error {
  override name = 'WatchStateError';
}

/** The stored state, or undefined on the first run. A state that does not parse throws. */
export async function loadWatchState(kv: KeyValueStore): Promise<WatchState | undefined> {
  const raw = await kv.get<unknown>(WATCH_STATE_KEY);
  if (raw === undefined) return undefined;
  const parsed = watchStateSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new WatchStateError(
      `stored deposit-watch state under "${WATCH_STATE_KEY}" is not readable (${issue?.path.join('.') || 'root'}: ${issue?.message}); fix or remove it deliberately`,
    );
  }
  return parsed.data;
}

export function saveWatchState(kv: KeyValueStore, state: WatchState): Promise<void> {
  return kv.set(WATCH_STATE_KEY, state);
}

/** Oldest first, ties by id: the order deposits are reported in. */
export function oldestFirst(a: Deposit, b: Deposit): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
