// The PostgreSQL database the stores share: one pool, migrated at open.
import type { Pool } from 'pg';
import { migrate } from './migrate.js';
import { createPool } from './pool.js';

export interface Database {
  readonly pool: Pool;
  /** Which database, for messages: host, port, database and user, never the password. */
  readonly where: string;
  /** The migrations this open applied (usually none). */
  readonly migrated: readonly number[];
  /** Ends every connection (after the stores on it were closed). */
  close(): Promise<void>;
}

export interface DatabaseOptions {
  url: string;
  warn: (message: string) => void;
  /** Connections at most (default 10). */
  maxConnections?: number;
}

/** Connects, applies the missing migrations, and returns the database; ends the pool if that fails. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const pool = createPool({
    url: options.url,
    warn: options.warn,
    ...(options.maxConnections ? { max: options.maxConnections } : {}),
  });
  const where = describeDatabase(options.url);
  let migrated: number[];
  try {
    migrated = await migrate(pool);
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
  let closed: Promise<void> | undefined;
  return {
    pool,
    where,
    migrated,
    close: () => (closed ??= pool.end()),
  };
}

/** `PostgreSQL db on host:port as user`: what a message may say about DATABASE_URL. */
export function describeDatabase(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'PostgreSQL (DATABASE_URL is not a URL)';
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(default database)';
  const host = parsed.hostname || parsed.searchParams.get('host') || 'localhost';
  const port = parsed.port ? `:${parsed.port}` : '';
  const user = parsed.username ? ` as ${decodeURIComponent(parsed.username)}` : '';
  return `PostgreSQL ${database} on ${host}${port}${user}`;
}
