/**
 * The operations side of one desk: its own Prometheus registry (never prom-client's global one,
 * so two desks in one process, as in the tests, never share or collide), and what must exist
 * before the desk does: the exchange calls (the client is built first and reports to it).
 * watch-desk.ts adds the rest once the desk's stores (and who leads) exist. One DeskOps per desk:
 * its metrics register once.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Clock } from '../ports/clock.js';
import { exchangeCalls, type ExchangeCalls } from './exchange-calls.js';

export interface DeskOps {
  readonly registry: Registry;
  readonly clock: Pick<Clock, 'now'>;
  readonly exchange: ExchangeCalls;
  /**
   * Says the desk is stopping: /readyz answers 503 from then on, so a load balancer stops sending
   * it Slack requests while it finishes the work in flight.
   */
  stopping(): void;
  isStopping(): boolean;
}

export interface DeskOpsOptions {
  clock: Pick<Clock, 'now'>;
  /** The process's own metrics (CPU, memory, event loop lag, GC): once per process, so the running bot only. */
  processMetrics?: boolean;
}

export function createDeskOps(o: DeskOpsOptions): DeskOps {
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
