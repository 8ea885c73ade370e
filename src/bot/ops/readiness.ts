// Whether this replica should get work: store read, Slack token accepted, exchange answered within a
// minute. The role is reported, not judged. Each check answers a fixed sentence, never an error's text
// (a driver's message can carry a connection string or token).
import type { Clock } from '../ports/clock.js';
import type { ExchangeCalls } from './exchange-calls.js';
import type { Role, Leadership } from './leadership.js';

/** The exchange must have answered within this long. */
export const EXCHANGE_ANSWER_WINDOW_MS = 60_000;
/** A store read slower than this counts as unreachable: a probe must answer before its own timeout. */
export const STORE_CHECK_TIMEOUT_MS = 2_000;

export type CheckName = 'running' | 'store' | 'slack' | 'exchange';

export interface Check {
  ok: boolean;
  detail: string;
}

export interface Readiness {
  ready: boolean;
  role: Role;
  /** The checks that fail, in the order below; empty when ready. */
  failing: CheckName[];
  checks: Record<CheckName, Check>;
}

export interface ReadinessSources {
  /** A cheap read through the store's key-value port. */
  readStore: () => Promise<unknown>;
  /** True once auth.test succeeded in this process. */
  slackAuthChecked: () => boolean;
  /** True while Slack can hand this replica a request: listening (HTTP), socket up (Socket Mode). */
  slackConnected: () => boolean;
  /** Whether the last Slack Web API call got an answer; undefined before the first. */
  slackReached?: () => boolean | undefined;
  exchange: Pick<ExchangeCalls, 'lastAnswerAt'>;
  clock: Pick<Clock, 'now'>;
  leadership: Leadership;
  stopping: () => boolean;
}

export async function checkReadiness(s: ReadinessSources): Promise<Readiness> {
  const checks: Record<CheckName, Check> = {
    running: s.stopping()
      ? { ok: false, detail: 'stopping: finishing the work in flight' }
      : { ok: true, detail: 'not stopping' },
    store: await storeCheck(s.readStore),
    slack: slackCheck(s.slackAuthChecked(), s.slackConnected(), s.slackReached?.()),
    exchange: exchangeCheck(s.exchange.lastAnswerAt(), s.clock.now()),
  };
  const failing = (Object.keys(checks) as CheckName[]).filter((name) => !checks[name].ok);
  return { ready: failing.length === 0, role: s.leadership(), failing, checks };
}

function slackCheck(authChecked: boolean, connected: boolean, reached: boolean | undefined): Check {
  if (!authChecked && reached === false)
    return {
      ok: false,
      detail: 'auth.test has not succeeded: Slack could not be reached (the log says what was tried and how)',
    };
  if (!authChecked)
    return { ok: false, detail: 'auth.test has not succeeded (token refused, or Slack not reached yet)' };
  if (!connected)
    return {
      ok: false,
      detail: 'Slack cannot reach this replica (not listening yet, or the Socket Mode connection is down)',
    };
  return { ok: true, detail: 'auth.test succeeded; Slack can reach this replica' };
}

async function storeCheck(read: () => Promise<unknown>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STORE_CHECK_TIMEOUT_MS)));
  try {
    const answer = await Promise.race([read().then(() => 'read' as const), late]);
    return answer === 'read'
      ? { ok: true, detail: 'read answered' }
      : { ok: false, detail: `read did not answer within ${STORE_CHECK_TIMEOUT_MS} ms` };
  } catch {
    return { ok: false, detail: 'read failed' };
  } finally {
    clearTimeout(timer);
  }
}

function exchangeCheck(lastAnswerAt: number | undefined, now: number): Check {
  if (lastAnswerAt === undefined) return { ok: false, detail: 'no answer from the exchange yet' };
  const seconds = Math.round((now - lastAnswerAt) / 1000);
  return now - lastAnswerAt <= EXCHANGE_ANSWER_WINDOW_MS
    ? { ok: true, detail: `answered ${seconds} s ago` }
    : { ok: false, detail: `no answer for ${seconds} s (more than ${EXCHANGE_ANSWER_WINDOW_MS / 1000} s)` };
}
