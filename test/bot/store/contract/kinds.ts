/**
 * The stores the contract suites run against, each behind one shape: a fresh place to keep data,
 * on which the ports are opened (and opened again, as a restart would), and through which a test
 * can change stored audit lines the way someone with write access to the files or the database
 * could, without the store's help.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { AuditLog, Repository } from '../../../../src/bot/ports/store.js';
import { fileAuditLines, type AuditLines } from '../../../../src/bot/store/audit-lines.js';
import { AUDIT_FILE_NAME, openAuditLog } from '../../../../src/bot/store/audit-log.js';
import { openKeyValueStore, type DurableKeyValueStore } from '../../../../src/bot/store/kv.js';
import { memoryRepository } from '../../../../src/bot/store/memory.js';
import { pgAuditLines } from '../../../../src/bot/store/postgres/audit-lines.js';
import { openPgAuditLog } from '../../../../src/bot/store/postgres/audit-log.js';
import { openDatabase, type Database } from '../../../../src/bot/store/postgres/database.js';
import { openPgKeyValueStore } from '../../../../src/bot/store/postgres/kv.js';
import { openPgRepository } from '../../../../src/bot/store/postgres/repository.js';
import { openRepository } from '../../../../src/bot/store/repository.js';
import type { PgCluster } from '../../../support/postgres.js';
import { isFinished, tempDir, testRepoOptions, TestRecordSchema, type TestRecord } from '../support/temp.js';

export type Closable<T> = T & { close(): Promise<void> };

export interface Place {
  repository(): Promise<Closable<Repository<TestRecord>>>;
  kv(): Promise<DurableKeyValueStore>;
  audit(options?: { redact?: string[]; now?: () => number }): Promise<Closable<AuditLog>>;
  auditLines(): AuditLines;
  /** Replaces the line of the audit entry with seq `seq` behind the store's back. */
  editAuditLine(seq: number, edit: (line: string) => string): Promise<void>;
  /** Removes the audit entry with seq `seq` behind the store's back. */
  removeAuditLine(seq: number): Promise<void>;
  /** Closes whatever is still open on the place. */
  close(): Promise<void>;
}

export interface StoreKind {
  name: string;
  /** Keeps data across a close and an open (memory does not). */
  durable: boolean;
  /** Has a key-value store with prune/keys and an audit log (memory has neither). */
  complete: boolean;
  place(): Promise<Place>;
}

const clock = (now?: () => number) => ({ now: now ?? (() => Date.parse('2025-03-01T12:00:00.000Z')) });

export const fileKind: StoreKind = {
  name: 'files',
  durable: true,
  complete: true,
  async place() {
    const dir = tempDir();
    const file = join(dir, AUDIT_FILE_NAME);
    const open: Array<{ close(): Promise<void> }> = [];
    const track = <T extends { close(): Promise<void> }>(store: T) => (open.push(store), store);
    const rewrite = (change: (lines: string[]) => string[]) => {
      const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      writeFileSync(file, change(lines).join('\n') + '\n');
    };
    return {
      repository: async () => track(await openRepository(testRepoOptions(dir))),
      kv: async () => track(await openKeyValueStore({ dir })),
      audit: async (o = {}) =>
        track(await openAuditLog({ file, clock: clock(o.now), ...(o.redact ? { redact: o.redact } : {}) })),
      auditLines: () => fileAuditLines(file),
      editAuditLine: async (seq, edit) => rewrite((lines) => lines.map((l, i) => (i === seq - 1 ? edit(l) : l))),
      removeAuditLine: async (seq) => rewrite((lines) => lines.filter((_l, i) => i !== seq - 1)),
      close: async () => void (await Promise.allSettled(open.map((s) => s.close()))),
    };
  },
};

export const memoryKind: StoreKind = {
  name: 'memory',
  durable: false,
  complete: false,
  async place() {
    const unsupported = () => Promise.reject(new Error('the memory kind has no such store'));
    return {
      repository: async () => Object.assign(memoryRepository<TestRecord>(isFinished), { close: async () => {} }),
      kv: unsupported,
      audit: unsupported,
      auditLines: () => {
        throw new Error('the memory kind has no audit lines');
      },
      editAuditLine: unsupported,
      removeAuditLine: unsupported,
      close: async () => {},
    };
  },
};

/** PostgreSQL: each place is a new database on `cluster()`; each store opens its own pool, as a process would. */
export function postgresKind(cluster: () => PgCluster): StoreKind {
  return {
    name: 'postgres',
    durable: true,
    complete: true,
    async place() {
      const url = await cluster().createDatabase();
      const databases: Database[] = [];
      const stores: Array<{ close(): Promise<void> }> = [];
      const database = async () => {
        const db = await openDatabase({ url, warn: () => {}, maxConnections: 5 });
        databases.push(db);
        return db;
      };
      // Each store with its own database handle, closed together: what a restart of one process closes.
      const withOwnDb = async <T extends { close(): Promise<void> }>(
        open: (db: Database) => Promise<T> | T,
      ): Promise<T> => {
        const db = await database();
        const store = await open(db);
        const closeStore = store.close.bind(store);
        const close = async () => {
          await closeStore();
          await db.close();
        };
        stores.push({ close });
        return Object.assign(store, { close });
      };
      const admin = async (sql: string, values: unknown[]) => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          // Behind the store's back: the append-only trigger is what a person with the rights would disable.
          await client.query('BEGIN; ALTER TABLE audit_log DISABLE TRIGGER USER');
          await client.query(sql, values);
          await client.query('ALTER TABLE audit_log ENABLE TRIGGER USER; COMMIT');
        } finally {
          await client.end();
        }
      };
      const linesDb = await database();
      const lines = pgAuditLines(linesDb.pool, linesDb.where);
      return {
        repository: () =>
          withOwnDb((db) =>
            openPgRepository(db, { name: 'requests', schema: TestRecordSchema, isFinished, version: 1 }),
          ),
        kv: () => withOwnDb((db) => openPgKeyValueStore(db)),
        audit: (o = {}) =>
          withOwnDb((db) => openPgAuditLog(db, { clock: clock(o.now), ...(o.redact ? { redact: o.redact } : {}) })),
        auditLines: () => lines,
        editAuditLine: async (seq, edit) => {
          const [row] = (await linesDb.pool.query<{ line: string }>('SELECT line FROM audit_log WHERE seq = $1', [seq]))
            .rows;
          await admin('UPDATE audit_log SET line = $2 WHERE seq = $1', [seq, edit(row!.line)]);
        },
        removeAuditLine: (seq) => admin('DELETE FROM audit_log WHERE seq = $1', [seq]),
        close: async () => {
          await Promise.allSettled(stores.map((s) => s.close()));
          await Promise.allSettled(databases.map((db) => db.close()));
        },
      };
    },
  };
}
