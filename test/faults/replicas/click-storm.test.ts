/**
 * Issue 14: 1,000 concurrent approval clicks spread over both replicas execute each request once.
 * REPLICA_STORM_REQUESTS withdrawals (default 100) get 10 clicks each, all sent at once
 * (support/click-storm.ts: three approvers clicking again and redelivered, the requester refused,
 * a seeded load balancer). Every request must end with two distinct approvers, none of them the
 * requester, and exactly one withdrawal on the exchange, completed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describePostgres, usePostgres } from '../../support/postgres.js';
import { CLICKS_PER_REQUEST, quantile, runClickStorm } from './support/click-storm.js';
import { bundleReplicas, startReplicaSet, type ReplicaBundles, type ReplicaSet } from './support/replica-set.js';

const REQUESTS = Number(process.env.REPLICA_STORM_REQUESTS ?? 100);

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
    const storm = await runClickStorm(set, { requests: REQUESTS, seed: 'click-storm' });
    const { once } = storm;
    console.log(
      `click storm: ${storm.clicks} clicks (${storm.redeliveries} redeliveries) on ${REQUESTS} requests made in ${storm.madeMs} ms; ` +
        `acks p50 ${Math.round(quantile(storm.ackMs, 0.5))} ms, p99 ${Math.round(quantile(storm.ackMs, 0.99))} ms, max ${Math.round(storm.ackMs.at(-1)!)} ms; ` +
        `all executed ${storm.executedMs} ms after the first click (withdrawals sent by ${JSON.stringify(storm.sentBy)}); duplicates ${once.duplicates}, unfinished ${once.unfinished.length}`,
    );
    expect(storm.clicks).toBe(REQUESTS * CLICKS_PER_REQUEST);
    expect(storm.notAcknowledged).toBe(0);
    expect(storm.badApprovals).toEqual([]);
    expect(once.problems).toEqual([]);
    expect(once.duplicates).toBe(0);
    expect(once.notExecuted).toEqual([]);
    expect(once.unfinished).toEqual([]);
    expect(once.requests).toBe(REQUESTS);
  }, 180_000);
});
