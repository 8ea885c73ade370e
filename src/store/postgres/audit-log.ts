/**
 * The audit log (AuditLog port) on PostgreSQL: one hash chain for every process on the database.
 * Each append transaction takes the chain's advisory lock, reads the head (the last line, checked
 * on its own), chains its entries onto it and inserts them; so appends from two replicas are
 * serialized in the database and the chain never forks. Entries are built exactly as in the file
 * log (audit-entry.ts: same body, redaction, hash and line), stamped when append is called.
 * Appends that arrive while one is being committed share the next transaction (group-commit.ts).
 */
import type { Pool, PoolClient } from 'pg';
import type { AuditEntryInput, AuditLog, Clock } from '../../app/ports.js';
import { auditBody, chainEntry, GENESIS_HASH, headOf, type AuditBody, type AuditEntry, type ChainHead } from '../audit-entry.js';
import { GroupCommit } from '../group-commit.js';
import { makeRedactor, type SecretLike } from '../redact.js';
import type { Database } from './database.js';
import { InFlight } from './in-flight.js';
import { AUDIT_CHAIN_LOCK, DESK_LOCKS } from './lock-keys.js';
import { transaction } from './pool.js';

export interface PgAuditLogOptions {
  /** Stamps `ts`. */
  clock: Pick<Clock, 'now'>;
  /** Secrets replaced by [redacted] wherever they appear (see redact.ts). */
  redact?: readonly SecretLike[];
}

/** The AuditLog port plus close() for shutdown. */
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
  const commits = new GroupCommit<Pending>(async (batch) => {
    try {
      await transaction(db.pool, (client) => appendChained(client, where, batch));
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
    close: () => inFlight.close(),
  };
}

/** In the caller's transaction: the chain's lock, its head, then the batch chained onto it. */
async function appendChained(client: PoolClient, where: string, batch: readonly Pending[]): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1, $2)', [DESK_LOCKS, AUDIT_CHAIN_LOCK]);
  let head = await readHead(client, where);
  const entries: Array<{ entry: AuditEntry; line: string }> = [];
  for (const p of batch) {
    const next = chainEntry(p.body, p.ts, head);
    entries.push(next);
    head = { seq: next.entry.seq, hash: next.entry.hash };
  }
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
  const { rows } = await client.query<{ seq: string; line: string }>('SELECT seq, line FROM audit_log ORDER BY seq DESC LIMIT 1');
  const last = rows[0];
  return last === undefined ? { seq: 0, hash: GENESIS_HASH } : headOf(`${where}, seq ${last.seq}`, last.line);
}
