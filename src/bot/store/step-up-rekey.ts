// Key rotation for STEP_UP_ENCRYPTION_KEY: every sealed secret (enrollment and pending one) opened
// with the old key and sealed again with the new one, for its same user. A secret that already opens
// with the new key is left as it is, so a run cut short can simply be run again. Nothing is written
// unless every secret opens with one of the two keys.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { StepUpState } from '../domain/step-up/attempts.js';
import { openSecret, SealedSecretError, sealSecret } from '../domain/step-up/sealed-secret.js';
import { StoreCorruptError } from './errors.js';
import { openKeyValueStore } from './kv.js';
import { check } from './schema-check.js';
import { STEP_UP_KV_NAME, STEP_UP_STATE_SCHEMA } from './step-up.js';

export interface StepUpKeys {
  old: Uint8Array;
  next: Uint8Array;
}

export interface RekeyCounts {
  /** Users with a stored state. */
  users: number;
  /** Secrets sealed again with the new key. */
  resealed: number;
  /** Secrets that already opened with the new key (an earlier run), left as they are. */
  already: number;
  /** Where (never a password). */
  where: string;
}

/** Some secret opens with neither key: nothing was changed. */
export class RekeyRefusedError extends Error {
  override name = 'RekeyRefusedError';
}

const SEALED_FIELDS = ['enrollment', 'pending'] as const;

/**
 * The states with every secret under `keys.next`; only the changed users are returned. Throws
 * RekeyRefusedError naming the users (never a secret) whose secret opens with neither key.
 */
export function rekeyStates(
  states: ReadonlyMap<string, StepUpState>,
  keys: StepUpKeys,
): { changed: Map<string, StepUpState>; resealed: number; already: number } {
  const changed = new Map<string, StepUpState>();
  const unopened: string[] = [];
  let resealed = 0;
  let already = 0;
  for (const [userId, state] of states) {
    let next = state;
    for (const field of SEALED_FIELDS) {
      const held = state[field];
      if (held === undefined) continue;
      if (opens(keys.next, userId, held.sealed)) {
        already++;
        continue;
      }
      if (!opens(keys.old, userId, held.sealed)) {
        unopened.push(`${userId} (${field})`);
        continue;
      }
      const sealed = sealSecret(keys.next, userId, openSecret(keys.old, userId, held.sealed));
      next = { ...next, [field]: { ...held, sealed } };
      resealed++;
    }
    if (next !== state) changed.set(userId, next);
  }
  if (unopened.length > 0)
    throw new RekeyRefusedError(
      `${unopened.length} step-up secret(s) open with neither key: ${unopened.slice(0, 10).join(', ')}${unopened.length > 10 ? ', …' : ''}. ` +
        'Is STEP_UP_ENCRYPTION_KEY the key the bot ran with? Nothing was changed',
    );
  return { changed, resealed, already };
}

function opens(key: Uint8Array, userId: string, sealed: string): boolean {
  try {
    openSecret(key, userId, sealed);
    return true;
  } catch (err) {
    if (err instanceof SealedSecretError) return false;
    throw err;
  }
}

/** A stored state checked against its schema, or StoreCorruptError naming the user. */
export function checkedState(where: string, userId: string, value: unknown): StepUpState {
  const checked = check(STEP_UP_STATE_SCHEMA, value);
  if (!checked.ok)
    throw new StoreCorruptError(where, `the step-up state of ${userId} does not match the schema (${checked.problem})`);
  return checked.value;
}

/** step-up.json in `dataDir`, under its lock (a running bot holds it: refused). */
export async function rekeyFileStepUp(
  dataDir: string,
  keys: StepUpKeys,
  warn: (message: string) => void,
): Promise<RekeyCounts> {
  const file = join(dataDir, `${STEP_UP_KV_NAME}.json`);
  // Opening would create an empty one: a mistyped folder must not look like a desk with no enrollment.
  if (!existsSync(file))
    throw new StoreCorruptError(
      file,
      "there is no step-up store here (set --data-dir or DATA_DIR to the bot's data folder)",
    );
  const store = await openKeyValueStore({ dir: dataDir, name: STEP_UP_KV_NAME, warn });
  try {
    const states = new Map<string, StepUpState>();
    for (const userId of await store.keys(''))
      states.set(userId, checkedState(store.file, userId, await store.get(userId)));
    const { changed, resealed, already } = rekeyStates(states, keys);
    // Each user's write is durable on its own; a run cut short leaves some under the new key, which a
    // second run recognises (`already`).
    await Promise.all([...changed].map(([userId, state]) => store.set(userId, state)));
    return { users: states.size, resealed, already, where: store.file };
  } finally {
    await store.close();
  }
}
