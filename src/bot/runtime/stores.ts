/**
 * The bot's stores, opened once per process and closed on shutdown: the requests (live +
 * history, with their outbox), small durable values, and the hash-chained audit log. Either the
 * files under DATA_DIR (one process: each file is locked; it always leads) or PostgreSQL at
 * DATABASE_URL (shared by every replica; its schema migrated on open; the leader elected by an
 * advisory lock).
 */
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuditLog, Repository } from '../ports/store.js';
import type { StepUpStore } from '../ports/step-up.js';
import type { Clock } from '../ports/clock.js';
import type { Leadership } from '../ports/leadership.js';
import type { Config } from '../config/config.js';
import { fileStoreLeadership } from '../store/leadership.js';
import { REQUEST_RECORD_SCHEMA, REQUEST_STORE_NAME, REQUEST_RECORD_VERSION } from '../domain/record-schema.js';
import { isFinishedRequest } from '../domain/record.js';
import type { RequestRecord } from '../domain/record.js';
import { AUDIT_FILE_NAME, openAuditLog } from '../store/audit-log.js';
import { DIR_MODE } from '../store/durable-io.js';
import { openKeyValueStore, type DurableKeyValueStore } from '../store/kv.js';
import { openPgAuditLog } from '../store/postgres/audit-log.js';
import { openDatabase } from '../store/postgres/database.js';
import { openPgKeyValueStore } from '../store/postgres/kv.js';
import { openPgLeadership } from '../store/postgres/leadership.js';
import { openPgStepUpStore } from '../store/postgres/step-up.js';
import { keyValueStepUpStore, STEP_UP_KV_NAME } from '../store/step-up.js';
import { openPgRepository } from '../store/postgres/repository.js';
import { openRepository } from '../store/repository.js';
import type { ProcessLogger } from './logger.js';

export interface Stores {
  requests: Repository<RequestRecord>;
  kv: DurableKeyValueStore;
  audit: AuditLog;
  /** Approvers' one-time code enrollments, last accepted steps and lockouts (issue 24). */
  stepUp: StepUpStore;
  /** Which store, for the start-up line: the data folder, or the database (never its password). */
  readonly where: string;
  /**
   * Which replica does the background work: with files, this process (store/leadership.ts); on
   * PostgreSQL, the holder of the leader's advisory lock (store/postgres/leadership.ts).
   */
  leadership: Leadership;
  close(): Promise<void>;
}

/** The files of a data folder (DATA_DIR), or a PostgreSQL database (DATABASE_URL). */
export type StoreLocation = string | { databaseUrl: string };

/** Where the configuration says the stores are. */
export function storeLocation(config: Pick<Config, 'dataDir' | 'database'>): StoreLocation {
  return config.database ? { databaseUrl: config.database.url.reveal() } : config.dataDir;
}

/**
 * Opens every store at `location`; a corrupt or locked file, an unreachable database or a schema
 * this build cannot use throws with a message naming it. `secrets` are redacted from audit lines.
 */
export async function openStores(
  location: StoreLocation,
  clock: Clock,
  secrets: readonly string[],
  logger: ProcessLogger,
): Promise<Stores> {
  const log = logger.child('store');
  return typeof location === 'string'
    ? openFileStores(location, clock, secrets, log)
    : openDatabaseStores(location.databaseUrl, clock, secrets, log);
}

async function openFileStores(
  dir: string,
  clock: Clock,
  secrets: readonly string[],
  log: ProcessLogger,
): Promise<Stores> {
  // Only the bot's own user may read the requests and the audit log (their files are 0600 too).
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  const warn = (message: string) => log.warn(message);
  const { mode } = await stat(dir);
  if ((mode & 0o077) !== 0)
    warn(`${dir} can be read by other users (mode ${(mode & 0o777).toString(8)}); chmod 700 it`);
  const requests = await openRepository<RequestRecord>({
    dir,
    name: REQUEST_STORE_NAME,
    schema: REQUEST_RECORD_SCHEMA,
    isFinished: isFinishedRequest,
    version: REQUEST_RECORD_VERSION,
    warn,
  });
  const kv = await openKeyValueStore({ dir, warn });
  const stepUpKv = await openKeyValueStore({ dir, name: STEP_UP_KV_NAME, warn });
  const audit = await openAuditLog({ file: join(dir, AUDIT_FILE_NAME), clock, redact: secrets.filter(Boolean), warn });
  return {
    requests,
    kv,
    audit,
    stepUp: keyValueStepUpStore(stepUpKv),
    where: dir,
    leadership: fileStoreLeadership(),
    async close() {
      await Promise.allSettled([requests.close(), kv.close(), stepUpKv.close(), audit.close()]);
    },
  };
}

async function openDatabaseStores(
  url: string,
  clock: Clock,
  secrets: readonly string[],
  log: ProcessLogger,
): Promise<Stores> {
  const db = await openDatabase({ url, warn: (message) => log.warn(message) });
  if (db.migrated.length > 0) log.info('database schema migrated', { database: db.where, applied: db.migrated });
  try {
    const requests = await openPgRepository<RequestRecord>(db, {
      name: REQUEST_STORE_NAME,
      schema: REQUEST_RECORD_SCHEMA,
      isFinished: isFinishedRequest,
      version: REQUEST_RECORD_VERSION,
    });
    const kv = openPgKeyValueStore(db);
    const stepUp = openPgStepUpStore(db);
    const audit = openPgAuditLog(db, { clock, redact: secrets.filter(Boolean) });
    const leadership = await openPgLeadership({ url, warn: (message) => log.warn(message) });
    return {
      requests,
      kv,
      audit,
      stepUp,
      where: db.where,
      leadership,
      async close() {
        // The lock first: another replica takes over while this one finishes closing.
        await leadership.close();
        await Promise.allSettled([requests.close(), kv.close(), stepUp.close(), audit.close()]);
        await db.close();
      },
    };
  } catch (err) {
    await db.close();
    throw err;
  }
}
