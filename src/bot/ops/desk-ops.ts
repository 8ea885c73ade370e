// The operations side of one desk, built before the desk: its own Prometheus registry (never the
// global one, so two desks in one process never collide), exchange calls, loop rounds and role.
// watch-desk.ts adds the rest once the stores and Slack app exist.
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Clock } from '../ports/clock.js';
import { exchangeCalls, type ExchangeCalls } from './exchange-calls.js';
import type { Leadership } from './leadership.js';
import { pollingRounds, type PollingRounds } from './polling-lag.js';

export interface DeskOps {
  readonly registry: Registry;
  readonly clock: Pick<Clock, 'now'>;
  readonly leadership: Leadership;
  readonly exchange: ExchangeCalls;
  readonly polling: PollingRounds;
  /** /readyz answers 503 from then on, so a load balancer stops sending Slack requests while work in flight finishes. */
  stopping(): void;
  isStopping(): boolean;
}

export interface DeskOpsOptions {
  clock: Pick<Clock, 'now'>;
  leadership: Leadership;
  /** The process's own metrics (CPU, memory, event loop lag, GC): once per process, so the running bot only. */
  processMetrics?: boolean;
}

export function createDeskOps(o: DeskOpsOptions): DeskOps {
  const registry = new Registry();
  if (o.processMetrics) collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'desk_leader',
    help: '1 while this replica leads (runs polling, the deposit watch and outbox delivery), 0 while it follows.',
    registers: [registry],
    collect() {
      this.set(o.leadership() === 'leader' ? 1 : 0);
    },
  });
  let stopping = false;
  return {
    registry,
    stopping: () => void (stopping = true),
    isStopping: () => stopping,
    clock: o.clock,
    leadership: o.leadership,
    exchange: exchangeCalls(registry, o.clock),
    polling: pollingRounds(registry, o.clock, o.leadership),
  };
}
