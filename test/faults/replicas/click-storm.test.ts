/**
 * Issue 14: 1,000 concurrent approval clicks spread over both replicas execute each request once.
 * REPLICA_STORM_REQUESTS withdrawals (default 100) are asked for in Slack on both replicas; then
 * every click is sent at once, 10 per request: each of the three approvers clicks, some twice or
 * three times, some of those as Slack's redeliveries, and the requester once (refused: their own
 * request), each to a replica drawn by a seeded load balancer. Every request must end with two
 * distinct approvers, none of them the requester, and exactly one withdrawal on the exchange.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRng } from '../../../src/sandbox/prng.js';
import { describePostgres, usePostgres } from '../../support/postgres.js';
import { checkExactlyOnce } from './support/exactly-once.js';
import { readStore } from './support/records.js';
import { bundleReplicas, DESK_PEOPLE, startReplicaSet, type ReplicaBundles, type ReplicaSet } from './support/replica-set.js';
import { approvalMessage, clickApprove, requestWithdrawal, type ApprovalMessage } from './support/slack-flows.js';
import { poll } from './support/watch.js';

const REQUESTS = Number(process.env.REPLICA_STORM_REQUESTS ?? 100);
const CLICKS_PER_REQUEST = 10;
/** Forms filled at once while the requests are made. */
const FORMS_AT_ONCE = 10;

describePostgres('a storm of approval clicks over two replicas', () => {
  const pg = usePostgres();
  let bundles: ReplicaBundles;
  let set: ReplicaSet;
  beforeAll(async () => {
    bundles = await bundleReplicas();
    set = await startReplicaSet(bundles, { cluster: pg.cluster, seed: 'click-storm' });
  }, 60_000);
  afterAll(async () => {
    await set?.stop();
    bundles?.dispose();
  }, 30_000);

  it(`${REQUESTS * CLICKS_PER_REQUEST} clicks at once on ${REQUESTS} requests: each executed exactly once`, async () => {
    const rng = createRng('click-storm');
    const { replicas, fake } = set;
    const before = new Set((await set.sandbox.withdrawals()).map((w) => w.id));

    const madeAt = Date.now();
    const ids: string[] = [];
    for (let start = 0; start < REQUESTS; start += FORMS_AT_ONCE) {
      const batch = Array.from({ length: Math.min(FORMS_AT_ONCE, REQUESTS - start) }, (_, k) => start + k);
      ids.push(...(await Promise.all(batch.map((i) => requestWithdrawal(set, replicas[i % 2]!, `${1_000 + i}.50`, { submitVia: replicas[(i + 1) % 2]!, timeoutMs: 30_000 })))));
    }
    const messages = await Promise.all(ids.map((id) => approvalMessage(fake, id, 30_000)));
    const madeMs = Date.now() - madeAt;

    const [ap1, ap2, ap3] = DESK_PEOPLE.approvers;
    const clicks = messages.flatMap((m) => clicksOn(m));
    function clicksOn(m: ApprovalMessage) {
      const who = [ap1, ap2, ap3, ap1, ap2, ap3, ap1, ap2, ap3, DESK_PEOPLE.requester];
      // Shuffled: which approver's click lands first differs per request.
      for (let i = who.length - 1; i > 0; i--) {
        const j = rng.int(0, i);
        [who[i], who[j]] = [who[j]!, who[i]!];
      }
      const seen = new Set<string>();
      return who.slice(0, CLICKS_PER_REQUEST).map((userId, n) => {
        // A repeat of the same person is a redelivery of their click now and then, otherwise a second click.
        const redelivery = seen.has(userId) && rng.next() < 0.5;
        seen.add(userId);
        return { m, userId, via: rng.pick(replicas), redelivery, responseId: `storm-${m.requestId}-${n}` };
      });
    }
    expect(clicks).toHaveLength(REQUESTS * CLICKS_PER_REQUEST);
    const clickedAt = Date.now();
    const answers = await Promise.all(
      clicks.map((c) => clickApprove(fake, c.via, c.userId, c.m, { responseId: c.responseId, ...(c.redelivery ? { sign: { retry: { num: 1, reason: 'http_timeout' } } } : {}) })),
    );
    const answeredMs = Date.now() - clickedAt;
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    const ackMs = answers.map((a) => a.elapsedMs).sort((x, y) => x - y);

    const store = await readStore(set.databaseUrl);
    try {
      await poll('every request executed', async () => ((await store.all()).filter((r) => ids.includes(r.id)).every((r) => r.state === 'submitted' || r.state === 'completed') ? true : undefined), 60_000);
      const executedMs = Date.now() - clickedAt;
      const records = (await store.all()).filter((r) => ids.includes(r.id));
      for (const r of records) {
        const approvers = r.approvals.map((a) => a.userId);
        expect(new Set(approvers).size, `${r.id} approvals ${approvers.join(',')}`).toBe(2);
        expect(approvers).toHaveLength(2);
        expect(approvers).not.toContain(DESK_PEOPLE.requester);
      }
      await set.sandbox.advance(61_000);
      await poll('every request completed', async () => ((await store.all()).filter((r) => ids.includes(r.id)).every((r) => r.state === 'completed') ? true : undefined), 30_000).catch(() => undefined);
      const once = checkExactlyOnce(ids, await store.all(), (await set.sandbox.withdrawals()).filter((w) => !before.has(w.id)));
      const executors = replicas.map((r) => `${r.name} ${r.exchangeCalls.filter((c) => c.line === 'POST /public_api/v1/crypto/withdrawals').length}`);
      console.log(
        `click storm: ${clicks.length} clicks (${clicks.filter((c) => c.redelivery).length} redeliveries) on ${REQUESTS} requests made in ${madeMs} ms; ` +
          `all acknowledged in ${answeredMs} ms (ack p50 ${Math.round(ackMs[Math.floor(ackMs.length / 2)]!)} ms, p99 ${Math.round(ackMs[Math.floor(ackMs.length * 0.99)]!)} ms, max ${Math.round(ackMs.at(-1)!)} ms), ` +
          `all executed ${executedMs} ms after the first click (withdrawals sent by ${executors.join(', ')}); duplicates ${once.duplicates}, unfinished ${once.unfinished.length}`,
      );
      expect(once.problems).toEqual([]);
      expect(once.duplicates).toBe(0);
      expect(once.notExecuted).toEqual([]);
      expect(once.unfinished).toEqual([]);
      expect(once.requests).toBe(REQUESTS);
    } finally {
      await store.close();
    }
  }, 180_000);
});
