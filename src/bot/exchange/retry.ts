// Whether to try a request again (after stripe-node's `_shouldRetry`). Only reads: a retried
// withdrawal or order can be a second one, so writes go back to the engine, which looks.

export interface RetryPolicy {
  /** Total attempts, the first included. 1 disables retries. */
  maxAttempts: number;
  /** Backoff before the second attempt; doubles each attempt. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A longer Retry-After is not waited for: the error (with `retryAfterMs`) goes to the caller, whose poller returns anyway. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 30_000,
};

export type AttemptFailure =
  { kind: 'network' } | { kind: 'timeout' } | { kind: 'status'; status: number; retryAfter?: string | null };

export interface RetryInput {
  method: string;
  /** 1 for the attempt that just failed first, 2 for the second, ... */
  attempt: number;
  failure: AttemptFailure;
  /** Current time (ms), to read a Retry-After given as an HTTP date. */
  nowMs: number;
  /** Uniform in [0, 1): injected so tests can pin the jitter. */
  random: () => number;
  policy?: RetryPolicy;
}

export interface RetryJudgement {
  retry: boolean;
  delayMs: number;
}

const NO: RetryJudgement = { retry: false, delayMs: 0 };

/** Decide whether the failed attempt is tried again, and after how long. Pure. */
export function shouldRetry(input: RetryInput): RetryJudgement {
  const policy = input.policy ?? DEFAULT_RETRY_POLICY;
  if (input.method.toUpperCase() !== 'GET') return NO;
  if (input.attempt >= policy.maxAttempts) return NO;
  const { failure } = input;
  if (failure.kind === 'status' && !isRetryableStatus(failure.status)) return NO;

  if (failure.kind === 'status' && failure.retryAfter != null) {
    const waitMs = parseRetryAfter(failure.retryAfter, input.nowMs);
    if (waitMs !== undefined) {
      return waitMs > policy.maxRetryAfterMs ? NO : { retry: true, delayMs: waitMs };
    }
  }
  return { retry: true, delayMs: backoffMs(input.attempt, policy, input.random) };
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/** "Equal jitter": half fixed, half random, so many pollers spread out without collapsing to zero. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(step / 2 + (step / 2) * r);
}

/** Delta-seconds or an HTTP date (RFC 9110 10.2.3); undefined when neither. */
export function parseRetryAfter(value: string, nowMs: number): number | undefined {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Date.parse also accepts loose forms like "5": require something date-like.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
