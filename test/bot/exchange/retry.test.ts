import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  shouldRetry,
  type AttemptFailure,
} from '../../../src/bot/exchange/retry.js';
import { createRateLimiter } from '../../../src/bot/exchange/rate-limit.js';
import { fakeClock } from './support/clock.js';

const NOW = Date.parse('2024-05-01T12:00:00Z');
const half = () => 0.5;
const decide = (method: string, attempt: number, failure: AttemptFailure, random = half) =>
  shouldRetry({ method, attempt, failure, nowMs: NOW, random });

describe('shouldRetry', () => {
  it.each<[string, AttemptFailure]>([
    ['network', { kind: 'network' }],
    ['timeout', { kind: 'timeout' }],
    ['429', { kind: 'status', status: 429 }],
    ['500', { kind: 'status', status: 500 }],
    ['502', { kind: 'status', status: 502 }],
    ['503', { kind: 'status', status: 503 }],
  ])('retries a GET after %s', (_n, failure) => {
    expect(decide('GET', 1, failure).retry).toBe(true);
  });

  it.each([400, 401, 403, 404, 409, 422])('does not retry a GET answered %i', (status) => {
    expect(decide('GET', 1, { kind: 'status', status })).toEqual({ retry: false, delayMs: 0 });
  });

  it.each(['POST', 'DELETE', 'post'])('never retries %s, whatever happened', (method) => {
    for (const failure of [
      { kind: 'network' },
      { kind: 'timeout' },
      { kind: 'status', status: 503 },
      { kind: 'status', status: 429, retryAfter: '1' },
    ] as AttemptFailure[]) {
      expect(decide(method, 1, failure).retry).toBe(false);
    }
  });

  it('stops at maxAttempts', () => {
    expect(decide('GET', DEFAULT_RETRY_POLICY.maxAttempts - 1, { kind: 'network' }).retry).toBe(true);
    expect(decide('GET', DEFAULT_RETRY_POLICY.maxAttempts, { kind: 'network' }).retry).toBe(false);
  });

  it('backs off exponentially with bounded jitter', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1_000 };
    expect([1, 2, 3, 4, 5].map((a) => backoffMs(a, policy, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([1, 2, 3, 4, 5].map((a) => backoffMs(a, policy, () => 0.999999))).toEqual([100, 200, 400, 800, 1_000]);
    expect(decide('GET', 1, { kind: 'network' }, () => 0.5).delayMs).toBe(188); // 125 + 62.5
    expect(decide('GET', 1, { kind: 'network' }, () => 0).delayMs).not.toBe(
      decide('GET', 1, { kind: 'network' }, () => 0.9).delayMs,
    );
  });

  it('honours Retry-After in seconds and as an HTTP date', () => {
    expect(decide('GET', 1, { kind: 'status', status: 429, retryAfter: '3' })).toEqual({ retry: true, delayMs: 3_000 });
    expect(decide('GET', 1, { kind: 'status', status: 503, retryAfter: 'Wed, 01 May 2024 12:00:07 GMT' })).toEqual({
      retry: true,
      delayMs: 7_000,
    });
    expect(decide('GET', 1, { kind: 'status', status: 503, retryAfter: 'Wed, 01 May 2024 11:59:00 GMT' })).toEqual({
      retry: true,
      delayMs: 0,
    });
  });

  it('falls back to backoff on an unreadable Retry-After, and gives up on one beyond the cap', () => {
    expect(decide('GET', 1, { kind: 'status', status: 429, retryAfter: 'soon' })).toEqual({
      retry: true,
      delayMs: 188,
    });
    expect(
      decide('GET', 1, {
        kind: 'status',
        status: 429,
        retryAfter: String(DEFAULT_RETRY_POLICY.maxRetryAfterMs / 1000 + 1),
      }).retry,
    ).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and dates, rejects the rest', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000);
    expect(parseRetryAfter('Wed, 01 May 2024 12:01:00 GMT', NOW)).toBe(60_000);
    expect(parseRetryAfter('-1', NOW)).toBeUndefined();
    expect(parseRetryAfter('1.5', NOW)).toBeUndefined();
    expect(parseRetryAfter('', NOW)).toBeUndefined();
  });
});

describe('createRateLimiter', () => {
  it('never lets more than perSecond requests into any sliding second', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ perSecond: 5 }, clock);
    const start = clock.now();
    const times: number[] = [];
    for (let i = 0; i < 12; i++) {
      await limiter.acquire();
      times.push(clock.now() - start);
      clock.advance(37); // callers arrive spread out, not only all at once
    }
    for (const t of times) expect(times.filter((u) => u >= t && u < t + 1_000).length).toBeLessThanOrEqual(5);
    // And it does not wait more than the cap needs: the sixth goes one window after the first.
    expect(times[5]! - times[0]!).toBeGreaterThanOrEqual(1_000);
    expect(times[5]! - times[0]!).toBeLessThan(1_100);
  });

  it('queues concurrent callers in order without exceeding the rate', async () => {
    // All callers arrive at the same instant: time stands still while they queue.
    const sleeps: number[] = [];
    const frozen = { now: () => 1_000, sleep: async (ms: number) => void sleeps.push(ms) };
    const limiter = createRateLimiter({ perSecond: 10 }, frozen);
    await Promise.all(Array.from({ length: 25 }, () => limiter.acquire()));
    // Ten at once, then ten one window later, then five a window after that: in arrival order.
    expect(sleeps).toEqual([...Array(10).fill(1_020), ...Array(5).fill(2_040)]);
  });

  it('refills after a quiet spell', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ perSecond: 1 }, clock);
    await limiter.acquire();
    clock.advance(5_000);
    await limiter.acquire();
    expect(clock.sleeps).toEqual([]);
  });

  it('refuses a rate that is not a positive whole number', () => {
    expect(() => createRateLimiter({ perSecond: 0 }, fakeClock())).toThrow(RangeError);
    expect(() => createRateLimiter({ perSecond: 2.5 }, fakeClock())).toThrow(RangeError);
  });
});
