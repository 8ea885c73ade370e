// The rest of a desk's operations side once its stores exist: the counting audit log, store gauges,
// Slack ack latency, readiness and the endpoints serving them.
import type { AuditLog, KeyValueStore, Repository } from '../ports/store.js';
import type { DeskRequest } from '../domain/record.js';
import { countingAuditLog } from './audit-counts.js';
import type { DeskOps } from './desk-ops.js';
import { deskGauges } from './desk-gauges.js';
import { opsRoutes, type OpsRoute } from './endpoints.js';
import { checkReadiness, type Readiness } from './readiness.js';
import { slackAckLatency } from './slack-acks.js';

/** Never written: reading it is the readiness probe's cheap round trip to the store. */
export const READINESS_PROBE_KEY = 'ops:readiness-probe';

export interface DeskWatchParts {
  requests: Repository<DeskRequest>;
  kv: KeyValueStore;
  audit: AuditLog;
  /** Asked at each readiness check (the Slack app exists after this is called). */
  slackAuthChecked: () => boolean;
  /** Asked at each readiness check: Slack can hand this replica a request. */
  slackConnected: () => boolean;
  /** Asked at each readiness check: the last Slack Web API call got an answer (undefined before the first). */
  slackReached: () => boolean | undefined;
}

export interface WatchedDesk {
  /** Give this audit log to the desk instead of the store's own. */
  audit: AuditLog;
  /** The Slack app calls it with each acknowledgement's latency, in seconds. */
  observeAck: (seconds: number) => void;
  readiness(): Promise<Readiness>;
  /** /healthz, /readyz, /metrics. */
  routes: OpsRoute[];
}

export function watchDesk(ops: DeskOps, parts: DeskWatchParts): WatchedDesk {
  deskGauges(ops.registry, parts.requests, ops.clock);
  const readiness = () =>
    checkReadiness({ readStore: () => parts.kv.get(READINESS_PROBE_KEY), slackAuthChecked: parts.slackAuthChecked, slackConnected: parts.slackConnected, slackReached: parts.slackReached, exchange: ops.exchange, clock: ops.clock, leadership: ops.leadership, stopping: ops.isStopping });
  return {
    audit: countingAuditLog(parts.audit, ops.registry),
    observeAck: slackAckLatency(ops.registry),
    readiness,
    routes: opsRoutes({ registry: ops.registry, readiness }),
  };
}
