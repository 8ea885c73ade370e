import type { Clock } from '../../../../src/bot/ports/clock.js';

/** A clock that only moves when slept on: sleeps return at once and are recorded. */
export interface FakeClock extends Clock {
  sleeps: number[];
  advance(ms: number): void;
}

export function fakeClock(start = 1_700_000_000_000): FakeClock {
  let t = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => t,
    async sleep(ms) {
      sleeps.push(ms);
      t += ms;
    },
    advance(ms) {
      t += ms;
    },
  };
}
