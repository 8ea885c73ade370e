/**
 * The one scheduler: leader jobs run only while this replica leads and stop when it stops leading;
 * an every-replica job runs throughout; a long-interval job is not run again by a replica that
 * leads again within its interval; a job's `first` (the engine's recovery) comes before its rounds.
 */
import { describe, expect, it } from 'vitest';
import { runScheduled } from '../../../src/bot/engine/run-loop.js';
import { LeadershipState } from '../../../src/bot/ports/leadership.js';
import { FakeClock } from '../../support/fake-clock.js';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
/** Lets every loop run what is due now (each round and sleep is a few promise turns). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('runScheduled', () => {
  it('runs leader jobs only while leading, the every-replica job always, and prunes once per interval across leaderships', async () => {
    const clock = new FakeClock();
    const leadership = new LeadershipState('follower');
    const ran: string[] = [];
    const stop = new AbortController();
    const done = runScheduled({ leadership, clock, logger: quiet }, stop.signal, [
      {
        what: 'tick',
        everyMs: 1_000,
        on: 'leader',
        first: async () => void ran.push('recover'),
        round: async () => void ran.push('tick'),
      },
      { what: 'prune', everyMs: 3_600_000, on: 'leader', round: async () => void ran.push('prune') },
      { what: 'probe', everyMs: 15_000, on: 'every replica', round: async () => void ran.push('probe') },
    ]);
    await settle();
    expect(ran).toEqual(['probe']);

    leadership.set('leader');
    await settle();
    expect(ran).toEqual(['probe', 'recover', 'prune', 'tick']);
    clock.advance(1_000);
    await settle();
    expect(ran.filter((r) => r === 'tick')).toHaveLength(2);

    leadership.set('follower');
    await settle();
    ran.length = 0;
    clock.advance(15_000);
    await settle();
    expect(ran).toEqual(['probe']);

    // Leading again within the hour: recovery and ticks at once, no second prune.
    leadership.set('leader');
    await settle();
    expect(ran).toEqual(['probe', 'recover', 'tick']);
    // Once the hour since the first prune has passed, it prunes again, once.
    for (let i = 0; i < 240; i++) {
      clock.advance(15_000);
      await settle();
    }
    expect(ran.filter((r) => r === 'prune')).toHaveLength(1);

    stop.abort();
    await done;
  });
});
