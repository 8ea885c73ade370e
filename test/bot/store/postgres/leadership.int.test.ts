/**
 * Leadership on PostgreSQL: replicas each with their own lock session (short polls here, 200 ms).
 * The roles are sampled every 10 ms throughout: two leaders at once is never seen.
 */
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { openPgLeadership, type PgLeadership } from '../../../../src/bot/store/postgres/leadership.js';
import { describePostgres, usePostgres } from '../../../support/postgres.js';
import { startTcpProxy } from '../../../support/tcp-proxy.js';
import { until } from '../../../support/until.js';

const POLL_MS = 200;

describePostgres('leadership on PostgreSQL', () => {
  // A cluster of its own: a test here restarts PostgreSQL, and other files use the run's shared one meanwhile.
  const pgc = usePostgres({ own: true });
  const open: PgLeadership[] = [];
  let sampler: NodeJS.Timeout | undefined;
  let overlaps = 0;
  afterEach(async () => {
    clearInterval(sampler);
    for (const l of open.splice(0)) await l.close();
  });

  async function replicas(urls: string[]): Promise<PgLeadership[]> {
    const made: PgLeadership[] = [];
    for (const url of urls) made.push(await openPgLeadership({ url, warn: () => {}, pollMs: POLL_MS }));
    open.push(...made);
    overlaps = 0;
    sampler = setInterval(() => {
      if (made.filter((l) => l.isLeader()).length > 1) overlaps++;
    }, 10);
    return made;
  }
  const leaderOf = (ls: PgLeadership[]) =>
    ls.filter((l) => l.isLeader()).length === 1 ? ls.find((l) => l.isLeader()) : undefined;

  it('one of three leads; when it stops, another takes over within a poll or two', async () => {
    const url = await pgc.cluster.createDatabase();
    const ls = await replicas([url, url, url]);
    expect(ls.map((l) => l.role())).toEqual(['leader', 'follower', 'follower']);
    const changes: string[] = [];
    ls[1]!.onChange((role) => changes.push(role));
    await ls[0]!.close();
    const started = performance.now();
    const next = await until('a new leader', () => leaderOf(ls.slice(1)), 3_000);
    expect(performance.now() - started).toBeLessThan(3 * POLL_MS);
    expect(next.role()).toBe('leader');
    expect(overlaps).toBe(0);
    if (next === ls[1]) expect(changes).toEqual(['leader']);
  });

  it('a leader whose session PostgreSQL ends steps down, and the lock goes to one replica', async () => {
    const url = await pgc.cluster.createDatabase();
    const ls = await replicas([url, url]);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND objid = 3 AND granted",
      );
    } finally {
      await admin.end();
    }
    await until('the old leader to step down or hold again', () => (ls[0]!.isLeader() ? undefined : true), 3_000).catch(
      () => undefined,
    );
    await until('one leader', () => leaderOf(ls), 3_000);
    await new Promise((r) => setTimeout(r, 3 * POLL_MS));
    expect(ls.filter((l) => l.isLeader())).toHaveLength(1);
    expect(overlaps).toBe(0);
  });

  it('a leader cut off from the database steps down before the other replica takes over', async () => {
    const url = await pgc.cluster.createDatabase();
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: pgc.cluster.port });
    try {
      const [cut, other] = await replicas([url.replace(`:${pgc.cluster.port}/`, `:${proxy.port}/`), url]);
      expect(cut!.isLeader()).toBe(true);
      const partitionedAt = performance.now();
      proxy.partition();
      await until('the cut-off leader to step down', () => (cut!.isLeader() ? undefined : true), 3_000);
      const steppedDown = performance.now() - partitionedAt;
      await until('the other replica to lead', () => (other!.isLeader() ? true : undefined), 5_000);
      const tookOver = performance.now() - partitionedAt;
      // Steps down within 2 polls of its last good check; the server frees the lock after 5.
      expect(steppedDown).toBeLessThan(3 * POLL_MS);
      expect(tookOver).toBeGreaterThan(steppedDown);
      expect(tookOver).toBeLessThan(8 * POLL_MS);
      expect(overlaps).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it('after a PostgreSQL restart exactly one replica leads again', async () => {
    const url = await pgc.cluster.createDatabase();
    const ls = await replicas([url, url]);
    await pgc.cluster.restart();
    await until('one leader after the restart', () => leaderOf(ls), 5_000);
    await new Promise((r) => setTimeout(r, 3 * POLL_MS));
    expect(ls.filter((l) => l.isLeader())).toHaveLength(1);
    expect(overlaps).toBe(0);
  });
});
