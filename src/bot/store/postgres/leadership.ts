// Leadership on PostgreSQL: the session holding the advisory lock is leader. It steps down within 2P of
// its last good check, the server drops a cut-off session after 5P, a follower takes over within P
// (6P if cut off). Timing argument: docs/store.md "Leadership on PostgreSQL". PostgreSQL 14+.
import pg from 'pg';
import { LeadershipState, type Leadership } from '../../ports/leadership.js';
import { connectionProblem } from './errors.js';
import { DESK_LOCKS, LEADER_LOCK } from './lock-keys.js';

export const DEFAULT_LEADERSHIP_POLL_MS = 2_000;

export interface PgLeadershipOptions {
  url: string;
  /** A lost session or a failed attempt (said once until it works again). */
  warn: (message: string) => void;
  pollMs?: number;
}

/** The Leadership port plus close(), which lets go of the lock (another replica takes over within a poll). */
export interface PgLeadership extends Leadership {
  close(): Promise<void>;
}

/** Starts the election; resolves after the first attempt, so the role at start is known. */
export async function openPgLeadership(options: PgLeadershipOptions): Promise<PgLeadership> {
  const pollMs = options.pollMs ?? DEFAULT_LEADERSHIP_POLL_MS;
  const state = new LeadershipState('follower');
  let client: pg.Client | undefined;
  let failing = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const drop = (why: unknown) => {
    state.set('follower');
    const lost = client;
    client = undefined;
    // Not awaited: on a cut-off network, ending politely would wait for an answer that never comes.
    void lost?.end().catch(() => {});
    if (!failing)
      options.warn(
        `leadership: the database session for the leader's lock failed (${connectionProblem(why)}); this replica is a follower until it holds the lock again`,
      );
    failing = true;
  };

  const connect = async (): Promise<pg.Client> => {
    const fresh = new pg.Client({
      connectionString: options.url,
      application_name: 'desk-bot leadership',
      connectionTimeoutMillis: pollMs,
      query_timeout: pollMs,
      options: `-c idle_session_timeout=${5 * pollMs}`,
      keepAlive: true,
    });
    // An error between two polls (the server ended the session) must not end the process.
    fresh.on('error', (err) => {
      if (client === fresh) drop(err);
    });
    try {
      await fresh.connect();
    } catch (err) {
      void fresh.end().catch(() => {});
      throw err;
    }
    return fresh;
  };

  const attempt = async () => {
    try {
      client ??= await connect();
      const held = state.isLeader()
        ? await client.query<{ held: boolean }>(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND classid = $1 AND objid = $2 AND objsubid = 2 AND granted) AS held",
            [DESK_LOCKS, LEADER_LOCK],
          )
        : await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS held', [
            DESK_LOCKS,
            LEADER_LOCK,
          ]);
      failing = false;
      if (!closed) state.set(held.rows[0]?.held ? 'leader' : 'follower');
    } catch (err) {
      drop(err);
    }
  };

  const loop = async () => {
    await attempt();
    if (!closed) timer = setTimeout(() => void loop(), pollMs).unref();
  };
  await loop();

  return {
    isLeader: () => state.isLeader(),
    role: () => state.role(),
    onChange: (listener) => state.onChange(listener),
    async close() {
      closed = true;
      clearTimeout(timer);
      state.set('follower');
      const last = client;
      client = undefined;
      // Ending the session releases the lock; bounded, so a cut-off network cannot hold up a stop.
      if (last)
        await Promise.race([last.end().catch(() => {}), new Promise((resolve) => setTimeout(resolve, pollMs).unref())]);
    },
  };
}
