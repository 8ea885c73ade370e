// Every exchange call attempt as the transport reports it: latency by route and status, and when the
// exchange last answered for readiness. An HTTP error is an answer; a timeout or refusal is not.
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { Clock } from '../ports/clock.js';

/** The fields of the client's RequestLogEntry this needs (structurally the same; no id-bearing path). */
export interface ExchangeAttempt {
  method: string;
  /** Path template after the API prefix, e.g. `/crypto/withdrawals/{id}`. */
  route: string;
  /** Present when the exchange answered. */
  status?: number;
  /** Why there was no answer (`timeout`, `network`), or what was wrong with it. */
  kind?: string;
  durationMs: number;
}

export interface ExchangeCalls {
  /** Give this to the exchange client as its request logger (or call it from the one it has). */
  observe(attempt: ExchangeAttempt): void;
  /** When the exchange last answered, on the desk's clock; undefined before its first answer. */
  lastAnswerAt(): number | undefined;
}

/** Exchange calls take tens of ms to the client's 10 s timeout. */
const LATENCY_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function exchangeCalls(registry: Registry, clock: Pick<Clock, 'now'>): ExchangeCalls {
  const since = clock.now();
  let lastAnswer: number | undefined;
  const duration = new Histogram({
    name: 'desk_exchange_request_duration_seconds',
    help: 'Exchange request attempts by operation (method and route template) and HTTP status, or timeout/network when none came.',
    labelNames: ['operation', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: 'desk_exchange_last_answer_age_seconds',
    help: 'Seconds since the exchange last answered any request (any HTTP status), or since start before its first answer.',
    registers: [registry],
    collect() {
      this.set((clock.now() - (lastAnswer ?? since)) / 1000);
    },
  });
  return {
    observe(a) {
      const answered = a.status !== undefined;
      if (answered) lastAnswer = clock.now();
      duration.observe(
        { operation: `${a.method} ${a.route}`, status: answered ? String(a.status) : (a.kind ?? 'network') },
        a.durationMs / 1000,
      );
    },
    lastAnswerAt: () => lastAnswer,
  };
}
