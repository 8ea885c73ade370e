// Brings the schema to this build's at start, in one transaction under an advisory lock (concurrent
// starts queue). Each step is recorded with its SQL's checksum, so an edited migration or a newer
// schema is refused, not guessed at.
import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { DESK_LOCKS, MIGRATIONS_LOCK } from './lock-keys.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';
import { transaction } from './pool.js';

/** The database cannot be used by this build as it is. */
export class SchemaMismatchError extends Error {
  override name = 'SchemaMismatchError';
}

/** Applies the missing migrations; resolves with the versions this call applied (often none). */
export async function migrate(pool: Pool, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return transaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [DESK_LOCKS, MIGRATIONS_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      checksum   text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<AppliedRow>(
      'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
    );
    const done: number[] = [];
    for (const migration of missing(rows, migrations)) {
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        checksum(migration),
      ]);
      done.push(migration.version);
    }
    return done;
  });
}

interface AppliedRow {
  version: number;
  name: string;
  checksum: string;
}

/** For `npm run doctor`: applies nothing, throws SchemaMismatchError as migrate() would. */
export async function pendingMigrations(pool: Pool, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  const { rows: table } = await pool.query<{ exists: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS exists",
  );
  const rows = table[0]?.exists
    ? (await pool.query<AppliedRow>('SELECT version, name, checksum FROM schema_migrations ORDER BY version')).rows
    : [];
  return missing(rows, migrations).map((m) => m.version);
}

/** What is not applied yet, in order, once every applied row is known to this build and unchanged. */
function missing(rows: readonly AppliedRow[], migrations: readonly Migration[]): Migration[] {
  const known = new Map(migrations.map((m) => [m.version, m]));
  for (const row of rows) {
    const ours = known.get(row.version);
    if (!ours) {
      throw new SchemaMismatchError(
        `the database schema has migration ${row.version} (${row.name}), which this build does not know: it was migrated by a newer build; run that build (or a newer one)`,
      );
    }
    if (checksum(ours) !== row.checksum) {
      throw new SchemaMismatchError(
        `migration ${row.version} (${row.name}) in the database differs from this build's: a released migration was edited; restore the original`,
      );
    }
  }
  const applied = new Set(rows.map((r) => r.version));
  return [...migrations].sort((a, b) => a.version - b.version).filter((m) => !applied.has(m.version));
}

function checksum(migration: Migration): string {
  return createHash('sha256').update(migration.sql, 'utf8').digest('hex');
}
