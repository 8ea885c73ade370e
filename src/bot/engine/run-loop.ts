/**
 * The one run loop of the process: do a round of work, then sleep on the injected clock, until
 * shutdown (which also cuts a sleep short). A round that throws is logged and the loop goes on:
 * the next round is the retry. The engine's ticks and the deposit watch both run on it.
 */
import { errorText } from '../domain/error-text.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';

export async function runEvery(o: { signal: AbortSignal; clock: Clock; intervalMs: number; what: string; logger: Logger }, round: () => Promise<unknown>): Promise<void> {
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
