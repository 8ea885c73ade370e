// Whether this replica may drive a request now, without I/O: the lease is claimed in the write that sends
// or looks, so an expired one is taken over by looking first, never sending; in `unknown` it only covers
// looks. The table: docs/execution.md "The execution lease".
import type { RequestRecord, Lease } from '../../domain/record.js';

export type LeaseStanding =
  | { kind: 'free' }
  | { kind: 'mine'; lease: Lease }
  | { kind: 'held'; lease: Lease }
  | { kind: 'expired'; lease: Lease; expiredForMs: number };

/** Where `replica` stands with the request's lease at `now` (its own clock). */
export function leaseStanding(record: RequestRecord, replica: string, now: number): LeaseStanding {
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
export function sameLease(a: RequestRecord, b: RequestRecord): boolean {
  const x = a.execution?.lease ?? null;
  const y = b.execution?.lease ?? null;
  return x === null || y === null ? x === y : x.holder === y.holder && x.until === y.until;
}
