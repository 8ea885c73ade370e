// Seconds since each polling loop's last finished (and caught-up) round: about its interval when
// healthy, growing when stuck or failing. Only the leader polls, so only it reports.
import { Gauge, type Registry } from 'prom-client';
import type { Clock } from '../ports/clock.js';
import type { Leadership } from './leadership.js';

export interface PollingRounds {
  /** Wraps `round` for the run loop: each resolution (that `caughtUp` approves) makes `loop` current. */
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
