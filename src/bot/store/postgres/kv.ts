// Key-value rows on PostgreSQL: as in the file store, writes go through one group commit in call order.
// A prune judges and deletes with the rows locked, so another replica's concurrent set is judged or kept.
import type { PoolClient } from 'pg';
import { DEFAULT_KV_NAME, type DurableKeyValueStore } from '../kv.js';
import { GroupCommit } from '../group-commit.js';
import type { Database } from './database.js';
import { InFlight } from './in-flight.js';
import { DESK_LOCKS, KV_WRITES_LOCK } from './lock-keys.js';
import { idempotent, transaction } from './pool.js';

export interface PgKeyValueOptions {
  /** Store name (default `kv`, like the file store's kv.json). */
  name?: string;
}

/** json undefined: delete; onlyIfAbsent: a claim; `ifJson`: delete only where the row holds it. Resolves as the file store's. */
type Pending = (
  | { key: string; json: string | undefined; onlyIfAbsent: boolean; ifJson?: string }
  | { drop: (key: string, value: unknown) => boolean }
) & {
  resolve: (count: number) => void;
  reject: (reason: unknown) => void;
};

/** Values come back as JSON would; `set(key, undefined)` deletes. */
export function openPgKeyValueStore(db: Database, options: PgKeyValueOptions = {}): DurableKeyValueStore {
  const store = options.name ?? DEFAULT_KV_NAME;
  const { pool } = db;
  const inFlight = new InFlight(`${db.where}, table kv (${store})`);
  const commits = new GroupCommit<Pending>(async (items) => {
    let counts: Map<Pending, number>;
    try {
      counts = await transaction(pool, (client) => apply(client, store, items));
    } catch (err) {
      for (const item of items) item.reject(err);
      return;
    }
    for (const item of items) item.resolve(counts.get(item) ?? 0);
  });
  const enqueue = (item: Omit<Pending, 'resolve' | 'reject'>) =>
    inFlight.run(() => new Promise<number>((resolve, reject) => commits.add({ ...item, resolve, reject } as Pending)));
  return {
    get<T>(key: string): Promise<T | undefined> {
      return inFlight.run(async () => {
        const [row] = await idempotent<{ value: T }>(pool, 'SELECT value FROM kv WHERE store = $1 AND key = $2', [
          store,
          key,
        ]);
        return row?.value;
      });
    },
    async set<T>(key: string, value: T): Promise<void> {
      // As JSON now: a caller changing its object afterwards cannot change what is stored.
      await enqueue({ key, json: value === undefined ? undefined : JSON.stringify(value), onlyIfAbsent: false });
    },
    async setIfAbsent<T>(key: string, value: T): Promise<boolean> {
      // Judged in its turn among this process's writes, and by the row's primary key against every
      // other replica's: INSERT … ON CONFLICT DO NOTHING stores it only where no row is.
      return (await enqueue({ key, json: JSON.stringify(value), onlyIfAbsent: true })) === 1;
    },
    async deleteIf<T>(key: string, expected: T): Promise<boolean> {
      // Judged by the row itself in the DELETE: a value another replica wrote meanwhile stays.
      return (await enqueue({ key, json: undefined, onlyIfAbsent: false, ifJson: JSON.stringify(expected) })) === 1;
    },
    keys(prefix: string): Promise<string[]> {
      return inFlight.run(async () =>
        (
          await idempotent<{ key: string }>(
            pool,
            'SELECT key FROM kv WHERE store = $1 AND starts_with(key, $2) ORDER BY key',
            [store, prefix],
          )
        ).map((r) => r.key),
      );
    },
    prune(drop: (key: string, value: unknown) => boolean): Promise<number> {
      return enqueue({ drop });
    },
    close: () => inFlight.close(),
  };
}

/** The group's writes in call order, in the caller's transaction; what each counts (see Pending). */
async function apply(client: PoolClient, store: string, items: readonly Pending[]): Promise<Map<Pending, number>> {
  // One group at a time across replicas: groups writing the same keys in different orders would deadlock.
  await client.query('SELECT pg_advisory_xact_lock($1, $2)', [DESK_LOCKS, KV_WRITES_LOCK]);
  const counts = new Map<Pending, number>();
  for (const item of items) {
    if ('drop' in item) {
      const { rows } = await client.query<{ key: string; value: unknown }>(
        'SELECT key, value FROM kv WHERE store = $1 FOR UPDATE',
        [store],
      );
      const gone = rows.filter((row) => item.drop(row.key, row.value)).map((row) => row.key);
      if (gone.length > 0)
        await client.query('DELETE FROM kv WHERE store = $1 AND key = ANY($2::text[])', [store, gone]);
      counts.set(item, gone.length);
    } else if (item.onlyIfAbsent) {
      const { rowCount } = await client.query(
        'INSERT INTO kv (store, key, value) VALUES ($1, $2, $3::json) ON CONFLICT (store, key) DO NOTHING',
        [store, item.key, item.json],
      );
      counts.set(item, rowCount ?? 0);
    } else if (item.ifJson !== undefined) {
      // jsonb equality: the same JSON whatever the key order or spacing it was stored with.
      const { rowCount } = await client.query(
        'DELETE FROM kv WHERE store = $1 AND key = $2 AND value::jsonb = $3::jsonb',
        [store, item.key, item.ifJson],
      );
      counts.set(item, rowCount ?? 0);
    } else if (item.json === undefined) {
      await client.query('DELETE FROM kv WHERE store = $1 AND key = $2', [store, item.key]);
      counts.set(item, 1);
    } else {
      await client.query(
        'INSERT INTO kv (store, key, value) VALUES ($1, $2, $3::json) ON CONFLICT (store, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()',
        [store, item.key, item.json],
      );
      counts.set(item, 1);
    }
  }
  return counts;
}
