/**
 * Step-up state over a key-value store, for the file store (one process holds its lock) and the
 * in-memory one in tests: one change per user at a time in this process is atomic there.
 * PostgreSQL, shared by replicas, has its own table and row locks (postgres/step-up.ts).
 */
import { z } from 'zod';
import type { StepUpState } from '../domain/step-up/attempts.js';
import { KeyedLock } from '../domain/keyed-lock.js';
import type { StepUpChange, StepUpStore } from '../ports/step-up.js';
import type { KeyValueStore } from '../ports/store.js';

/** The file store's name for it: step-up.json beside kv.json, so Slack's references never share its file. */
export const STEP_UP_KV_NAME = 'step-up';

const sealedAt = z.strictObject({ sealed: z.string().min(1), at: z.number().int().nonnegative() });

/** One user's stored state, as the operator tools (copy, key rotation) check it before carrying it. */
export const STEP_UP_STATE_SCHEMA = z.strictObject({
  enrollment: sealedAt.optional(),
  pending: sealedAt.optional(),
  lastStep: z.number().int().nonnegative(),
  wrong: z.number().int().nonnegative(),
  lockedUntil: z.number().int().nonnegative(),
}) satisfies z.ZodType<StepUpState>;

export function keyValueStepUpStore(kv: KeyValueStore): StepUpStore {
  const locks = new KeyedLock();
  return {
    get: (userId) => kv.get<StepUpState>(userId),
    change<T>(userId: string, fn: (current: StepUpState | undefined) => StepUpChange<T>): Promise<T> {
      return locks.run(userId, async () => {
        const { next, result } = fn(await kv.get<StepUpState>(userId));
        if (next !== undefined) await kv.set(userId, next ?? undefined);
        return result;
      });
    },
  };
}
