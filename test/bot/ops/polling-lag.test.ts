/**
 * The polling lag gauge (src/bot/ops/polling-lag.ts) on a clock the test moves: a loop whose rounds
 * finish stays current; a round that hangs, or a deposit round that did not catch up, lets the lag
 * grow; a follower reports none. Read through the registry's exposition, as Prometheus reads it.
 */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../../src/bot/ops/leadership.js';
import { pollingRounds } from '../../../src/bot/ops/polling-lag.js';
import { parseExposition } from './support/prometheus-text.js';

function setup() {
  let now = 1_000_000;
  let role: Role = 'leader';
  const registry = new Registry();
  const rounds = pollingRounds(registry, { now: () => now }, () => role);
  const lag = async (loop: string) =>
    parseExposition(await registry.metrics())
      .find('desk_polling_lag_seconds', { loop })
      .map((s) => s.value);
  return { rounds, lag, advance: (ms: number) => void (now += ms), follow: () => void (role = 'follower') };
}

describe('polling lag', () => {
  it('stays at the time since the last finished round, and grows while a round hangs', async () => {
    const t = setup();
    let release = (): void => {};
    let hang = false;
    const tick = t.rounds.track('status', () => (hang ? new Promise<void>((r) => (release = r)) : Promise.resolve()));
    expect(await t.lag('status')).toEqual([0]);
    t.advance(1_000);
    await tick();
    expect(await t.lag('status')).toEqual([0]);

    hang = true;
    const stuck = tick();
    t.advance(45_000);
    expect(await t.lag('status')).toEqual([45]);
    release();
    await stuck;
    expect(await t.lag('status')).toEqual([0]);
  });

  it('counts a deposit round that did not catch up as behind', async () => {
    const t = setup();
    let caughtUp = false;
    const poll = t.rounds.track(
      'deposits',
      async () => ({ caughtUp }),
      (s) => s.caughtUp,
    );
    t.advance(20_000);
    await poll();
    expect(await t.lag('deposits')).toEqual([20]);
    caughtUp = true;
    await poll();
    expect(await t.lag('deposits')).toEqual([0]);
  });

  it('is not reported by a follower, which does not poll', async () => {
    const t = setup();
    t.rounds.track('status', async () => undefined);
    t.follow();
    expect(await t.lag('status')).toEqual([]);
  });
});
