// Moves a file store into an empty PostgreSQL database in one transaction with the tables locked (a
// failure leaves it empty). Files are opened as the bot opens them (locks taken), never changed, and
// the chain read back is verified against the file's, as are the step-up states (step-up.json): an
// operator moving to PostgreSQL must not lose everyone's enrollment.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PoolClient } from 'pg';
import type { z } from 'zod';
import type { OutboxEntry } from '../../ports/store.js';
import type { StepUpState } from '../../domain/step-up/attempts.js';
import { canonicalJson } from '../../domain/canonical.js';
import { AuditLineSchema } from '../audit-entry.js';
import { fileAuditLines } from '../audit-lines.js';
import { AUDIT_FILE_NAME, openAuditLog } from '../audit-log.js';
import { verifyAudit, type AuditVerifyResult } from '../audit-verify.js';
import { StoreCorruptError } from '../errors.js';
import { lineChunks, scanLines, type Line } from '../json-lines.js';
import { DEFAULT_KV_NAME, openKeyValueStore } from '../kv.js';
import { openRepository, repositoryFiles } from '../repository.js';
import { check, type Checked } from '../schema-check.js';
import { STEP_UP_KV_NAME, STEP_UP_STATE_SCHEMA } from '../step-up.js';
import { pgAuditLines } from './audit-lines.js';
import { insertAuditLines } from './audit-log.js';
import { openDatabase } from './database.js';
import { transaction } from './pool.js';

export interface CopySource<R extends { id: string }> {
  dataDir: string;
  /** The repository's files and rules, as the bot opens them. */
  repository: { name: string; schema: z.ZodType<R>; isFinished: (record: R) => boolean; version: number };
}

export interface CopyCounts {
  live: number;
  /** Finished records (each once, at its latest version). */
  history: number;
  /** Lines of the history file (a record changed after it finished has several). */
  historyLines: number;
  outbox: number;
  kv: number;
  /** Approvers' step-up states (step-up.json), and how many of them hold a confirmed enrollment. */
  stepUp: number;
  enrolled: number;
  audit: number;
  /** Hash of the last audit entry, the same in the file and the database. */
  lastHash: string;
  /** Where the copy went (never the password). */
  where: string;
}

/** The target already holds data: nothing was copied. */
export class TargetNotEmptyError extends Error {
  override name = 'TargetNotEmptyError';
}

/** The copy was committed but reading the chain back did not give the file's chain. */
export class CopyVerificationError extends Error {
  override name = 'CopyVerificationError';
}

const BATCH = 500;

export async function copyFileStoreToPostgres<R extends { id: string }>(
  source: CopySource<R>,
  url: string,
  warn: (message: string) => void,
): Promise<CopyCounts> {
  const { dataDir, repository } = source;
  // Opening would create an empty store where there is none: a mistyped folder must not copy nothing.
  const { live } = repositoryFiles(dataDir, repository.name);
  if (!existsSync(live))
    throw new StoreCorruptError(
      live,
      "there is no file store here (set --from or DATA_DIR to the bot's data folder); nothing was copied",
    );
  const repo = await openRepository({ dir: dataDir, ...repository, warn });
  const kv = await openKeyValueStore({ dir: dataDir, warn }).catch(async (err: unknown) => {
    await repo.close();
    throw err;
  });
  const auditFile = join(dataDir, AUDIT_FILE_NAME);
  const closeFiles: Array<() => Promise<void>> = [() => repo.close(), () => kv.close()];
  try {
    const stepUp = await readStepUp(dataDir, warn, closeFiles);
    // Opened for its lock and its tail repair only: the copy reads the lines themselves.
    const auditLog = await openAuditLog({ file: auditFile, clock: { now: Date.now }, warn });
    closeFiles.push(() => auditLog.close());
    const fileChain = await verifyAudit(fileAuditLines(auditFile));
    if (!fileChain.ok)
      throw new StoreCorruptError(
        auditFile,
        `the audit chain does not verify (${fileChain.firstBadAt}: ${fileChain.reason}); nothing was copied`,
      );

    const db = await openDatabase({ url, warn });
    try {
      const counts = await transaction(db.pool, async (client) => {
        await client.query('LOCK TABLE store_formats, records, outbox, kv, step_up, audit_log IN EXCLUSIVE MODE');
        await refuseNonEmpty(client);
        await client.query('INSERT INTO store_formats (store, version) VALUES ($1, $2)', [
          repository.name,
          repository.version,
        ]);
        const history = await copyHistory(
          client,
          repositoryFiles(dataDir, repository.name).history,
          repository.name,
          (value) => check(repository.schema, value),
        );
        const live = await repo.listLive();
        for (let i = 0; i < live.length; i += BATCH)
          await insertRecords(client, repository.name, live.slice(i, i + BATCH), false);
        const outbox = await copyOutbox(
          client,
          repository.name,
          await repo.outbox.pending(),
          outboxSeqOf(repositoryFiles(dataDir, repository.name).live),
        );
        const keys = await kv.keys('');
        for (const key of keys)
          await client.query('INSERT INTO kv (store, key, value) VALUES ($1, $2, $3::json)', [
            DEFAULT_KV_NAME,
            key,
            JSON.stringify(await kv.get(key)),
          ]);
        await copyStepUp(client, stepUp);
        const audit = await copyAudit(client, auditFile);
        const enrolled = [...stepUp.values()].filter((s) => s.enrollment !== undefined).length;
        return { live: live.length, ...history, outbox, kv: keys.length, stepUp: stepUp.size, enrolled, audit };
      });
      const copied = await verifyAudit(pgAuditLines(db.pool, db.where));
      checkSameChain(fileChain, copied);
      checkSameStepUp(
        stepUp,
        await db.pool.query<{ user_id: string; state: unknown }>('SELECT user_id, state FROM step_up'),
      );
      return { ...counts, lastHash: copied.lastHash, where: db.where };
    } finally {
      await db.close();
    }
  } finally {
    for (const close of closeFiles.reverse()) await close();
  }
}

async function refuseNonEmpty(client: PoolClient): Promise<void> {
  const { rows } = await client.query<{ name: string; n: string }>(
    `SELECT 'records' AS name, count(*) AS n FROM records UNION ALL SELECT 'outbox', count(*) FROM outbox
     UNION ALL SELECT 'kv', count(*) FROM kv UNION ALL SELECT 'step_up', count(*) FROM step_up
     UNION ALL SELECT 'audit_log', count(*) FROM audit_log UNION ALL SELECT 'store_formats', count(*) FROM store_formats`,
  );
  const held = rows.filter((r) => Number(r.n) > 0);
  if (held.length > 0) {
    throw new TargetNotEmptyError(
      `the database already holds data (${held.map((r) => `${r.name}: ${r.n} rows`).join(', ')}); copy only into an empty database, nothing was copied`,
    );
  }
}

/** Two passes (where each id's last line is, then those lines in file order) so the database's history order is the file's. */
async function copyHistory<R extends { id: string }>(
  client: PoolClient,
  file: string,
  store: string,
  parse: (value: unknown) => Checked<R>,
): Promise<{ history: number; historyLines: number }> {
  const lastLine = new Map<string, number>();
  const parsed = (line: Line): R => {
    const checked = parse(JSON.parse(line.text));
    if (!checked.ok)
      throw new StoreCorruptError(file, `record does not match the schema: ${checked.problem}`, line.lineNo);
    return checked.value;
  };
  await scanLines(file, (line) => void lastLine.set(parsed(line).id, line.lineNo));
  let historyLines = 0;
  for await (const chunk of lineChunks(file)) {
    historyLines += chunk.length;
    const latest = chunk
      .map((line) => ({ line, record: parsed(line) }))
      .filter(({ line, record }) => lastLine.get(record.id) === line.lineNo);
    for (let i = 0; i < latest.length; i += BATCH)
      await insertRecords(
        client,
        store,
        latest.slice(i, i + BATCH).map((l) => l.record),
        true,
      );
  }
  return { history: lastLine.size, historyLines };
}

/** Inserts records in the order given; finished ones take the next history numbers in that order. */
async function insertRecords<R extends { id: string }>(
  client: PoolClient,
  store: string,
  records: readonly R[],
  finished: boolean,
): Promise<void> {
  if (records.length === 0) return;
  await client.query(
    `INSERT INTO records (store, id, body, finished_seq)
     SELECT $1, r.id, r.body::json, ${finished ? "nextval('records_finished_seq')" : 'NULL'}
     FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS r(id, body, n) ORDER BY r.n`,
    [store, records.map((r) => r.id), records.map((r) => JSON.stringify(r))],
  );
}

/** The outbox with its own numbers, and the sequence set past the last number the files handed out. */
async function copyOutbox(
  client: PoolClient,
  store: string,
  entries: readonly OutboxEntry[],
  lastSeq: number,
): Promise<number> {
  for (const e of entries) {
    await client.query(
      `INSERT INTO outbox (seq, store, request_id, event, attempts, next_at, last_error, permanent, failing_since, done)
       VALUES ($1, $2, $3, $4::json, $5, $6, $7, $8, $9, $10::json)`,
      [
        e.seq,
        store,
        e.requestId,
        JSON.stringify(e.event),
        e.attempts,
        e.nextAt,
        e.lastError,
        e.permanent,
        e.failingSince,
        JSON.stringify(e.done),
      ],
    );
  }
  const last = Math.max(lastSeq, ...entries.map((e) => e.seq));
  if (last > 0) await client.query("SELECT setval(pg_get_serial_sequence('outbox', 'seq'), $1)", [last]);
  return entries.length;
}

/** The last outbox number the live file handed out (never reused). */
function outboxSeqOf(liveFile: string): number {
  const raw = JSON.parse(readFileSync(liveFile, 'utf8')) as { outboxSeq?: unknown };
  return typeof raw.outboxSeq === 'number' ? raw.outboxSeq : 0;
}

/** The audit file's lines, exactly as written, with their columns (opening the log cut an incomplete last line). */
async function copyAudit(client: PoolClient, file: string): Promise<number> {
  let count = 0;
  for await (const chunk of lineChunks(file)) {
    for (let i = 0; i < chunk.length; i += BATCH) {
      const entries = chunk
        .slice(i, i + BATCH)
        .map((line) => ({ line: line.text, entry: AuditLineSchema.parse(JSON.parse(line.text)) }));
      await insertAuditLines(client, entries);
      count += entries.length;
    }
  }
  return count;
}

/**
 * step-up.json's states by user, each checked against the schema; none when the file is absent (a
 * store from before step-up), which is then left absent. Opened as the bot opens it, for its lock.
 */
async function readStepUp(
  dataDir: string,
  warn: (message: string) => void,
  closeFiles: Array<() => Promise<void>>,
): Promise<Map<string, StepUpState>> {
  const states = new Map<string, StepUpState>();
  if (!existsSync(join(dataDir, `${STEP_UP_KV_NAME}.json`))) return states;
  const store = await openKeyValueStore({ dir: dataDir, name: STEP_UP_KV_NAME, warn });
  closeFiles.push(() => store.close());
  for (const userId of await store.keys('')) {
    const checked = check(STEP_UP_STATE_SCHEMA, await store.get(userId));
    if (!checked.ok)
      throw new StoreCorruptError(
        store.file,
        `the step-up state of ${userId} does not match the schema (${checked.problem}); nothing was copied`,
      );
    states.set(userId, checked.value);
  }
  return states;
}

/** One row per user, as the bot's PostgreSQL step-up store keeps them (postgres/step-up.ts). */
async function copyStepUp(client: PoolClient, states: ReadonlyMap<string, StepUpState>): Promise<void> {
  const all = [...states];
  for (let i = 0; i < all.length; i += BATCH) {
    const batch = all.slice(i, i + BATCH);
    await client.query(
      'INSERT INTO step_up (user_id, state) SELECT u, s::jsonb FROM unnest($1::text[], $2::text[]) AS t(u, s)',
      [batch.map(([user]) => user), batch.map(([, state]) => JSON.stringify(state))],
    );
  }
}

/** Every user's state read back from the database equals the file's (jsonb reorders keys: compared canonically). */
function checkSameStepUp(
  file: ReadonlyMap<string, StepUpState>,
  copied: { rows: { user_id: string; state: unknown }[] },
) {
  const differ = copied.rows.filter((r) => {
    const held = file.get(r.user_id);
    return held === undefined || canonicalJson(held) !== canonicalJson(r.state);
  });
  if (copied.rows.length !== file.size || differ.length > 0)
    throw new CopyVerificationError(
      `the step-up states read back from the database do not match step-up.json (file: ${file.size} users; database: ${copied.rows.length} rows, ${differ.length} different)`,
    );
}

function checkSameChain(file: AuditVerifyResult, copied: AuditVerifyResult): void {
  if (!copied.ok || copied.entries !== file.entries || copied.lastHash !== file.lastHash) {
    throw new CopyVerificationError(
      `the audit chain read back from the database does not match the file's (file: ${file.entries} entries ending ${file.lastHash}; ` +
        `database: ${copied.ok ? 'verifies' : `fails at ${copied.firstBadAt}: ${copied.reason}`}, ${copied.entries} entries ending ${copied.lastHash})`,
    );
  }
}
