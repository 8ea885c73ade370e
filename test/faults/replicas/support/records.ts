/**
 * The shared store as the test reads it: the bot's own PostgreSQL repository on the replicas'
 * database (a connection of the test's own), every request live or finished.
 */
import { DESK_REQUEST_SCHEMA, DESK_REQUEST_STORE_NAME, DESK_REQUEST_VERSION } from '../../../../src/domain/record-schema.js';
import { isFinishedRequest, type DeskRequest } from '../../../../src/domain/record.js';
import { openDatabase, type Database } from '../../../../src/store/postgres/database.js';
import { openPgRepository, type PgRepository } from '../../../../src/store/postgres/repository.js';

export interface StoreReader {
  /** Every request, live and finished. */
  all(): Promise<DeskRequest[]>;
  get(id: string): Promise<DeskRequest | undefined>;
  readonly db: Database;
  close(): Promise<void>;
}

export async function readStore(databaseUrl: string): Promise<StoreReader> {
  const db = await openDatabase({ url: databaseUrl, warn: () => {}, maxConnections: 2 });
  let repo: PgRepository<DeskRequest>;
  try {
    repo = await openPgRepository<DeskRequest>(db, { name: DESK_REQUEST_STORE_NAME, schema: DESK_REQUEST_SCHEMA, isFinished: isFinishedRequest, version: DESK_REQUEST_VERSION });
  } catch (err) {
    await db.close();
    throw err;
  }
  return {
    db,
    all: async () => [...(await repo.listLive()), ...(await repo.recentHistory(100_000))],
    get: (id) => repo.get(id),
    async close() {
      await repo.close();
      await db.close();
    },
  };
}
