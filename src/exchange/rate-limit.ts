/**
 * A token bucket that spaces our own requests out, so pollers and list walks never go beyond a
 * configured rate however many callers share the client (the exchange's limit is not shown; see
 * assumptions.ts DEFAULT_RATE_LIMIT_PER_SECOND).
 */
import type { Clock } from '../app/ports.js';
import { TokenBucket } from '../domain/token-bucket.js';

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
  const bucket = new TokenBucket(() => clock.now(), options.perSecond, options.burst ?? options.perSecond);
  return {
    async acquire() {
      const waitMs = bucket.reserve();
      if (waitMs > 0) await clock.sleep(waitMs);
    },
  };
}
