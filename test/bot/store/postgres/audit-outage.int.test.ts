/**
 * The audit chain on PostgreSQL when the connection breaks under an append: the line must be
 * written exactly once, not lost. An approval is persisted in its own transaction and its audit
 * line in the next one; a server restart between the two (the replica fault suite's PostgreSQL
 * restart met it) used to leave a counted approval with no `approval.counted` line.
 */
import { afterEach, expect, it } from 'vitest';
import { verifyAudit } from '../../../../src/bot/store/audit-verify.js';
import { pgAuditLines } from '../../../../src/bot/store/postgres/audit-lines.js';
import { openPgAuditLog } from '../../../../src/bot/store/postgres/audit-log.js';
import { openDatabase, type Database } from '../../../../src/bot/store/postgres/database.js';
import { describePostgres, usePostgres } from '../../../support/postgres.js';
import { startTcpProxy, type TcpProxy } from '../../../support/tcp-proxy.js';

describePostgres('an audit append when the connection to PostgreSQL breaks', () => {
  // A cluster of its own: a test here restarts PostgreSQL, and other files use the run's shared one meanwhile.
  const pg = usePostgres({ own: true });
  let db: Database | undefined;
  let proxy: TcpProxy | undefined;
  afterEach(async () => {
    await db?.close();
    await proxy?.close();
    db = undefined;
    proxy = undefined;
  });

  /** The audit log on a database reached through a proxy that breaks the first connection sending `marker`. */
  async function behindProxy(marker: string) {
    const url = await pg.cluster.createDatabase();
    proxy = await startTcpProxy({ host: '127.0.0.1', port: pg.cluster.port });
    db = await openDatabase({
      url: url.replace(`:${pg.cluster.port}/`, `:${proxy.port}/`),
      warn: () => {},
      maxConnections: 2,
    });
    const audit = openPgAuditLog(db, { clock: { now: Date.now } });
    await audit.append({ type: 'before', actor: 'system' });
    let cut = false;
    const arm = () =>
      (proxy!.cutWhen = (chunk) => {
        if (cut || !chunk.includes(marker)) return false;
        cut = true;
        return true;
      });
    return { audit, db, arm, cut: () => cut };
  }

  const types = async (d: Database) =>
    (await d.pool.query<{ type: string }>('SELECT type FROM audit_log ORDER BY seq')).rows.map((r) => r.type);

  it('broken inside its transaction (nothing committed): written on a new connection', async () => {
    const { audit, db: d, arm, cut } = await behindProxy('pg_advisory_xact_lock');
    arm();
    await audit.append({ type: 'approval.counted', actor: 'U0APP0001', requestId: 'R1' });
    expect(cut()).toBe(true);
    expect(await types(d)).toEqual(['before', 'approval.counted']);
    expect(await verifyAudit(pgAuditLines(d.pool, d.where))).toMatchObject({ ok: true, entries: 2 });
  });

  it('its COMMIT answer lost (it was committed): resolved, and not written a second time', async () => {
    const { audit, db: d, arm, cut } = await behindProxy('COMMIT\0');
    arm();
    await audit.append({ type: 'approval.counted', actor: 'U0APP0001', requestId: 'R1' });
    expect(cut()).toBe(true);
    expect(await types(d)).toEqual(['before', 'approval.counted']);
    expect(await verifyAudit(pgAuditLines(d.pool, d.where))).toMatchObject({ ok: true, entries: 2 });
  });

  it('appended while the server restarts: every line written once it is back, in order', async () => {
    const url = await pg.cluster.createDatabase();
    db = await openDatabase({ url, warn: () => {}, maxConnections: 4 });
    const audit = openPgAuditLog(db, { clock: { now: Date.now } });
    await audit.append({ type: 'line 0', actor: 'system' });
    const restarting = pg.cluster.restart();
    const appends: Promise<void>[] = [];
    for (let i = 1; i <= 12; i++) {
      appends.push(audit.append({ type: `line ${i}`, actor: 'system' }));
      await new Promise((r) => setTimeout(r, 40));
    }
    await restarting;
    await Promise.all(appends);
    expect(await types(db)).toEqual(Array.from({ length: 13 }, (_, i) => `line ${i}`));
    expect(await verifyAudit(pgAuditLines(db.pool, db.where))).toMatchObject({ ok: true, entries: 13 });
  }, 30_000);
});
