/**
 * A token bucket that spaces our own requests out, so pollers and list walks never go beyond a
 * configured rate however many callers share the client (the exchange's limit is not shown; see
 * assumptions.ts DEFAULT_RATE_LIMIT_PER_SECOND).
 */
import type { Clock } from '../app/ports.js';

export interface RateLimitOptions {
  /** Sustained requests per second. */
  perSecond: number;
  /** Requests allowed back to back after a quiet spell; defaults to `perSecond`. */
  burst?: number;
}

export interface RateLimiter {
  /** Resolves when one more request may go out. */
  acquire(): Promise<void>;
}

/** Token bucket over an injected clock; callers queue in arrival order. */
export function createRateLimiter(options: RateLimitOptions, clock: Clock): RateLimiter {
  const rate = options.perSecond;
  const capacity = options.burst ?? rate;
  if (!(rate > 0) || !Number.isFinite(rate)) throw new RangeError('rate limit perSecond must be a positive number');
  if (!(capacity >= 1) || !Number.isFinite(capacity)) throw new RangeError('rate limit burst must be at least 1');

  let tokens = capacity;
  let last = clock.now();
  // Each acquire reserves its token immediately (tokens may go negative): waiting callers then
  // sleep for their own place in the queue, and order is kept without a separate queue.
  return {
    async acquire() {
      const now = clock.now();
      tokens = Math.min(capacity, tokens + ((now - last) / 1000) * rate);
      last = now;
      tokens -= 1;
      if (tokens >= 0) return;
      await clock.sleep(Math.ceil((-tokens / rate) * 1000));
    },
  };
}
