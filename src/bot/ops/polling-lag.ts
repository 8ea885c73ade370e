/**
 * How far behind the polling is: for each loop (the engine's ticks, which poll submitted
 * withdrawals and orders; the deposit watch), the seconds since its last round that finished and,
 * where the loop can say so, caught up. A healthy loop shows about its interval; a round stuck
 * on a hung exchange, a loop that throws every round, or a deposit walk that keeps falling behind
 * shows a number that grows. Only the leader polls, so only the leader reports it.
 */
import { Gauge, type Registry } from 'prom-client';
import type { Clock } from '../ports/clock.js';
import type { Leadership } from './leadership.js';

export interface PollingRounds {
  /**
   * `round`, tracked as `loop`: each time it resolves (and `caughtUp` says so of its result, when
   * given) the loop counts as current. Give the returned function to the run loop.
   */
  track<T>(loop: string, round: () => Promise<T>, caughtUp?: (result: T) => boolean): () => Promise<T>;
}

export function pollingRounds(registry: Registry, clock: Pick<Clock, 'now'>, leadership: Leadership): PollingRounds {
  const current = new Map<string, number>();
  new Gauge({
    name: 'desk_polling_lag_seconds',
    help: 'Seconds since the loop last finished a round that caught up (loop: status = the engine tick that polls submitted requests, deposits = the deposit watch); leader only.',
    labelNames: ['loop'],
    registers: [registry],
    collect() {
      this.reset();
      if (leadership() !== 'leader') return;
      for (const [loop, at] of current) this.set({ loop }, Math.max(0, clock.now() - at) / 1000);
    },
  });
  return {
    track(loop, round, caughtUp) {
      current.set(loop, clock.now());
      return async () => {
        const result = await round();
        if (caughtUp === undefined || caughtUp(result)) current.set(loop, clock.now());
        return result;
      };
    },
  };
}
