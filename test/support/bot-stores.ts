/** The stores of a test bot (test/support/bot.ts): in memory, or the durable files as runtime/stores.ts opens them. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  REQUEST_RECORD_SCHEMA,
  REQUEST_STORE_NAME,
  REQUEST_RECORD_VERSION,
} from '../../src/bot/domain/record-schema.js';
import { isFinishedRequest, type RequestRecord } from '../../src/bot/domain/record.js';
import type { Clock } from '../../src/bot/ports/clock.js';
import type { AuditLog, KeyValueStore, Repository } from '../../src/bot/ports/store.js';
import type { StepUpStore } from '../../src/bot/ports/step-up.js';
import { keyValueStepUpStore, STEP_UP_KV_NAME } from '../../src/bot/store/step-up.js';
import { AUDIT_FILE_NAME, openAuditLog, type DurableAuditLog } from '../../src/bot/store/audit-log.js';
import { openKeyValueStore, type DurableKeyValueStore } from '../../src/bot/store/kv.js';
import {
  memoryAuditLog,
  memoryKv,
  memoryRepository,
  type MemoryAuditLog,
  type MemoryKeyValueStore,
  type MemoryRepository,
} from '../../src/bot/store/memory.js';
import { openRepository, type DurableRepository } from '../../src/bot/store/repository.js';

/** The stores a bot runs on, and how to let them go. */
export interface TestStores {
  requests: Repository<RequestRecord>;
  kv: KeyValueStore;
  audit: AuditLog;
  /** Default (test/support/bot.ts): a store of its own in memory. */
  stepUp?: StepUpStore;
  close(): Promise<void>;
}

export interface FileStores extends TestStores {
  requests: DurableRepository<RequestRecord>;
  kv: DurableKeyValueStore;
  audit: DurableAuditLog;
  dir: string;
}

export interface MemoryStores extends TestStores {
  requests: MemoryRepository<RequestRecord>;
  kv: MemoryKeyValueStore;
  audit: MemoryAuditLog;
}

export function memoryStores(clock?: Clock): MemoryStores {
  return {
    requests: memoryRepository<RequestRecord>(isFinishedRequest),
    kv: memoryKv(),
    audit: memoryAuditLog(clock ? { clock } : {}),
    close: async () => {},
  };
}

/** The durable file stores, as runtime/stores.ts opens them, in `dir` or a new temporary folder (removed on close when it made it). */
export async function fileStores(
  clock: Clock,
  o: { dir?: string; prefix?: string; warn?: (message: string) => void; redact?: string[] } = {},
): Promise<FileStores> {
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), o.prefix ?? 'bot-'));
  const warn = o.warn ? { warn: o.warn } : {};
  const requests = await openRepository({
    dir,
    name: REQUEST_STORE_NAME,
    schema: REQUEST_RECORD_SCHEMA,
    isFinished: isFinishedRequest,
    version: REQUEST_RECORD_VERSION,
    ...warn,
  });
  const kv = await openKeyValueStore({ dir, ...warn });
  const stepUpKv = await openKeyValueStore({ dir, name: STEP_UP_KV_NAME, ...warn });
  const audit = await openAuditLog({
    file: join(dir, AUDIT_FILE_NAME),
    clock,
    ...warn,
    ...(o.redact ? { redact: o.redact } : {}),
  });
  return {
    requests,
    kv,
    audit,
    stepUp: keyValueStepUpStore(stepUpKv),
    dir,
    async close() {
      await Promise.all([requests.close(), kv.close(), stepUpKv.close(), audit.close()]);
      if (o.dir === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}
