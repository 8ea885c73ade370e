/** Production ids: random UUIDs for idempotency keys, short unambiguous request ids people can type. */
import { randomInt, randomUUID } from 'node:crypto';
import type { Ids } from './ports.js';

// No 0/O, 1/I/L: a request id is read aloud and typed into `/desk status`.
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const LENGTH = 6;

export function createRandomIds(): Ids {
  return {
    uuid: () => randomUUID(),
    requestId: () => `R${Array.from({ length: LENGTH - 1 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')}`,
  };
}
