// The policy's limits: how much of an asset requests executed or in flight (approved onwards) moved
// inside a rolling window, fees apart, and the room left. Decimal strings only.
import { add, cmp, gt, isZero, sub } from '../money.js';
import type { RequestRecord } from '../record-schema.js';
import { quantityCurrencyOf, type Snapshot } from '../request.js';
import type { RequestState } from '../state-machine.js';
import type { Limit, Policy } from './model.js';
import { assetOf } from './rules.js';

/** Approved onwards, while money may move or has moved; a failed request moved nothing and leaves the count. */
export const COUNTED_STATES: readonly RequestState[] = ['approved', 'executing', 'unknown', 'submitted', 'completed'];

/**
 * What a request counts under `limit`, in its asset, fees apart; undefined when the limit does not
 * cover it. A trade counts its base quantity when the quantity is in base; given in the counter
 * currency it is not counted in base (its base amount depends on the price it fills at).
 */
export function limitAmount(limit: Pick<Limit, 'match'>, snapshot: Snapshot): string | undefined {
  if (limit.match.kinds && !limit.match.kinds.includes(snapshot.kind)) return undefined;
  if (assetOf(snapshot) !== limit.match.asset) return undefined;
  switch (snapshot.kind) {
    case 'crypto_withdrawal':
    case 'fiat_withdrawal':
      return snapshot.amount;
    case 'trade':
      return quantityCurrencyOf(snapshot) === limit.match.asset ? snapshot.quantity : undefined;
    case 'bank_account_removal':
      return undefined;
  }
}

/** When a request entered the count: its last approval. */
function countedAt(record: RequestRecord): number | undefined {
  return record.execution?.approvedAt;
}

/** The sum a limit has used at `now`: requests approved onwards, approved inside the window. */
export function usedUnder(limit: Limit, records: readonly RequestRecord[], now: number): string {
  let used = '0';
  for (const r of records) {
    if (!COUNTED_STATES.includes(r.state)) continue;
    const at = countedAt(r);
    if (at === undefined || at <= now - limit.windowMs) continue;
    const amount = limitAmount(limit, r.snapshot);
    if (amount !== undefined) used = add(used, amount);
  }
  return used;
}

/** max − used, never below zero. */
export function roomLeft(limit: Pick<Limit, 'max'>, used: string): string {
  const room = sub(limit.max, used);
  return cmp(room, '0') < 0 ? '0' : room;
}

export interface LimitCheck {
  limit: Limit;
  used: string;
  room: string;
  /** What this request would add. */
  amount: string;
  /** True when the request does not fit in the room left. */
  over: boolean;
}

/** Each limit covering `snapshot`: what is used, the room left, and whether the request fits. */
export function checkLimits(
  policy: Pick<Policy, 'limits'>,
  snapshot: Snapshot,
  others: readonly RequestRecord[],
  now: number,
): LimitCheck[] {
  const checks: LimitCheck[] = [];
  for (const limit of policy.limits) {
    const amount = limitAmount(limit, snapshot);
    if (amount === undefined || isZero(amount)) continue;
    const used = usedUnder(limit, others, now);
    const room = roomLeft(limit, used);
    checks.push({ limit, used, room, amount, over: gt(amount, room) });
  }
  return checks;
}

/** The longest window: how far back a check must see finished records. */
export function longestWindow(policy: Pick<Policy, 'limits'>): number {
  return Math.max(0, ...policy.limits.map((l) => l.windowMs));
}
