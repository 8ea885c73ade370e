// The audit log on PostgreSQL: one chain for every process. Each append takes the chain's advisory lock
// and chains onto the checked head, so replicas never fork it; entries are built as in the file log.
import type { Pool, PoolClient } from 'pg';
import type { AuditEntryInput, AuditLog } from '../../ports/store.js';
import type { Clock } from '../../ports/clock.js';
import {
  auditBody,
  chainEntry,
  GENESIS_HASH,
  headOf,
  type AuditBody,
  type AuditEntry,
  type ChainHead,
} from '../audit-entry.js';
import { GroupCommit } from '../group-commit.js';
import { makeRedactor, type SecretLike } from '../redact.js';
import type { Database } from './database.js';
import { InFlight } from './in-flight.js';
import { AUDIT_CHAIN_LOCK, DESK_LOCKS } from './lock-keys.js';
import { CommitOutcomeUnknownError } from './errors.js';
import { isConnectionError, transaction } from './pool.js';

/** How long an append waits for PostgreSQL to answer again before it fails. */
export const AUDIT_OUTAGE_WAIT_MS = 30_000;

export interface PgAuditLogOptions {
  /** Stamps `ts`. */
  clock: Pick<Clock, 'now'>;
  /** Secrets replaced by [redacted] wherever they appear (see redact.ts). */
  redact?: readonly SecretLike[];
}

export interface PgAuditLog extends AuditLog {
  close(): Promise<void>;
}

interface Pending {
  body: AuditBody;
  ts: string;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export function openPgAuditLog(db: Database, options: PgAuditLogOptions): PgAuditLog {
  const redact = makeRedactor(options.redact);
  const where = `${db.where}, table audit_log`;
  const inFlight = new InFlight(where);
  let closing = false;
  const commits = new GroupCommit<Pending>(async (batch) => {
    try {
      await appendThroughOutages(db.pool, where, batch, () => closing);
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    for (const p of batch) p.resolve();
  });
  return {
    append(input: AuditEntryInput): Promise<void> {
      return inFlight.run(async () => {
        const body = auditBody(input, redact);
        const ts = new Date(options.clock.now()).toISOString();
        return new Promise<void>((resolve, reject) => commits.add({ body, ts, resolve, reject }));
      });
    },
    close: () => {
      closing = true;
      return inFlight.close();
    },
  };
}

/** One batch appended exactly once, across broken connections (see the file comment). */
async function appendThroughOutages(
  pool: Pool,
  where: string,
  batch: readonly Pending[],
  closing: () => boolean,
): Promise<void> {
  const deadline = Date.now() + AUDIT_OUTAGE_WAIT_MS;
  /** The last line of an attempt whose COMMIT answer was lost: stored or not, to be found out first. */
  let unknown: ChainHead | undefined;
  for (let pause = 50; ; pause = Math.min(pause * 2, 1_000)) {
    let last: ChainHead | undefined;
    try {
      if (unknown && (await isStored(pool, unknown))) return;
      unknown = undefined;
      await transaction(pool, async (client) => {
        last = await appendChained(client, where, batch);
      });
      return;
    } catch (err) {
      if (err instanceof CommitOutcomeUnknownError) unknown = last;
      else if (!isConnectionError(err)) throw err;
      if (Date.now() > deadline || closing()) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

async function isStored(pool: Pool, line: ChainHead): Promise<boolean> {
  const { rows } = await pool.query('SELECT 1 FROM audit_log WHERE seq = $1 AND hash = $2', [line.seq, line.hash]);
  return rows.length > 0;
}

/** In the caller's transaction: the chain's lock, its head, then the batch chained onto it; returns the new head. */
async function appendChained(client: PoolClient, where: string, batch: readonly Pending[]): Promise<ChainHead> {
  await client.query('SELECT pg_advisory_xact_lock($1, $2)', [DESK_LOCKS, AUDIT_CHAIN_LOCK]);
  let head = await readHead(client, where);
  const entries: Array<{ entry: AuditEntry; line: string }> = [];
  for (const p of batch) {
    const next = chainEntry(p.body, p.ts, head);
    entries.push(next);
    head = { seq: next.entry.seq, hash: next.entry.hash };
  }
  await insertAuditLines(client, entries);
  return head;
}

/** Audit lines exactly as written (`line`, the text the hash covers), with the columns read from them, in one statement. */
export async function insertAuditLines(
  client: PoolClient,
  entries: ReadonlyArray<{ entry: AuditEntry; line: string }>,
): Promise<void> {
  await client.query(
    `INSERT INTO audit_log (seq, line, hash, ts, type, actor, request_id)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::text[])`,
    [
      entries.map((e) => e.entry.seq),
      entries.map((e) => e.line),
      entries.map((e) => e.entry.hash),
      entries.map((e) => e.entry.ts),
      entries.map((e) => e.entry.type),
      entries.map((e) => e.entry.actor),
      entries.map((e) => e.entry.requestId ?? null),
    ],
  );
}

async function readHead(client: PoolClient | Pool, where: string): Promise<ChainHead> {
  const { rows } = await client.query<{ seq: string; line: string }>(
    'SELECT seq, line FROM audit_log ORDER BY seq DESC LIMIT 1',
  );
  const last = rows[0];
  return last === undefined ? { seq: 0, hash: GENESIS_HASH } : headOf(`${where}, seq ${last.seq}`, last.line);
}
