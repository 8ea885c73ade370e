// Step-up state on PostgreSQL: one row per user, changed under its row lock (SELECT … FOR UPDATE in
// one transaction), so two replicas judging codes of one user take turns and see each other's step.
import type { StepUpState } from '../../domain/step-up/attempts.js';
import type { StepUpChange, StepUpStore } from '../../ports/step-up.js';
import type { Database } from './database.js';
import { InFlight } from './in-flight.js';
import { idempotent, transaction } from './pool.js';

export function openPgStepUpStore(db: Database): StepUpStore & { close(): Promise<void> } {
  const { pool } = db;
  const inFlight = new InFlight(`${db.where}, table step_up`);
  return {
    get(userId) {
      return inFlight.run(async () => {
        const [row] = await idempotent<{ state: StepUpState | null }>(
          pool,
          'SELECT state FROM step_up WHERE user_id = $1',
          [userId],
        );
        return row?.state ?? undefined;
      });
    },
    change<T>(userId: string, fn: (current: StepUpState | undefined) => StepUpChange<T>): Promise<T> {
      return inFlight.run(() =>
        transaction(pool, async (client) => {
          // A first change of a user has no row to lock: a placeholder row makes one (its null
          // state reads as none), and a replica inserting at the same time waits for this one.
          await client.query(
            "INSERT INTO step_up (user_id, state) VALUES ($1, 'null'::jsonb) ON CONFLICT (user_id) DO NOTHING",
            [userId],
          );
          const { rows } = await client.query<{ state: StepUpState | null }>(
            'SELECT state FROM step_up WHERE user_id = $1 FOR UPDATE',
            [userId],
          );
          const { next, result } = fn(rows[0]?.state ?? undefined);
          if (next === null) await client.query('DELETE FROM step_up WHERE user_id = $1', [userId]);
          else if (next !== undefined)
            await client.query('UPDATE step_up SET state = $2::jsonb, updated_at = now() WHERE user_id = $1', [
              userId,
              JSON.stringify(next),
            ]);
          return result;
        }),
      );
    },
    close: () => inFlight.close(),
  };
}
