/**
 * PostgreSQL going away under a running store: a restart of the server (every session ended), a
 * session killed while idle in the pool, and one killed in the middle of a transaction. The
 * process must live on (an unhandled 'error' event from node-postgres would end it, and this test
 * file with it), and the next operations must succeed on new connections.
 */
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { verifyAudit } from '../../../../src/bot/store/audit-verify.js';
import { pgAuditLines } from '../../../../src/bot/store/postgres/audit-lines.js';
import { openPgAuditLog } from '../../../../src/bot/store/postgres/audit-log.js';
import { openDatabase, type Database } from '../../../../src/bot/store/postgres/database.js';
import { openPgKeyValueStore } from '../../../../src/bot/store/postgres/kv.js';
import { CommitOutcomeUnknownError } from '../../../../src/bot/store/postgres/errors.js';
import { transaction } from '../../../../src/bot/store/postgres/pool.js';
import { openPgRepository } from '../../../../src/bot/store/postgres/repository.js';
import { describePostgres, usePostgres } from '../../../support/postgres.js';
import { startTcpProxy } from '../../../support/tcp-proxy.js';
import { until } from '../../../support/until.js';
import { isFinished, rec, TestRecordSchema } from '../support/records.js';

async function terminateOthers(url: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'desk-bot' AND pid <> pg_backend_pid()",
    );
    return rows.length;
  } finally {
    await admin.end();
  }
}

describePostgres('the PostgreSQL store when the server restarts or ends sessions', () => {
  // A cluster of its own: a test here restarts PostgreSQL, and other files use the run's shared one meanwhile.
  const pg = usePostgres({ own: true });
  let db: Database | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  async function open(warnings: string[]) {
    const url = await pg.cluster.createDatabase();
    db = await openDatabase({ url, warn: (m) => warnings.push(m), maxConnections: 4 });
    const requests = await openPgRepository(db, { name: 'requests', schema: TestRecordSchema, isFinished, version: 1 });
    const kv = openPgKeyValueStore(db);
    const audit = openPgAuditLog(db, { clock: { now: Date.now } });
    return { url, db, requests, kv, audit };
  }

  it('reconnects after pg_ctl restart: mutate, read, kv and the audit chain carry on', async () => {
    const warnings: string[] = [];
    const { db, requests, kv, audit } = await open(warnings);
    // Several idle connections in the pool when the server goes.
    await Promise.all(['A', 'B', 'C'].map((id) => requests.mutate(id, () => ({ next: rec(id), result: null }))));
    await audit.append({ type: 'before', actor: 'system' });
    await kv.set('k', 1);

    await pg.cluster.restart();
    await until('the pool to report its closed connections', () =>
      warnings.some((w) => /PostgreSQL closed an idle connection/.test(w)) ? true : undefined,
    );

    await requests.mutate('A', (cur) => ({ next: { ...cur!, count: 1 }, result: null }));
    expect((await requests.get('A'))?.count).toBe(1);
    expect((await requests.listLive()).map((r) => r.id).sort()).toEqual(['A', 'B', 'C']);
    await kv.set('k', 2);
    expect(await kv.get('k')).toBe(2);
    await audit.append({ type: 'after', actor: 'system' });
    expect(await verifyAudit(pgAuditLines(db.pool, db.where))).toMatchObject({ ok: true, entries: 2 });
    expect(warnings.join('\n')).not.toContain(pg.cluster.password);
  });

  it('a read on a connection killed while idle is tried again on a new one', async () => {
    const warnings: string[] = [];
    const { url, requests } = await open(warnings);
    await requests.mutate('A', () => ({ next: rec('A'), result: null }));
    expect(await terminateOthers(url)).toBeGreaterThan(0);
    expect((await requests.get('A'))?.id).toBe('A');
    await requests.mutate('A', (cur) => ({ next: { ...cur!, count: 2 }, result: null }));
    expect((await requests.get('A'))?.count).toBe(2);
  });

  it('a session killed inside a transaction fails that transaction only; its connection is dropped, not reused', async () => {
    const { url, db: opened, requests } = await open([]);
    await requests.mutate('A', () => ({ next: rec('A'), result: null }));
    const attempt = transaction(opened.pool, async (client) => {
      await client.query('UPDATE records SET body = \'{"id":"A","state":"pending","count":99}\' WHERE id = \'A\'');
      await terminateOthers(url);
      await client.query('SELECT 1');
    });
    await expect(attempt).rejects.toThrow(/terminat|connection error/i);
    expect((await requests.get('A'))?.count).toBe(0);
    await requests.mutate('A', (cur) => ({ next: { ...cur!, count: 3 }, result: null }));
    expect((await requests.get('A'))?.count).toBe(3);
  });

  it('a COMMIT whose answer is lost says the outcome is unknown; a read then shows it was stored', async () => {
    const url = await pg.cluster.createDatabase();
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: pg.cluster.port });
    try {
      db = await openDatabase({
        url: url.replace(`:${pg.cluster.port}/`, `:${proxy.port}/`),
        warn: () => {},
        maxConnections: 2,
      });
      const requests = await openPgRepository(db, {
        name: 'requests',
        schema: TestRecordSchema,
        isFinished,
        version: 1,
      });
      await requests.mutate('A', () => ({ next: rec('A'), result: null }));
      // node-postgres sends a plain COMMIT as a simple query: 'Q', length, "COMMIT\0".
      proxy.cutWhen = (chunk) => chunk.includes('COMMIT\0');
      const lost = requests.mutate('A', (cur) => ({ next: { ...cur!, count: 7 }, result: null }));
      await expect(lost).rejects.toThrow(CommitOutcomeUnknownError);
      await expect(lost).rejects.toThrow(/broke while a change was being committed .*it may or may not be stored/);
      proxy.cutWhen = undefined;
      expect((await requests.get('A'))?.count).toBe(7);
      await requests.mutate('A', (cur) => ({ next: { ...cur!, count: 8 }, result: null }));
      expect((await requests.get('A'))?.count).toBe(8);
      await requests.close();
    } finally {
      await db?.close();
      db = undefined;
      await proxy.close();
    }
  });
});
