// However many callers share the client, the exchange never sees more than `perSecond` requests in
// any one second (its limit is not shown: assumptions.ts DEFAULT_RATE_LIMIT_PER_SECOND).
import type { Clock } from '../ports/clock.js';
import { RateWindow } from '../domain/rate-window.js';

export interface RateLimitOptions {
  /** Most requests in any one second (a sliding window, not calendar seconds). */
  perSecond: number;
}

export interface RateLimiter {
  acquire(): Promise<void>;
}

/** A small guard widens the window so network jitter cannot put two sends one window apart into one second. */
export function createRateLimiter(options: RateLimitOptions, clock: Clock): RateLimiter {
  if (!Number.isInteger(options.perSecond) || options.perSecond < 1)
    throw new RangeError('rate limit perSecond must be a whole number of at least 1');
  const window = new RateWindow(options.perSecond, 1_000 + JITTER_GUARD_MS);
  return {
    async acquire() {
      const now = clock.now();
      const start = window.reserve(now);
      if (start > now) await clock.sleep(start - now);
    },
  };
}

const JITTER_GUARD_MS = 20;
