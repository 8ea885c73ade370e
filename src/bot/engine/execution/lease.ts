/**
 * The execution lease (record `execution.lease`), decided without I/O: whether this replica may
 * drive a request now, and what it writes. The lease is claimed in the same write that sends or
 * looks (so it is stored before the exchange is called), renewed by its holder while the effect
 * is under way (lease-keeper.ts), and cleared by the write that records the outcome.
 *
 *   nobody holds it                          -> drive the request
 *   this replica holds it, and a fresh       -> drive it: this process holds the request's lock,
 *     observation comes (a tick, a person)      so no run of its own is under way; the one that
 *                                               claimed it stopped (its renewals failed, it threw)
 *   another replica holds it, not expired    -> leave it alone; the next tick looks again
 *   another replica held it, expired         -> take it over: `executing` goes to the
 *                                               unknown-outcome path (look on the exchange first)
 *   an effect's answer comes back and the    -> lost: record nothing over the new holder's work
 *     lease is no longer this replica's
 *
 * In `unknown` a lease only ever covers a look (reads): every send moves the request to
 * `executing` in the write that claims the lease. So an expired lease in `unknown` proves nothing
 * was sent under it.
 */
import type { DeskRequest, Lease } from '../../domain/record.js';

export type LeaseStanding =
  | { kind: 'free' }
  | { kind: 'mine'; lease: Lease }
  | { kind: 'held'; lease: Lease }
  | { kind: 'expired'; lease: Lease; expiredForMs: number };

/** Where `replica` stands with the request's lease at `now` (its own clock). */
export function leaseStanding(record: DeskRequest, replica: string, now: number): LeaseStanding {
  const lease = record.execution?.lease ?? null;
  if (lease === null) return { kind: 'free' };
  if (lease.holder === replica) return { kind: 'mine', lease };
  return lease.until > now ? { kind: 'held', lease } : { kind: 'expired', lease, expiredForMs: now - lease.until };
}

/** The lease `replica` writes when it claims or renews at `now`. */
export function leaseFor(replica: string, now: number, ttlMs: number): Lease {
  return { holder: replica, until: now + ttlMs };
}

/** Nobody claimed, took over, renewed or cleared the lease between the two reads. */
export function sameLease(a: DeskRequest, b: DeskRequest): boolean {
  const x = a.execution?.lease ?? null;
  const y = b.execution?.lease ?? null;
  return x === null || y === null ? x === y : x.holder === y.holder && x.until === y.until;
}
