/**
 * Readiness asks whether the exchange answered within the last minute, and an idle desk may not
 * call it for hours (polling runs only while something is submitted). So, as a loop round: when
 * nothing has answered for `quietMs`, one cheap authenticated read. Any answer, an HTTP error
 * included, is seen by the client's request logger (exchange-calls.ts); the read's own result
 * and error are not needed: readiness and the exchange metrics say what happened.
 */
import type { Clock } from '../ports/clock.js';
import type { ExchangeCalls } from './exchange-calls.js';

/** How often the probe looks, and how quiet the exchange must have been: well inside the one-minute window. */
export const EXCHANGE_PROBE_MS = 15_000;

export function probeWhenQuiet(o: { calls: Pick<ExchangeCalls, 'lastAnswerAt'>; clock: Pick<Clock, 'now'>; read: () => Promise<unknown>; quietMs?: number }): () => Promise<void> {
  const quietMs = o.quietMs ?? EXCHANGE_PROBE_MS;
  return async () => {
    const last = o.calls.lastAnswerAt();
    if (last !== undefined && o.clock.now() - last < quietMs) return;
    await o.read().catch(() => undefined);
  };
}
