/**
 * The one Slack retry policy of the notifiers (requests' and compliance's): a few quick tries here,
 * only when the failure can pass (rate limits, network errors, Slack's 5xx, its "try again" platform
 * errors), then the outbox's backoff, which honours Retry-After (`retryAfterMs`). A refusal such as
 * `channel_not_found` is not retried here.
 * The retry decision is a pure function, so it is tested on its own.
 */
import type { Logger } from '../../ports/logger.js';
import { errorText } from '../../domain/error-text.js';

export interface SlackRetryOptions {
  /** Calls in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Real timers in production; tests pass a fast one. */
  sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_SLACK_RETRY: SlackRetryOptions = {
  // A couple of quick tries; beyond them the outbox tries again with backoff, for as long as it takes.
  attempts: 2,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Refusals that will not pass by themselves: the channel, the bot's membership or its token must
 * be fixed by a person. The outbox keeps such a message, tells approvers, and tries again slowly.
 */
export const PERMANENT_PLATFORM_ERRORS = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'missing_scope',
  'restricted_action',
]);

/**
 * Refusals about the person a DM is for (deactivated, gone, a bot): no fix on our side makes
 * Slack take it, so the DM is given up (logged as an error) rather than holding up the request's
 * later messages in the approval channel, which keep showing the outcome.
 */
export const RECIPIENT_REFUSALS = new Set(['user_disabled', 'user_not_found', 'user_not_visible', 'cannot_dm_bot']);

/** A Slack call of an outbox delivery that failed; `permanent` when a person must fix something. */
export class SlackDeliveryError extends Error {
  override name = 'SlackDeliveryError';
  constructor(
    readonly what: string,
    readonly reason: string,
    readonly permanent: boolean,
    /** The channel (or DM's person) Slack refused, so the one who fixes it knows where to look. */
    readonly where?: string,
    /** Slack's Retry-After on a rate limit: the outbox waits at least this long before the next try. */
    readonly retryAfterMs?: number,
  ) {
    super(`${what}${where ? ` in ${where}` : ''}: ${reason}`);
  }
}

/** Platform errors Slack documents as temporary. */
const TRANSIENT_PLATFORM_ERRORS = new Set([
  'ratelimited',
  'rate_limited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

/** What a @slack/web-api error carries that the decision needs. */
interface SlackErrorShape {
  code?: string;
  statusCode?: number;
  retryAfter?: number;
  data?: { error?: string };
}

/** Whether a failed Slack call may succeed when made again, and how long to wait at least. */
export function judgeSlackRetry(err: unknown): { retry: boolean; minDelayMs: number; what: string } {
  const e = (typeof err === 'object' && err !== null ? err : {}) as SlackErrorShape;
  switch (e.code) {
    case 'slack_webapi_rate_limited_error':
      return { retry: true, minDelayMs: (e.retryAfter ?? 1) * 1000, what: 'rate limited' };
    case 'slack_webapi_request_error':
      return { retry: true, minDelayMs: 0, what: 'network error' };
    case 'slack_webapi_http_error': {
      const status = e.statusCode ?? 0;
      return { retry: status >= 500 || status === 408 || status === 429, minDelayMs: 0, what: `HTTP ${status}` };
    }
    case 'slack_webapi_platform_error': {
      const error = e.data?.error ?? 'unknown';
      return { retry: TRANSIENT_PLATFORM_ERRORS.has(error), minDelayMs: 0, what: error };
    }
    default:
      return { retry: false, minDelayMs: 0, what: errorText(err) };
  }
}

/**
 * Runs `call` until it succeeds, a failure cannot pass, or the attempts are spent; then logs
 * the failure (never silently) and rethrows it.
 */
export async function withSlackRetry<T>(
  what: string,
  call: () => Promise<T>,
  o: SlackRetryOptions,
  logger: Logger,
  data: Record<string, unknown> = {},
  where?: string,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      const decision = judgeSlackRetry(err);
      if (!decision.retry || attempt >= o.attempts) {
        logger.warn(`Slack ${what} failed`, {
          ...data,
          ...(where ? { where } : {}),
          error: decision.what,
          attempts: attempt,
        });
        throw new SlackDeliveryError(
          what,
          decision.what,
          PERMANENT_PLATFORM_ERRORS.has(decision.what),
          where,
          decision.minDelayMs > 0 ? decision.minDelayMs : undefined,
        );
      }
      const backoff = Math.min(o.maxDelayMs, o.baseDelayMs * 2 ** (attempt - 1));
      const delay = Math.min(o.maxDelayMs, Math.max(backoff, decision.minDelayMs));
      logger.warn(`Slack ${what} failed; retrying`, { ...data, error: decision.what, attempt, delayMs: delay });
      await o.sleep(delay);
    }
  }
}
