// The pool and the two ways stores use it: a read (retried once on a dead connection) and a transaction.
// Failed connections are dropped, and their 'error' events caught: unhandled, one ends the process.
import pg, { type Pool, type PoolClient, type QueryResultRow } from 'pg';
import { CommitOutcomeUnknownError, connectionProblem } from './errors.js';
import { errorText } from '../../domain/error-text.js';

export interface PoolOptions {
  /** postgres://user:password@host:port/database?… (DATABASE_URL). */
  url: string;
  /** Connection failures worth an operator's eye (an idle connection dropped). */
  warn: (message: string) => void;
  /** Connections at most (default 10). */
  max?: number;
}

/** The longest a query waits for the server's answer (pg's query_timeout): then the connection is given up. */
export const QUERY_TIMEOUT_MS = 30_000;

/** A pool with the bot's session settings; its 'error' event is handled (logged, the connection dropped). */
export function createPool(options: PoolOptions): Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    application_name: 'desk-bot',
    // A database that does not answer must fail fast, not hang a Slack acknowledgement or a transition.
    connectionTimeoutMillis: 5_000,
    query_timeout: QUERY_TIMEOUT_MS,
    // A replica cut off mid-transaction must not hold a request's row lock for hours: the server ends
    // the session after 15 s idle in a transaction (ours last milliseconds), and keepalives find dead peers.
    options: '-c idle_in_transaction_session_timeout=15000',
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  pool.on('error', (err) =>
    options.warn(
      `PostgreSQL closed an idle connection (${connectionProblem(err)}); it was dropped and the next query opens another`,
    ),
  );
  return pool;
}

/** SQLSTATE classes and socket errors that mean the connection, not the statement, failed. */
const CONNECTION_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|not queryable|Connection is closed/i;

/** True when `err` says the connection broke (the statement may never have reached the server). */
export function isConnectionError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
  return typeof message === 'string' && CONNECTION_MESSAGES.test(message);
}

/** Safe to run twice (a read, or a write setting values): a dead or broken connection gets one more try on another. */
export async function idempotent<R extends QueryResultRow>(
  pool: Pool,
  text: string,
  values: unknown[] = [],
): Promise<R[]> {
  try {
    return (await pool.query<R>(text, values)).rows;
  } catch (err) {
    if (!isConnectionError(err)) throw err;
    return (await pool.query<R>(text, values)).rows;
  }
}

/**
 * BEGIN failing on a dead connection is retried once (nothing ran, so `work` runs at most once).
 * A COMMIT whose answer is lost throws CommitOutcomeUnknownError: only a read can tell.
 */
export async function transaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    let broken: unknown;
    // Checked out, the pool no longer listens: an error between two statements would be unhandled.
    const onError = (err: unknown) => (broken ??= err);
    client.on('error', onError);
    let begun = false;
    try {
      await client.query('BEGIN');
      begun = true;
      const result = await work(client);
      await commit(client);
      return result;
    } catch (err) {
      if (isConnectionError(err) || err instanceof CommitOutcomeUnknownError) broken ??= err;
      else if (begun) await client.query('ROLLBACK').catch((rollbackFailed: unknown) => (broken ??= rollbackFailed));
      if (!begun && attempt === 1 && isConnectionError(err)) continue;
      throw err;
    } finally {
      client.off('error', onError);
      client.release(
        broken === undefined ? undefined : broken instanceof Error ? broken : new Error(errorText(broken)),
      );
    }
  }
}

async function commit(client: PoolClient): Promise<void> {
  try {
    await client.query('COMMIT');
  } catch (err) {
    if (isConnectionError(err)) throw new CommitOutcomeUnknownError(err);
    throw err;
  }
}
