// The operations side of one desk, built before the desk: its own Prometheus registry (never the
// global one, so two desks in one process never collide) and the exchange calls. watch-bot.ts adds
// the rest (who leads, the polling rounds) once the stores exist.
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Clock } from '../ports/clock.js';
import { exchangeCalls, type ExchangeCalls } from './exchange-calls.js';

export interface BotOps {
  readonly registry: Registry;
  readonly clock: Pick<Clock, 'now'>;
  readonly exchange: ExchangeCalls;
  /** /readyz answers 503 from then on, so a load balancer stops sending Slack requests while work in flight finishes. */
  stopping(): void;
  isStopping(): boolean;
}

export interface BotOpsOptions {
  clock: Pick<Clock, 'now'>;
  /** The process's own metrics (CPU, memory, event loop lag, GC): once per process, so the running bot only. */
  processMetrics?: boolean;
}

export function createBotOps(o: BotOpsOptions): BotOps {
  const registry = new Registry();
  if (o.processMetrics) collectDefaultMetrics({ register: registry });
  let stopping = false;
  return {
    registry,
    stopping: () => void (stopping = true),
    isStopping: () => stopping,
    clock: o.clock,
    exchange: exchangeCalls(registry, o.clock),
  };
}
