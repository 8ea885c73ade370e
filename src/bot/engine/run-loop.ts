/**
 * The one scheduler of the process: every background job (the engine's ticks, the deposit watch,
 * retention pruning, the exchange probe) runs here, each in a loop of rounds on the injected clock
 * until shutdown. A round that throws is logged and the loop goes on: the next round is the retry.
 */
import { errorText } from '../domain/error-text.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import { whileLeader } from './leadership.js';
import type { Leadership } from '../ports/leadership.js';

/** No sleep is longer than this: a long interval is waited out in steps, so a stop never leaves a long timer behind. */
const LONGEST_SLEEP_MS = 15_000;

export interface Job {
  what: string;
  everyMs: number;
  /**
   * `leader`: only while this replica leads, stopped when it stops leading. `every replica`: work
   * each replica needs for itself (the exchange probe keeps its own readiness true).
   */
  on: 'leader' | 'every replica';
  /** Leader jobs: once at the start of each leadership, before the first round (the engine's recovery). */
  first?: () => Promise<unknown>;
  round: () => Promise<unknown>;
  /** Where its failures are logged; default the scheduler's logger. */
  logger?: Logger;
}

export interface SchedulerDeps {
  leadership: Leadership;
  clock: Clock;
  logger: Logger;
}

/**
 * Runs `jobs` until `signal` aborts. A leader job's first round comes at once when leadership
 * begins, except a long-interval job this process ran within its interval (a replica that leads
 * again soon after does not prune twice); resolves once every loop has stopped.
 */
export async function runScheduled(deps: SchedulerDeps, signal: AbortSignal, jobs: readonly Job[]): Promise<void> {
  const lastRoundAt = new Map<Job, number>();
  const loop = async (job: Job, until: AbortSignal) => {
    const logger = job.logger ?? deps.logger;
    if (job.first)
      await job
        .first()
        .catch((err: unknown) =>
          logger.error(`${job.what}: its start failed; its rounds go on`, { error: errorText(err) }),
        );
    const stepped = job.everyMs > LONGEST_SLEEP_MS;
    await runEvery(
      { signal: until, clock: deps.clock, intervalMs: Math.min(job.everyMs, LONGEST_SLEEP_MS), what: job.what, logger },
      async () => {
        const last = lastRoundAt.get(job);
        // Not due yet; a clock whose sleep returns at once (tests) must not spin without yielding.
        if (stepped && last !== undefined && deps.clock.now() - last < job.everyMs)
          return new Promise((resolve) => setImmediate(resolve));
        lastRoundAt.set(job, deps.clock.now());
        await job.round();
      },
    );
  };
  const leaderJobs = jobs.filter((j) => j.on === 'leader');
  await Promise.all([
    ...(leaderJobs.length > 0
      ? [
          whileLeader(
            deps.leadership,
            signal,
            async (term) => void (await Promise.all(leaderJobs.map((j) => loop(j, term)))),
          ),
        ]
      : []),
    ...jobs.filter((j) => j.on === 'every replica').map((j) => loop(j, signal)),
  ]);
}

async function runEvery(
  o: { signal: AbortSignal; clock: Clock; intervalMs: number; what: string; logger: Logger },
  round: () => Promise<unknown>,
): Promise<void> {
  while (!o.signal.aborted) {
    try {
      await round();
    } catch (err) {
      o.logger.error(`${o.what} failed`, { error: errorText(err) });
    }
    await sleepUnlessAborted(o.clock, o.intervalMs, o.signal);
  }
}

/** Sleep on the clock, but wake at once on shutdown. */
async function sleepUnlessAborted(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  let wake = (): void => {};
  const aborted = new Promise<void>((resolve) => {
    wake = () => resolve();
    signal.addEventListener('abort', wake, { once: true });
  });
  try {
    await Promise.race([clock.sleep(ms), aborted]);
  } finally {
    // One listener per sleep would pile up on the signal for as long as the bot runs.
    signal.removeEventListener('abort', wake);
  }
}
