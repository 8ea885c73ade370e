// The exchange client: every operation signed, typed and paged, one file per area over one
// transport. Nothing above this file knows how a request is signed.
import { setTimeout as delay } from 'node:timers/promises';
import type { Clock } from '../ports/clock.js';
import { DEFAULT_RATE_LIMIT_PER_SECOND } from './assumptions.js';
import { createClockOffset } from './clock-offset.js';
import { accountsOperations } from './operations/accounts.js';
import { complianceOperations } from './operations/compliance.js';
import { cryptoOperations } from './operations/crypto.js';
import { fiatOperations } from './operations/fiat.js';
import { lookupOperations } from './operations/lookups.js';
import { tradingOperations } from './operations/trading.js';
import { createRateLimiter, type RateLimitOptions } from './rate-limit.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
import type { Signer } from './signer.js';
import { request, type Call, type FetchLike, type RequestLogger } from './transport.js';
import { normaliseBaseUrl } from './url.js';

export const DEFAULT_TIMEOUT_MS = 10_000;

export interface ExchangeClientOptions {
  /** e.g. `https://exchange.example`; API_PREFIX is added by the client. */
  baseUrl: string;
  signer: Signer;
  /** Defaults to the global fetch, looked up at call time. */
  fetch?: FetchLike;
  /** Timestamps for signatures, retry waits and the rate cap. Defaults to the system clock. */
  clock?: Clock;
  /** Per attempt, body read included. Default 10 s. */
  timeoutMs?: number;
  /** Retry of reads (GET); `false` for none. Writes are never retried. */
  retry?: (Partial<RetryPolicy> & { random?: () => number }) | false;
  /** Cap on our own request rate; default DEFAULT_RATE_LIMIT_PER_SECOND; `false` for none. */
  rateLimit?: RateLimitOptions | false;
  /** Called once per attempt with method, path, status and duration; never headers or keys. */
  logger?: RequestLogger;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => delay(ms),
};

/** Create a client (the engine's ExchangePort, as runtime/connect-exchange.ts wires it), plus the unauthenticated `getSpotPrice`. */
export function createExchangeClient(options: ExchangeClientOptions) {
  const clock = options.clock ?? systemClock;
  const retry =
    options.retry === false
      ? { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 }
      : { ...DEFAULT_RETRY_POLICY, ...stripRandom(options.retry) };
  const rate =
    options.rateLimit === false ? undefined : (options.rateLimit ?? { perSecond: DEFAULT_RATE_LIMIT_PER_SECOND });
  const transport = {
    baseUrl: normaliseBaseUrl(options.baseUrl),
    signer: options.signer,
    fetch: options.fetch ?? ((url: string, init: RequestInit) => globalThis.fetch(url, init)),
    clock,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retry,
    random: (options.retry && options.retry.random) || Math.random,
    rateLimiter: rate ? createRateLimiter(rate, clock) : undefined,
    logger: options.logger,
    clockOffset: createClockOffset(),
  };
  const call: Call = (spec) => request(transport, spec);
  return {
    /** The exchange's clock minus ours (ms), from the latest answer's Date header; undefined before any. */
    clockOffsetMs: () => transport.clockOffset.current(),
    ...accountsOperations(call),
    ...cryptoOperations(call),
    ...fiatOperations(call),
    ...complianceOperations(call),
    ...lookupOperations(call),
    ...tradingOperations(call),
  };
}

export type ExchangeClient = ReturnType<typeof createExchangeClient>;

/** The policy fields a caller set (undefined ones keep their defaults), without `random`. */
function stripRandom(retry: (Partial<RetryPolicy> & { random?: () => number }) | undefined): Partial<RetryPolicy> {
  if (!retry) return {};
  const { random: _random, ...policy } = retry;
  return Object.fromEntries(Object.entries(policy).filter(([, v]) => v !== undefined));
}
