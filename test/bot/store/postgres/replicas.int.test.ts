/**
 * Two replicas on one database, each with its own pool and its own store instances (so nothing in
 * one process's memory serializes them): the database alone keeps a record's changes, its outbox
 * order and the audit chain whole.
 */
import { afterEach, expect, it } from 'vitest';
import type { RequestEvent } from '../../../../src/bot/ports/events.js';
import { verifyAudit } from '../../../../src/bot/store/audit-verify.js';
import { pgAuditLines } from '../../../../src/bot/store/postgres/audit-lines.js';
import { openPgAuditLog, type PgAuditLog } from '../../../../src/bot/store/postgres/audit-log.js';
import { openDatabase, type Database } from '../../../../src/bot/store/postgres/database.js';
import { openPgKeyValueStore } from '../../../../src/bot/store/postgres/kv.js';
import { openPgRepository, type PgRepository } from '../../../../src/bot/store/postgres/repository.js';
import type { DurableKeyValueStore } from '../../../../src/bot/store/kv.js';
import { describePostgres, usePostgres } from '../../../support/postgres.js';
import { isFinished, rec, TestRecordSchema, type TestRecord } from '../support/records.js';

interface Replica {
  db: Database;
  requests: PgRepository<TestRecord>;
  audit: PgAuditLog;
  kv: DurableKeyValueStore;
}

describePostgres('two replicas on one PostgreSQL database', () => {
  const pg = usePostgres();
  const open: Replica[] = [];
  afterEach(async () => {
    for (const r of open.splice(0)) {
      await r.requests.close();
      await r.audit.close();
      await r.kv.close();
      await r.db.close();
    }
  });

  async function replicas(url: string): Promise<[Replica, Replica]> {
    const one = async (): Promise<Replica> => {
      const db = await openDatabase({ url, warn: () => {}, maxConnections: 5 });
      const r = {
        db,
        requests: await openPgRepository(db, { name: 'requests', schema: TestRecordSchema, isFinished, version: 1 }),
        audit: openPgAuditLog(db, { clock: { now: Date.now } }),
        kv: openPgKeyValueStore(db),
      };
      open.push(r);
      return r;
    };
    // Both start together: both run the migrations, one waits for the other.
    return Promise.all([one(), one()]);
  }

  it('mutateInScope on both: 40 racing claims of new records against a budget of 5 make exactly 5', async () => {
    const [a, b] = await replicas(await pg.cluster.createDatabase());
    const claim = (r: Replica, i: number) =>
      r.requests.mutateInScope({ since: 0 }, `C${i}`, (_current, others) =>
        others.length < 5 ? { next: rec(`C${i}`, 'executing', 1), result: true } : { result: false },
      );
    const claimed = await Promise.all(Array.from({ length: 40 }, (_, i) => claim(i % 2 ? a : b, i)));
    expect(claimed.filter(Boolean)).toHaveLength(5);
    expect(await a.requests.listLive()).toHaveLength(5);
  });

  it('100 increments of a new record spread over both: it is created once and ends at 100', async () => {
    const [a, b] = await replicas(await pg.cluster.createDatabase());
    const bump = (r: Replica) =>
      r.requests.mutate('R1', (cur) => ({
        next: cur ? { ...cur, count: cur.count + 1 } : rec('R1', 'pending', 1),
        result: cur === undefined,
      }));
    const created = await Promise.all(Array.from({ length: 100 }, (_, i) => bump(i % 2 ? a : b)));
    expect(created.filter(Boolean)).toHaveLength(1);
    expect((await a.requests.get('R1'))?.count).toBe(100);
    expect((await b.requests.get('R1'))?.count).toBe(100);
  });

  it("keeps one request's outbox in the order of its changes across both", async () => {
    const [a, b] = await replicas(await pg.cluster.createDatabase());
    await a.requests.mutate('R1', () => ({ next: rec('R1'), result: null }));
    const event = (n: number) => ({ type: 'count', at: 1, requestId: 'R1', request: {}, n }) as unknown as RequestEvent;
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? a : b).requests.mutate('R1', (cur) => ({
          next: { ...cur!, count: cur!.count + 1 },
          result: null,
          outbox: [event(cur!.count + 1)],
        })),
      ),
    );
    const seen = (await b.requests.outbox.pending()).map((e) => (e.event as unknown as { n: number }).n);
    expect(seen).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  });

  it('one audit chain: 2 x 50 concurrent appends from both verify as one chain of 100', async () => {
    const [a, b] = await replicas(await pg.cluster.createDatabase());
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        (i % 2 ? a : b).audit.append({ type: 'approval.counted', actor: `U${i}`, requestId: `R${i % 7}` }),
      ),
    );
    const result = await verifyAudit(pgAuditLines(a.db.pool, a.db.where));
    expect(result).toMatchObject({ ok: true, entries: 100 });
  });

  it('one claim wins: 2 x 20 setIfAbsent of one key from both', async () => {
    const [a, b] = await replicas(await pg.cluster.createDatabase());
    const claims = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).kv.setIfAbsent('form:V1', { replica: i % 2 ? 'a' : 'b', i }),
      ),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await b.kv.get('form:V1')).toEqual({
      replica: claims.indexOf(true) % 2 ? 'a' : 'b',
      i: claims.indexOf(true),
    });
  });
});
