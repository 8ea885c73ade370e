/**
 * The bot's files under DATA_DIR: the requests (live + history), small durable values, and the
 * hash-chained audit log. Opened once per process; closed on shutdown so the lock files go.
 */
import { mkdir, stat } from 'node:fs/promises';
import { DIR_MODE } from '../store/durable-io.js';
import { join } from 'node:path';
import type { AuditLog, Clock, Leadership, Repository } from '../app/ports.js';
import { fileStoreLeadership } from '../store/leadership.js';
import { DESK_REQUEST_SCHEMA, DESK_REQUEST_STORE_NAME, DESK_REQUEST_VERSION } from '../domain/record-schema.js';
import { isFinishedRequest } from '../domain/record.js';
import type { DeskRequest } from '../domain/record.js';
import { AUDIT_FILE_NAME, openAuditLog } from '../store/audit-log.js';
import { openKeyValueStore, type DurableKeyValueStore } from '../store/kv.js';
import { openRepository } from '../store/repository.js';
import type { ProcessLogger } from './logger.js';

export interface Stores {
  requests: Repository<DeskRequest>;
  kv: DurableKeyValueStore;
  audit: AuditLog;
  /** Which replica does the background work; with files, this process (store/leadership.ts). */
  leadership: Leadership;
  close(): Promise<void>;
}

/** Open every store in `dir`; a corrupt or locked file throws with a message naming it. */
export async function openStores(dir: string, clock: Clock, secrets: readonly string[], logger: ProcessLogger): Promise<Stores> {
  // Only the bot's own user may read the requests and the audit log (their files are 0600 too).
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  const log = logger.child('store');
  const warn = (message: string) => log.warn(message);
  const { mode } = await stat(dir);
  if ((mode & 0o077) !== 0) warn(`${dir} can be read by other users (mode ${(mode & 0o777).toString(8)}); chmod 700 it`);
  const requests = await openRepository<DeskRequest>({
    dir,
    name: DESK_REQUEST_STORE_NAME,
    schema: DESK_REQUEST_SCHEMA,
    isFinished: isFinishedRequest,
    version: DESK_REQUEST_VERSION,
    warn,
  });
  const kv = await openKeyValueStore({ dir });
  const audit = await openAuditLog({ file: join(dir, AUDIT_FILE_NAME), clock, redact: secrets.filter(Boolean), warn });
  return {
    requests,
    kv,
    audit,
    leadership: fileStoreLeadership(),
    async close() {
      await Promise.allSettled([requests.close(), kv.close(), audit.close()]);
    },
  };
}
