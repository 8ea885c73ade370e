/**
 * Issue 14: PostgreSQL restarted mid-run (pg_ctl restart -m fast: every session ended, the
 * leader's lock with it) under two replicas with work in every stage: withdrawals submitted and
 * followed, executions starting, approvals being clicked on both replicas and requests being made
 * while the server is away. People act as people do: a click or a form that got an error or no
 * answer is tried again (on the other replica, as the load balancer picks). Afterwards both
 * replicas are ready again with one leader, every request the bot confirmed (an id shown in the
 * form) is in the store and completed, the exchange's ledger shows each executed once, and every
 * counted approval has its audit line in a chain that verifies.
 */
import { QUERY_TIMEOUT_MS } from '../../../src/bot/store/postgres/pool.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describePostgres, usePostgres } from '../../support/postgres.js';
import { checkExactlyOnce } from './support/exactly-once.js';
import { readStore, type StoreReader } from './support/records.js';
import {
  bundleReplicas,
  DESK_PEOPLE,
  startReplicaSet,
  type Replica,
  type ReplicaBundles,
  type ReplicaSet,
} from './support/replica-set.js';
import { approvalMessage, approveUntilCounted, requestWithdrawal } from './support/slack-flows.js';
import { leaderOf, poll } from './support/watch.js';

const BEFORE = 8;
/** Both replicas ready again within the pool's bound on a query left unanswered, and some room for a loaded machine. */
const READY_AFTER_RESTART_MS = QUERY_TIMEOUT_MS + 15_000;
const DURING = 4;

describePostgres('PostgreSQL restarted under two replicas', () => {
  // A cluster of its own: a test here restarts PostgreSQL, and other files use the run's shared one meanwhile.
  const pg = usePostgres({ own: true });
  let bundles: ReplicaBundles;
  let set: ReplicaSet;
  let store: StoreReader;
  beforeAll(async () => {
    bundles = await bundleReplicas();
    set = await startReplicaSet(bundles, { cluster: pg.cluster, seed: 'pg-restart' });
    store = await readStore(set.databaseUrl);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await set?.stop();
    bundles?.dispose();
  }, 30_000);

  /** A person asking for a withdrawal until the form shows its id (an error or no answer: again, on the next replica). */
  async function askUntilConfirmed(amount: string, vias: readonly Replica[]): Promise<string> {
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        return await requestWithdrawal(set, vias[attempt % vias.length]!, amount, { timeoutMs: 4_000 });
      } catch {
        await new Promise((r) => setTimeout(r, 300));
      }
    }
    throw new Error(`the withdrawal of ${amount} was never confirmed`);
  }

  it('loses no request: both replicas come back, every confirmed request is executed once and completed', async () => {
    const [a, b] = set.replicas as [Replica, Replica];
    const before = new Set((await set.sandbox.withdrawals()).map((w) => w.id));
    const ids: string[] = [];
    for (let i = 0; i < BEFORE; i++) ids.push(await requestWithdrawal(set, i % 2 ? b : a, `${300 + i}.25`));
    const messages = await Promise.all(ids.map((id) => approvalMessage(set.fake, id)));
    const read = (id: string) => store.get(id);
    // Half are approved, executed and followed before the restart.
    for (const m of messages.slice(0, BEFORE / 2))
      for (const user of DESK_PEOPLE.approvers.slice(0, 2)) await approveUntilCounted(set, read, m, user, [a, b]);

    // The rest are approved one click after another on both replicas while the server restarts,
    // and new requests are asked for meanwhile.
    const approving = Promise.all(
      messages.slice(BEFORE / 2).map(async (m, k) => {
        let clicks = 0;
        for (const user of DESK_PEOPLE.approvers.slice(1, 3))
          clicks += await approveUntilCounted(set, read, m, user, k % 2 ? [b, a] : [a, b]);
        return clicks;
      }),
    ).then((counts) => counts.reduce((x, y) => x + y, 0));
    let askingClicks = 0;
    const asking = (async () => {
      const made: string[] = [];
      for (let i = 0; i < DURING; i++) {
        const id = await askUntilConfirmed(`${400 + i}.75`, i % 2 ? [b, a] : [a, b]);
        made.push(id);
        const m = await poll(
          `the approval message of ${id}`,
          async () => approvalMessage(set.fake, id, 1_000).catch(() => undefined),
          20_000,
        );
        for (const user of DESK_PEOPLE.approvers.slice(0, 2))
          askingClicks += await approveUntilCounted(set, read, m, user, i % 2 ? [a, b] : [b, a]);
      }
      return made;
    })();
    await new Promise((r) => setTimeout(r, 150));
    const logMarks = [a, b].map((r) => r.logs().length);
    const restartedAt = Date.now();
    await pg.cluster.restart();
    const serverBackMs = Date.now() - restartedAt;
    const [clicks, made] = await Promise.all([approving, asking]);
    ids.push(...made);

    // Both replicas reconnect: ready, one of them leading.
    // The last answers go into the timeout's message: which replica, and which check failed. A query
    // on a connection the restart left without an answer is given up at the pool's query_timeout.
    let lastReady: unknown[] = [];
    await poll(
      'both replicas ready',
      async () => {
        const answers = await Promise.all([a.readyz(), b.readyz()]);
        lastReady = answers.map((r, i) => r ?? `no answer (process ${[a, b][i]!.child ? 'running' : 'exited'})`);
        return answers.every((r) => r?.ready) ? true : undefined;
      },
      READY_AFTER_RESTART_MS,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; last /readyz answers (A, B): ${JSON.stringify(lastReady)}`);
    });
    await leaderOf([a, b]);
    const backMs = Date.now() - restartedAt;
    await poll(
      'every request submitted',
      async () =>
        (await store.all())
          .filter((r) => ids.includes(r.id))
          .every((r) => r.state === 'submitted' || r.state === 'completed')
          ? true
          : undefined,
      20_000,
    );
    await set.sandbox.advance(61_000);
    await poll(
      'every request completed',
      async () =>
        (await store.all()).filter((r) => ids.includes(r.id)).every((r) => r.state === 'completed') ? true : undefined,
      20_000,
    ).catch(() => undefined);

    const once = checkExactlyOnce(
      ids,
      await store.all(),
      (await set.sandbox.withdrawals()).filter((w) => !before.has(w.id)),
    );
    const since = (r: Replica, k: number) => r.logs().slice(logMarks[k]);
    const restartLines = [a, b].map(
      (r, k) => since(r, k).filter((l) => String(l.msg).includes('leadership: the database session')).length,
    );
    const errors = [a, b].flatMap((r, k) => since(r, k).filter((l) => l.level === 'error'));
    console.log(
      `PostgreSQL restart: server back in ${serverBackMs} ms, both replicas ready with one leader ${backMs} ms after the restart began; ` +
        `${ids.length} requests (${made.length} asked for across the restart), ${clicks + askingClicks} clicks for ${(BEFORE / 2 + DURING) * 2} approvals across it, ${errors.length} errors logged (${[...new Set(errors.map((l) => String(l.msg).slice(0, 60)))].join(' | ')}); duplicates ${once.duplicates}, unfinished ${once.unfinished.length}`,
    );
    expect(once.problems).toEqual([]);
    expect(once.duplicates).toBe(0);
    expect(once.notExecuted).toEqual([]);
    expect(once.unfinished).toEqual([]);
    expect(once.requests).toBe(BEFORE + DURING);
    // The restart was felt: the leader lost its session and said so.
    expect(restartLines.some((n) => n > 0)).toBe(true);
    for (const r of [a, b]) expect(r.child?.proc.exitCode, `${r.name} still runs`).toBeNull();
    // Nothing the restart cut in two lost its audit line: each counted approval has its own, and the chain is whole.
    const unaudited: string[] = [];
    for (const r of (await store.all()).filter((x) => ids.includes(x.id))) {
      const lines = await store.auditOf(r.id);
      for (const { userId } of r.approvals)
        if (!lines.some((l) => l.type === 'approval.counted' && l.actor === userId))
          unaudited.push(`${r.id} approved by ${userId}`);
    }
    expect(unaudited).toEqual([]);
    expect(await store.verifyAudit()).toMatchObject({ ok: true });
  }, 120_000);
});
