// An idle desk may not call the exchange for hours, yet readiness asks for an answer within a minute:
// after `quietMs` of silence, one cheap authenticated read, seen through exchange-calls.ts.
import type { Clock } from '../ports/clock.js';
import type { ExchangeCalls } from './exchange-calls.js';

/** How often the probe looks, and how quiet the exchange must have been: well inside the one-minute window. */
export const EXCHANGE_PROBE_MS = 15_000;

export function probeWhenQuiet(o: {
  calls: Pick<ExchangeCalls, 'lastAnswerAt'>;
  clock: Pick<Clock, 'now'>;
  read: () => Promise<unknown>;
  quietMs?: number;
}): () => Promise<void> {
  const quietMs = o.quietMs ?? EXCHANGE_PROBE_MS;
  return async () => {
    const last = o.calls.lastAnswerAt();
    if (last !== undefined && o.clock.now() - last < quietMs) return;
    await o.read().catch(() => undefined);
  };
}
