/**
 * The shared store as the test reads it: the bot's own PostgreSQL repository on the replicas'
 * database (a connection of the test's own), every request live or finished, and the audit chain.
 */
import {
  REQUEST_RECORD_SCHEMA,
  REQUEST_STORE_NAME,
  REQUEST_RECORD_VERSION,
} from '../../../../src/bot/domain/record-schema.js';
import { isFinishedRequest, type RequestRecord } from '../../../../src/bot/domain/record.js';
import { verifyAudit, type AuditVerifyResult } from '../../../../src/bot/store/audit-verify.js';
import { pgAuditLines } from '../../../../src/bot/store/postgres/audit-lines.js';
import { openDatabase, type Database } from '../../../../src/bot/store/postgres/database.js';
import { openPgRepository, type PgRepository } from '../../../../src/bot/store/postgres/repository.js';

export interface StoreReader {
  /** Every request, live and finished. */
  all(): Promise<RequestRecord[]>;
  get(id: string): Promise<RequestRecord | undefined>;
  /** The audit chain checked from its first line (what `npm run audit -- verify` does). */
  verifyAudit(): Promise<AuditVerifyResult>;
  /** The audit lines about `requestId`, in order: type and actor. */
  auditOf(requestId: string): Promise<Array<{ type: string; actor: string }>>;
  readonly db: Database;
  close(): Promise<void>;
}

export async function readStore(databaseUrl: string): Promise<StoreReader> {
  const db = await openDatabase({ url: databaseUrl, warn: () => {}, maxConnections: 2 });
  let repo: PgRepository<RequestRecord>;
  try {
    repo = await openPgRepository<RequestRecord>(db, {
      name: REQUEST_STORE_NAME,
      schema: REQUEST_RECORD_SCHEMA,
      isFinished: isFinishedRequest,
      version: REQUEST_RECORD_VERSION,
    });
  } catch (err) {
    await db.close();
    throw err;
  }
  return {
    db,
    all: async () => [...(await repo.listLive()), ...(await repo.recentHistory(100_000))],
    get: (id) => repo.get(id),
    verifyAudit: () => verifyAudit(pgAuditLines(db.pool, db.where)),
    auditOf: async (requestId) =>
      (
        await db.pool.query<{ type: string; actor: string }>(
          'SELECT type, actor FROM audit_log WHERE request_id = $1 ORDER BY seq',
          [requestId],
        )
      ).rows,
    async close() {
      await repo.close();
      await db.close();
    },
  };
}
