// Key rotation on PostgreSQL: the step_up table re-sealed in one transaction (all or nothing), refused
// while a bot runs on the database (its leader holds the leadership lock).
import type { StepUpState } from '../../domain/step-up/attempts.js';
import { checkedState, rekeyStates, type RekeyCounts, type StepUpKeys } from '../step-up-rekey.js';
import { openDatabase } from './database.js';
import { DESK_LOCKS, LEADER_LOCK } from './lock-keys.js';
import { transaction } from './pool.js';

/** A bot runs on the database: nothing was changed. */
export class DatabaseInUseError extends Error {
  override name = 'DatabaseInUseError';
}

export async function rekeyPgStepUp(
  url: string,
  keys: StepUpKeys,
  warn: (message: string) => void,
): Promise<RekeyCounts> {
  const db = await openDatabase({ url, warn, maxConnections: 1 });
  try {
    return await transaction(db.pool, async (client) => {
      // Held until the commit: a replica cannot become leader meanwhile. A follower is not seen
      // here, which is why the README says to stop every replica first.
      const { rows: lock } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1, $2) AS got', [
        DESK_LOCKS,
        LEADER_LOCK,
      ]);
      if (!lock[0]?.got)
        throw new DatabaseInUseError(
          `a bot is running on ${db.where} (its leader holds the leadership lock); stop every replica, then run this again. Nothing was changed`,
        );
      // A null state is a first change's placeholder row (postgres/step-up.ts): no user state.
      const { rows } = await client.query<{ user_id: string; state: unknown }>(
        "SELECT user_id, state FROM step_up WHERE state <> 'null'::jsonb ORDER BY user_id FOR UPDATE",
      );
      const states = new Map<string, StepUpState>(
        rows.map((r) => [r.user_id, checkedState(`${db.where}, table step_up`, r.user_id, r.state)]),
      );
      const { changed, resealed, already } = rekeyStates(states, keys);
      for (const [userId, state] of changed)
        await client.query('UPDATE step_up SET state = $2::jsonb, updated_at = now() WHERE user_id = $1', [
          userId,
          JSON.stringify(state),
        ]);
      return { users: states.size, resealed, already, where: db.where };
    });
  } finally {
    await db.close();
  }
}
