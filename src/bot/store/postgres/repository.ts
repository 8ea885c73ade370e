// The Repository port on PostgreSQL: `records` rows (history once finished_seq is set), outbox alongside.
// A mutate is one transaction: record lock, row FOR UPDATE, `fn`, record and events written, COMMIT,
// then the caller hears back. Same rules as the file store, held by one contract suite.
import type { Pool, PoolClient } from 'pg';
import type { z } from 'zod';
import { KeyedLock } from '../../domain/keyed-lock.js';
import type { Mutation, Outbox, Repository } from '../../ports/store.js';
import { StoreCorruptError } from '../errors.js';
import { check } from '../schema-check.js';
import type { Database } from './database.js';
import { InFlight } from './in-flight.js';
import { insertEvents, lockRecord, pgOutbox } from './outbox.js';
import { idempotent, transaction } from './pool.js';
import { DESK_LOCKS, SCOPE_LOCK } from './lock-keys.js';

export interface PgRepositoryOptions<R extends { id: string }> {
  /** The store's name (`requests`): its rows in `records` and `outbox` carry it. */
  name: string;
  /** Schema of one record: checked on every read and before every write; what it returns is stored. */
  schema: z.ZodType<R>;
  /** True for records that are done: they move to history and stay there. */
  isFinished: (record: R) => boolean;
  /** Format version of the records; a database holding another is refused. */
  version: number;
}

/** The Repository port plus close() for shutdown. */
export interface PgRepository<R extends { id: string }> extends Repository<R> {
  /** Waits for the operations under way, then refuses new ones (the database is closed by its owner). */
  close(): Promise<void>;
}

interface RecordRow {
  body: unknown;
  finished: boolean;
}

/** Records its format version on first use (refusing another later) and checks every live record (StoreCorruptError naming the row). */
export async function openPgRepository<R extends { id: string }>(
  db: Database,
  options: PgRepositoryOptions<R>,
): Promise<PgRepository<R>> {
  await idempotent(
    db.pool,
    'INSERT INTO store_formats (store, version) VALUES ($1, $2) ON CONFLICT (store) DO NOTHING',
    [options.name, options.version],
  );
  const [format] = await idempotent<{ version: number }>(
    db.pool,
    'SELECT version FROM store_formats WHERE store = $1',
    [options.name],
  );
  if (format?.version !== options.version) {
    throw new StoreCorruptError(
      `${db.where}, store_formats`,
      `the ${options.name} records are in format ${format?.version} (this build reads format ${options.version})`,
    );
  }
  const repo = new PostgresRepository(db, options);
  await repo.listLive();
  return repo;
}

class PostgresRepository<R extends { id: string }> implements PgRepository<R> {
  readonly outbox: Outbox;
  readonly #pool: Pool;
  readonly #where: string;
  readonly #options: PgRepositoryOptions<R>;
  readonly #inFlight: InFlight;
  // Mutates of one record queue here before taking a connection: a hot record then holds one
  // connection at a time, not the whole pool waiting on its lock.
  readonly #queues = new KeyedLock();

  constructor(db: Database, options: PgRepositoryOptions<R>) {
    this.#pool = db.pool;
    this.#where = `${db.where}, table records (${options.name})`;
    this.#options = options;
    this.#inFlight = new InFlight(this.#where);
    this.outbox = pgOutbox(db.pool, options.name, (work) => this.#inFlight.run(work));
  }

  get(id: string): Promise<R | undefined> {
    return this.#inFlight.run(async () => {
      const [row] = await idempotent<{ body: unknown }>(
        this.#pool,
        'SELECT body FROM records WHERE store = $1 AND id = $2',
        [this.#options.name, id],
      );
      return row === undefined ? undefined : this.#parse(id, row.body);
    });
  }

  listLive(): Promise<R[]> {
    return this.#inFlight.run(async () => {
      const rows = await idempotent<{ id: string; body: unknown }>(
        this.#pool,
        'SELECT id, body FROM records WHERE store = $1 AND finished_seq IS NULL ORDER BY position',
        [this.#options.name],
      );
      return rows.map((row) => this.#parse(row.id, row.body));
    });
  }

  recentHistory(limit: number): Promise<R[]> {
    return this.#inFlight.run(async () => {
      const rows = await idempotent<{ id: string; body: unknown }>(
        this.#pool,
        'SELECT id, body FROM records WHERE store = $1 AND finished_seq IS NOT NULL ORDER BY finished_seq DESC LIMIT $2',
        [this.#options.name, Math.max(0, Math.floor(limit))],
      );
      return rows.map((row) => this.#parse(row.id, row.body));
    });
  }

  mutate<T>(id: string, fn: (current: R | undefined) => Mutation<R, T>): Promise<T> {
    return this.#inFlight.run(() =>
      this.#queues.run(id, () => transaction(this.#pool, (client) => this.#mutate(client, id, fn))),
    );
  }

  /**
   * One transaction: the scope's lock (taken before the record's, always in this order), then the
   * records in scope read after it, so every commit of another mutateInScope is seen (READ COMMITTED
   * takes a new snapshot per statement).
   */
  mutateInScope<T>(
    scope: { since: number },
    id: string,
    fn: (current: R | undefined, others: readonly R[]) => Mutation<R, T>,
  ): Promise<T> {
    return this.#inFlight.run(() =>
      this.#queues.run(id, () =>
        transaction(this.#pool, async (client) => {
          await client.query('SELECT pg_advisory_xact_lock($1, $2)', [DESK_LOCKS, SCOPE_LOCK]);
          const rows = await rowsInScope(client, this.#options.name, scope, id);
          const others = rows.map((row) => this.#parse(row.id, row.body));
          return this.#mutate(client, id, (current) => fn(current, others));
        }),
      ),
    );
  }

  close(): Promise<void> {
    return this.#inFlight.close();
  }

  async #mutate<T>(client: PoolClient, id: string, fn: (current: R | undefined) => Mutation<R, T>): Promise<T> {
    const store = this.#options.name;
    await lockRecord(client, store, id);
    const { rows } = await client.query<RecordRow>(
      'SELECT body, finished_seq IS NOT NULL AS finished FROM records WHERE store = $1 AND id = $2 FOR UPDATE',
      [store, id],
    );
    const row = rows[0];
    const current = row === undefined ? undefined : this.#parse(id, row.body);
    const { next, result, outbox } = fn(current);
    const events = outbox ?? [];
    if (next !== undefined) await this.#write(client, id, next, row);
    await insertEvents(client, store, events);
    return result;
  }

  /** Writes `next` over `row` (absent: a new record), after the same refusals as the file store. */
  async #write(client: PoolClient, id: string, next: R, row: RecordRow | undefined): Promise<void> {
    const checked = check(this.#options.schema, next);
    if (!checked.ok)
      throw new Error(`refusing to store record ${id}: it does not match the schema: ${checked.problem}`);
    const record = checked.value;
    if (record.id !== id) throw new Error(`refusing to store record ${id}: the new record has id ${record.id}`);
    const finished = this.#options.isFinished(record);
    if (row?.finished && !finished) throw new Error(`refusing to reopen record ${id}: it is finished and in history`);
    // Every finished write takes the next history number: history lists the latest one first.
    const finishedSeq = finished ? "nextval('records_finished_seq')" : 'NULL';
    const values = [this.#options.name, id, JSON.stringify(record)];
    if (row === undefined) {
      await client.query(
        `INSERT INTO records (store, id, body, finished_seq) VALUES ($1, $2, $3::json, ${finishedSeq})`,
        values,
      );
    } else {
      await client.query(
        `UPDATE records SET body = $3::json, finished_seq = ${finishedSeq}, updated_at = now() WHERE store = $1 AND id = $2`,
        values,
      );
    }
  }

  #parse(id: string, body: unknown): R {
    const checked = check(this.#options.schema, body);
    if (!checked.ok)
      throw new StoreCorruptError(
        `${this.#where}, id ${id}`,
        `the record does not match the schema: ${checked.problem}`,
      );
    return checked.value;
  }
}

/** The rows of `store` in `scope` (live, or finished since), but `exceptId`: what mutateInScope and read-only tools see. */
export async function rowsInScope(
  client: PoolClient,
  store: string,
  scope: { since: number },
  exceptId = '',
): Promise<Array<{ id: string; body: unknown }>> {
  const { rows } = await client.query<{ id: string; body: unknown }>(
    `SELECT id, body FROM records WHERE store = $1 AND id <> $2
       AND (finished_seq IS NULL OR COALESCE((body->>'updatedAt')::bigint >= $3, true)) ORDER BY position`,
    [store, exceptId, Math.floor(scope.since)],
  );
  return rows;
}
