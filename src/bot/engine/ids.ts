/** Production ids: random UUIDs for idempotency keys, short unambiguous request ids people can type. */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Ids } from '../ports/ids.js';

// No 0/O, 1/I/L: a request id is read aloud and typed into `/desk status`.
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const LENGTH = 6;

export function createRandomIds(): Ids {
  return {
    uuid: () => randomUUID(),
    requestId: () => `R${Array.from({ length: LENGTH - 1 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')}`,
  };
}

/**
 * This process's identity among the replicas, as execution leases name it (record
 * `execution.lease.holder`): the host and pid say where to look, the random part keeps a restarted
 * process (same host, a reused pid) from ever passing for the one before it.
 */
export function createReplicaId(host: string = hostname()): string {
  const name = host.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 48) || 'host';
  return `${name}-${process.pid}-${randomBytes(4).toString('hex')}`;
}
