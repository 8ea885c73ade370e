// The rest of a desk's operations side, in compose.ts's order: once the stores and who leads exist
// (watchBot: counting audit log, store gauges, leadership, polling rounds, ack latency), then once
// the Slack app exists (serveOps: readiness and the endpoints).
import type { AuditLog, KeyValueStore, Repository } from '../ports/store.js';
import type { RequestRecord } from '../domain/record.js';
import { countingAuditLog } from './audit-counts.js';
import type { BotOps } from './bot-ops.js';
import { requestGauges } from './request-gauges.js';
import { opsRoutes, type OpsRoute } from './endpoints.js';
import { checkReadiness, type Readiness } from './readiness.js';
import { slackAckLatency } from './slack-acks.js';
import { Gauge } from 'prom-client';
import type { Leadership } from './leadership.js';
import { pollingRounds, type PollingRounds } from './polling-lag.js';

/** Never written: reading it is the readiness probe's cheap round trip to the store. */
export const READINESS_PROBE_KEY = 'ops:readiness-probe';

export interface BotWatchParts {
  requests: Repository<RequestRecord>;
  kv: KeyValueStore;
  audit: AuditLog;
  leadership: Leadership;
}

/** What readiness asks the Slack app. */
export interface SlackWatchParts {
  /** Asked at each readiness check. */
  slackAuthChecked: () => boolean;
  /** Asked at each readiness check: Slack can hand this replica a request. */
  slackConnected: () => boolean;
  /** Asked at each readiness check: the last Slack Web API call got an answer (undefined before the first). */
  slackReached: () => boolean | undefined;
}

export interface WatchedBot {
  /** Give this audit log to the desk instead of the store's own. */
  audit: AuditLog;
  /** The Slack app calls it with each acknowledgement's latency, in seconds. */
  observeAck: (seconds: number) => void;
  /** The background loops' rounds (the scheduler's jobs report to it). */
  polling: PollingRounds;
}

export interface ServedOps {
  readiness(): Promise<Readiness>;
  /** /healthz, /readyz, /metrics. */
  routes: OpsRoute[];
}

export function watchBot(ops: BotOps, parts: BotWatchParts): WatchedBot {
  requestGauges(ops.registry, parts.requests, ops.clock);
  new Gauge({
    name: 'desk_leader',
    help: '1 while this replica leads (runs polling, the deposit watch and outbox delivery), 0 while it follows.',
    registers: [ops.registry],
    collect() {
      this.set(parts.leadership() === 'leader' ? 1 : 0);
    },
  });
  return {
    audit: countingAuditLog(parts.audit, ops.registry),
    observeAck: slackAckLatency(ops.registry),
    polling: pollingRounds(ops.registry, ops.clock, parts.leadership),
  };
}

export function serveOps(ops: BotOps, parts: Pick<BotWatchParts, 'kv' | 'leadership'> & SlackWatchParts): ServedOps {
  const readiness = () =>
    checkReadiness({
      readStore: () => parts.kv.get(READINESS_PROBE_KEY),
      slackAuthChecked: parts.slackAuthChecked,
      slackConnected: parts.slackConnected,
      slackReached: parts.slackReached,
      exchange: ops.exchange,
      clock: ops.clock,
      leadership: parts.leadership,
      stopping: () => ops.isStopping(),
    });
  return { readiness, routes: opsRoutes({ registry: ops.registry, readiness }) };
}
