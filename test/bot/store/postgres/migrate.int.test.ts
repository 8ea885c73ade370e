/** Migrations at start, and what the PostgreSQL store refuses to work on. */
import pg from 'pg';
import { expect, it } from 'vitest';
import { StoreCorruptError } from '../../../../src/bot/store/errors.js';
import { openDatabase } from '../../../../src/bot/store/postgres/database.js';
import { migrate, pendingMigrations, SchemaMismatchError } from '../../../../src/bot/store/postgres/migrate.js';
import { MIGRATIONS } from '../../../../src/bot/store/postgres/migrations/index.js';
import { createPool } from '../../../../src/bot/store/postgres/pool.js';
import { openPgRepository } from '../../../../src/bot/store/postgres/repository.js';
import { describePostgres, usePostgres } from '../../../support/postgres.js';
import { isFinished, rec, TestRecordSchema } from '../support/records.js';

async function sql<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

const options = { name: 'requests', schema: TestRecordSchema, isFinished, version: 1 };

describePostgres('PostgreSQL schema and migrations', () => {
  const pg = usePostgres();

  it('tells the migrations still to come without applying any (npm run doctor), and refuses what migrate refuses', async () => {
    const url = await pg.cluster.createDatabase();
    const pool = createPool({ url, warn: () => {} });
    try {
      expect(await pendingMigrations(pool)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(await sql(url, "SELECT to_regclass('schema_migrations') AS t")).toEqual([{ t: null }]);
      await migrate(pool);
      expect(await pendingMigrations(pool)).toEqual([]);
      await sql(url, "UPDATE schema_migrations SET checksum = 'edited' WHERE version = $1", [MIGRATIONS[0]!.version]);
      await expect(pendingMigrations(pool)).rejects.toBeInstanceOf(SchemaMismatchError);
    } finally {
      await pool.end();
    }
  });

  it('applies every migration once when four processes start together on a new database', async () => {
    const url = await pg.cluster.createDatabase();
    const pools = Array.from({ length: 4 }, () => createPool({ url, warn: () => {} }));
    try {
      const applied = await Promise.all(pools.map((pool) => migrate(pool)));
      expect(applied.flat().sort()).toEqual(MIGRATIONS.map((m) => m.version));
      expect(applied.filter((a) => a.length > 0)).toHaveLength(1);
      const rows = await sql<{ version: number }>(url, 'SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(await migrate(pools[0]!)).toEqual([]);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  it('a failing migration leaves the database as it was (one transaction)', async () => {
    const url = await pg.cluster.createDatabase();
    const pool = createPool({ url, warn: () => {} });
    try {
      await expect(
        migrate(pool, [
          ...MIGRATIONS,
          { version: 99, name: 'broken', sql: 'CREATE TABLE extra (x int); SELECT no_such_function()' },
        ]),
      ).rejects.toThrow(/no_such_function/);
      expect(
        await sql(url, "SELECT 1 FROM pg_tables WHERE tablename IN ('records', 'extra', 'schema_migrations')"),
      ).toEqual([]);
    } finally {
      await pool.end();
    }
  });

  it('refuses a schema a newer build migrated, and a released migration that was edited', async () => {
    const url = await pg.cluster.createDatabase();
    await (await openDatabase({ url, warn: () => {} })).close();
    await sql(url, "INSERT INTO schema_migrations (version, name, checksum) VALUES (999, 'from the future', 'x')");
    await expect(openDatabase({ url, warn: () => {} })).rejects.toThrow(SchemaMismatchError);
    await expect(openDatabase({ url, warn: () => {} })).rejects.toThrow(
      /migration 999 \(from the future\), which this build does not know/,
    );
    await sql(
      url,
      "DELETE FROM schema_migrations WHERE version = 999; UPDATE schema_migrations SET checksum = 'edited' WHERE version = 1",
    );
    await expect(openDatabase({ url, warn: () => {} })).rejects.toThrow(
      /migration 1 \(initial\) in the database differs from this build's/,
    );
  });

  it('refuses records in another format version, and a row that does not match the schema, naming it', async () => {
    const url = await pg.cluster.createDatabase();
    const db = await openDatabase({ url, warn: () => {} });
    try {
      const repo = await openPgRepository(db, options);
      await repo.mutate('R1', () => ({ next: rec('R1'), result: null }));
      await expect(openPgRepository(db, { ...options, version: 2 })).rejects.toThrow(
        /the requests records are in format 1 \(this build reads format 2\)/,
      );
      await sql(url, `UPDATE records SET body = '{"id":"R1","state":"pending","count":"many"}' WHERE id = 'R1'`);
      await expect(repo.get('R1')).rejects.toThrow(StoreCorruptError);
      await expect(repo.get('R1')).rejects.toThrow(/id R1: the record does not match the schema: count/);
      await expect(openPgRepository(db, options)).rejects.toThrow(StoreCorruptError);
      // Refused, not overwritten: the row is as it was found.
      expect((await sql<{ body: unknown }>(url, "SELECT body FROM records WHERE id = 'R1'"))[0]?.body).toEqual({
        id: 'R1',
        state: 'pending',
        count: 'many',
      });
    } finally {
      await db.close();
    }
  });

  it('the audit_log table refuses changes and removals', async () => {
    const url = await pg.cluster.createDatabase();
    await (await openDatabase({ url, warn: () => {} })).close();
    await sql(url, "INSERT INTO audit_log (seq, line, hash, ts, type, actor) VALUES (1, '{}', 'h', now(), 't', 'a')");
    await expect(sql(url, 'UPDATE audit_log SET line = \'{"x":1}\'')).rejects.toThrow(/append-only: UPDATE refused/);
    await expect(sql(url, 'DELETE FROM audit_log')).rejects.toThrow(/append-only: DELETE refused/);
    await expect(sql(url, 'TRUNCATE audit_log')).rejects.toThrow(/append-only: TRUNCATE refused/);
  });
});
