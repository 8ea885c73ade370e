/**
 * Reminders with two replicas on PostgreSQL: only a leader's tick sends them, and a new leader
 * never repeats what the old one sent (each reminder is on the shared record, written with its event).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Clock } from '../../src/bot/ports/clock.js';
import { LeadershipState } from '../../src/bot/ports/leadership.js';
import { createLogger } from '../../src/bot/runtime/logger.js';
import { openStores, type Stores } from '../../src/bot/runtime/stores.js';
import { describePostgres, usePostgres } from '../support/postgres.js';
import { startTestBot, USERS, type TestBot } from './support/test-bot.js';
import { requestCrypto } from './support/flows.js';

const MIN = 60_000;

describePostgres('reminders across replicas on PostgreSQL', () => {
  const pg = usePostgres();
  let a: TestBot<Stores>;
  const leadA = new LeadershipState('leader');
  const leadB = new LeadershipState('follower');
  beforeEach(async () => {
    const url = await pg.cluster.createDatabase();
    a = await startTestBot({
      leadership: leadA,
      stores: (clock: Clock) =>
        openStores({ databaseUrl: url }, clock, [], createLogger({ level: 'error', secrets: [], write: () => {} })),
    });
    await a.replica(leadB);
  });
  afterEach(async () => {
    await a.stop();
  });

  const reminders = () =>
    a.fake
      .callsTo('chat.postMessage')
      .filter((c) => c.args.channel === USERS.approver1 && String(c.args.text).includes('Reminder: request'))
      .map((c) => JSON.stringify(c.args.blocks).match(/Reminder (\d) of 3/)?.[1]);

  it('go out once, from the leader', async () => {
    await requestCrypto(a);
    // Both replicas tick (runFor ticks every desk); only A leads.
    await a.runFor(30 * MIN, 5 * MIN);
    await a.settle();
    expect(reminders()).toEqual(['1']);

    // Nobody leads: nothing goes out, however long it waits.
    leadA.set('follower');
    await a.runFor(40 * MIN, 5 * MIN);
    await a.settle();
    expect(reminders()).toEqual(['1']);

    // B takes over: the second reminder, once; the first is not sent again.
    leadB.set('leader');
    await a.runFor(5 * MIN, 5 * MIN);
    await a.settle();
    expect(reminders()).toEqual(['1', '2']);
  });
});
