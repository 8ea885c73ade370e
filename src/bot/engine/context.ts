/**
 * What every use case works with: the ports, the settings, and the few in-process helpers
 * (locks, quote book, schedules, notice queue). Also the three habits every use case shares:
 * persist a transition, audit it, then notify.
 */
import type { Policy } from '../domain/policy.js';
import { mustAdvance, type DeskRequest, type RecordChanges } from '../domain/record.js';
import type { Command, RequestState } from '../domain/state-machine.js';
import { Background } from './background.js';
import { resolveConfig, type EngineConfig, type EngineConfigInput } from './engine-config.js';
import type { DeskEvent, EventInput } from './events.js';
import { createReplicaId } from './ids.js';
import { KeyedLock } from './keyed-lock.js';
import { NoticeQueue } from './notice-queue.js';
import type { AuditLog, Clock, ExchangePort, Ids, KeyValueStore, Leadership, Logger, Notifier, OutboxEvent, Repository } from './ports.js';
import { LeadershipState } from './leadership.js';
import { QuoteBook } from './execution/quote-book.js';
import { newPollSchedules, type PollSchedules } from './polling/poll-schedules.js';
import { TokenBucket } from '../domain/token-bucket.js';

export interface EngineDeps {
  exchange: ExchangePort;
  requests: Repository<DeskRequest>;
  kv: KeyValueStore;
  audit: AuditLog;
  /** Every notice the outbox carries, the requests' and compliance's (events.ts OutboxEvent). */
  notifier: Notifier<OutboxEvent>;
  clock: Clock;
  ids: Ids;
  policy: Policy;
  config?: EngineConfigInput;
  logger?: Logger;
  /** Whether this replica does the background work (ports.ts); default: the only replica, always leader. */
  leadership?: Leadership;
  /** This process's identity in execution leases (ids.ts createReplicaId, the default): one per process. */
  replica?: string;
}

export interface EngineContext {
  readonly exchange: ExchangePort;
  readonly requests: Repository<DeskRequest>;
  readonly kv: KeyValueStore;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly policy: Policy;
  readonly config: EngineConfig;
  readonly logger: Logger;
  readonly auditLog: AuditLog;
  readonly requestLocks: KeyedLock;
  readonly quotes: QuoteBook;
  /** Sends and reconciles of look-alike withdrawals, one at a time (look-alikes.ts). */
  readonly termsLocks: KeyedLock;
  /** Polling's in-memory schedule (how soon a status is read; never what is true). */
  readonly schedules: PollSchedules;
  readonly pollBudget: TokenBucket;
  readonly notices: NoticeQueue;
  /** Only for what is derived, not owed (notices/refresh-messages.ts); events go through `notices`. */
  readonly notifier: Notifier<OutboxEvent>;
  /** When every open request's message was last checked (notices/refresh-messages.ts). */
  lastRefreshAt: number;
  readonly background: Background;
  /** Executions, reconciles, polling and outbox delivery happen only while this is leader. */
  readonly leadership: Leadership;
  /** Who this replica is in the execution leases it takes (executing/lease.ts). */
  readonly replica: string;
}

export const SYSTEM = 'system';
export const EXCHANGE = 'exchange';

const consoleLogger: Logger = {
  info: () => {},
  warn: (message, data) => console.warn(message, data ?? ''),
  error: (message, data) => console.error(message, data ?? ''),
};

export function createContext(deps: EngineDeps): EngineContext {
  const config = resolveConfig(deps.config ?? {}, deps.exchange.limits);
  const logger = deps.logger ?? consoleLogger;
  const leadership = deps.leadership ?? new LeadershipState('leader');
  return {
    exchange: deps.exchange,
    requests: deps.requests,
    kv: deps.kv,
    clock: deps.clock,
    ids: deps.ids,
    policy: deps.policy,
    config,
    logger,
    auditLog: deps.audit,
    requestLocks: new KeyedLock(),
    quotes: new QuoteBook(),
    termsLocks: new KeyedLock(),
    schedules: newPollSchedules(),
    pollBudget: new TokenBucket(() => deps.clock.now(), config.poll.ratePerSecond, config.poll.burst),
    notices: new NoticeQueue(deps.requests.outbox, deps.notifier, deps.clock, logger, leadership),
    notifier: deps.notifier,
    lastRefreshAt: deps.clock.now(),
    background: new Background(logger),
    leadership,
    replica: deps.replica ?? createReplicaId(),
  };
}

/**
 * Persists `command` on the request if it is still in one of `from` (someone else may have moved
 * it meanwhile: then nothing is written and undefined comes back).
 */
export async function persistStep(
  ctx: EngineContext,
  id: string,
  from: readonly RequestState[],
  command: Command,
  changes: (current: DeskRequest) => RecordChanges = () => ({}),
): Promise<DeskRequest | undefined> {
  const now = ctx.clock.now();
  return ctx.requests.mutate(id, (current) => {
    if (current === undefined || !from.includes(current.state)) return { result: undefined };
    const next = mustAdvance(current, command, now, changes(current));
    return { next, result: next };
  });
}

/** Appends an audit line (durable before it resolves). */
export function audit(ctx: EngineContext, type: string, actor: string, requestId: string | undefined, data?: Record<string, unknown>): Promise<void> {
  const entry: Parameters<AuditLog['append']>[0] = { type, actor };
  if (requestId !== undefined) entry.requestId = requestId;
  if (data !== undefined) entry.data = data;
  return ctx.auditLog.append(entry);
}

/** Queues an event about `request` (already persisted) for the notifier. */
export function emit(ctx: EngineContext, request: DeskRequest, event: EventInput): void {
  ctx.notices.push(stamp(ctx, request, event));
}

/** An event about `request` as persisted: for a Mutation's outbox, written with the change. */
export function stamp(ctx: EngineContext, request: DeskRequest, event: EventInput): DeskEvent {
  return { ...event, at: ctx.clock.now(), requestId: request.id, request } as DeskEvent;
}
