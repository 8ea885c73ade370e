// A repository's outbox rows; events are inserted in their record change's transaction (repository.ts).
// Per-request order is seq order: each insert holds that request's record lock, so seqs follow commits.
import type { PoolClient, Pool } from 'pg';
import type { Outbox, OutboxChanges, OutboxEntry } from '../../ports/store.js';
import type { OutboxEvent } from '../../ports/events.js';
import { RECORD_LOCKS } from './lock-keys.js';
import { idempotent, transaction } from './pool.js';

interface OutboxRow {
  seq: string;
  request_id: string;
  event: OutboxEvent;
  attempts: number;
  next_at: string;
  last_error: string | null;
  permanent: boolean;
  failing_since: string | null;
  done: string[];
}

/** The columns OutboxChanges may set, by field. */
const COLUMNS: Record<keyof OutboxChanges, string> = {
  attempts: 'attempts',
  nextAt: 'next_at',
  lastError: 'last_error',
  permanent: 'permanent',
  failingSince: 'failing_since',
  done: 'done',
};

/** Takes the record lock of `id` in `store` until the transaction ends (mutate and append both do). */
export async function lockRecord(client: PoolClient, store: string, id: string): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2 || '/' || $3))", [RECORD_LOCKS, store, id]);
}

/** Inserts `events` in order (one statement; seqs follow the order given). The caller holds their requests' locks. */
export async function insertEvents(client: PoolClient, store: string, events: readonly OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  await client.query(
    `INSERT INTO outbox (store, request_id, event)
     SELECT $1, e.request_id, e.event::json FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS e(request_id, event, n) ORDER BY e.n`,
    [store, events.map((e) => e.requestId), events.map((e) => JSON.stringify(e))],
  );
}

export function pgOutbox(pool: Pool, store: string, guard: <T>(work: () => Promise<T>) => Promise<T>): Outbox {
  return {
    pending: () =>
      guard(async () =>
        (await idempotent<OutboxRow>(pool, 'SELECT * FROM outbox WHERE store = $1 ORDER BY seq', [store])).map(toEntry),
      ),
    append: (events) =>
      guard(() =>
        transaction(pool, async (client) => {
          // Sorted, so two appends naming the same requests cannot wait on each other in a circle.
          for (const id of [...new Set(events.map((e) => e.requestId))].sort()) await lockRecord(client, store, id);
          await insertEvents(client, store, events);
        }),
      ),
    update: (seq, changes) =>
      guard(async () => {
        const set = (Object.keys(COLUMNS) as (keyof OutboxChanges)[]).filter((field) => changes[field] !== undefined);
        if (set.length === 0) return;
        const values = set.map((field) => (field === 'done' ? JSON.stringify(changes.done) : changes[field]));
        const assignments = set.map((field, i) => `${COLUMNS[field]} = $${i + 3}`).join(', ');
        await idempotent(pool, `UPDATE outbox SET ${assignments} WHERE store = $1 AND seq = $2`, [
          store,
          seq,
          ...values,
        ]);
      }),
    remove: (seq) =>
      guard(async () => {
        await idempotent(pool, 'DELETE FROM outbox WHERE store = $1 AND seq = $2', [store, seq]);
      }),
  };
}

function toEntry(row: OutboxRow): OutboxEntry {
  return {
    seq: Number(row.seq),
    requestId: row.request_id,
    event: row.event,
    attempts: row.attempts,
    nextAt: Number(row.next_at),
    lastError: row.last_error,
    permanent: row.permanent,
    failingSince: row.failing_since === null ? null : Number(row.failing_since),
    done: row.done,
  };
}
