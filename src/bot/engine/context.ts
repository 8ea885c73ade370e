/**
 * What every use case works with: the ports, the settings, and the few in-process helpers
 * (locks, notice queue). Also the three habits every use case shares: persist a transition,
 * audit it, then notify. The base imports no stage: a stage keeps its own state (perEngine).
 */
import type { Policy } from '../domain/policy.js';
import { NO_STEP_UP, type StepUpSettings } from '../domain/step-up/required.js';
import { mustAdvance, type RequestRecord, type RecordChanges } from '../domain/record.js';
import type { Command, RequestState } from '../domain/state-machine.js';
import { Background } from './background.js';
import { resolveConfig, type EngineConfig, type EngineConfigInput } from './engine-config.js';
import type { NoticeEvent, RequestEvent, EventInput, OutboxEvent } from '../ports/events.js';
import { createReplicaId } from './ids.js';
import { KeyedLock } from '../domain/keyed-lock.js';
import type { AuditLog, KeyValueStore, Outbox, Repository } from '../ports/store.js';
import type { Clock } from '../ports/clock.js';
import type { ExchangePort } from '../ports/exchange-port.js';
import type { Ids } from '../ports/ids.js';
import { type Leadership, LeadershipState } from '../ports/leadership.js';
import type { Logger } from '../ports/logger.js';
import type { Notifier } from '../ports/notifier.js';
import { TokenBucket } from '../domain/token-bucket.js';

export interface EngineDeps {
  exchange: ExchangePort;
  requests: Repository<RequestRecord>;
  kv: KeyValueStore;
  audit: AuditLog;
  /** Every notice the outbox carries, the requests' and compliance's (events.ts OutboxEvent). */
  notifier: Notifier<OutboxEvent>;
  clock: Clock;
  ids: Ids;
  policy: Policy;
  /** Which approvals need a one-time code (issue 24); default: none. */
  stepUpSettings?: StepUpSettings;
  config?: EngineConfigInput;
  logger?: Logger;
  /** Whether this replica does the background work (ports/leadership.ts); default: the only replica, always leader. */
  leadership?: Leadership;
  /** This process's identity in execution leases (ids.ts createReplicaId, the default): one per process. */
  replica?: string;
}

export interface EngineContext {
  readonly exchange: ExchangePort;
  readonly requests: Repository<RequestRecord>;
  readonly kv: KeyValueStore;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly policy: Policy;
  readonly stepUpSettings: StepUpSettings;
  readonly config: EngineConfig;
  readonly logger: Logger;
  readonly auditLog: AuditLog;
  readonly requestLocks: KeyedLock;
  /** Sends and looks of look-alike withdrawals, one at a time (look-alikes.ts). */
  readonly termsLocks: KeyedLock;
  readonly pollBudget: TokenBucket;
  readonly notices: Notices;
  /** Only for what is derived, not owed (notices/refresh-messages.ts); events go through `notices`. */
  readonly notifier: Notifier<OutboxEvent>;
  /** When every open request's message was last checked (notices/refresh-messages.ts). */
  lastRefreshAt: number;
  readonly background: Background;
  /** Executions, looks, polling and outbox delivery happen only while this is leader. */
  readonly leadership: Leadership;
  /** Who this replica is in the execution leases it takes (execution/lease.ts). */
  readonly replica: string;
}

/** Events on their way to the outbox (notices/notice-queue.ts NoticeQueue, made by engine.ts). */
export interface Notices {
  push(event: RequestEvent): void;
  /** Notices about no request (compliance's, step-up resets): in the durable outbox once this resolves. */
  append(events: NoticeEvent[]): Promise<void>;
  kick(): void;
  drained(): Promise<void>;
  readonly delivery: { resume(): Promise<void> };
}

/** What the notices stage is built from: the base hands it these, engine.ts makes it. */
export interface NoticesDeps {
  outbox: Outbox;
  notifier: Notifier<OutboxEvent>;
  clock: Clock;
  logger: Logger;
  leadership: Leadership;
}

export const SYSTEM = 'system';
export const EXCHANGE = 'exchange';

const consoleLogger: Logger = {
  info: () => {},
  warn: (message, data) => console.warn(message, data ?? ''),
  error: (message, data) => console.error(message, data ?? ''),
};

export function createContext(deps: EngineDeps, newNotices: (o: NoticesDeps) => Notices): EngineContext {
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
    stepUpSettings: deps.stepUpSettings ?? NO_STEP_UP,
    config,
    logger,
    auditLog: deps.audit,
    requestLocks: new KeyedLock(),
    termsLocks: new KeyedLock(),
    pollBudget: new TokenBucket(() => deps.clock.now(), config.poll.ratePerSecond, config.poll.burst),
    notices: newNotices({
      outbox: deps.requests.outbox,
      notifier: deps.notifier,
      clock: deps.clock,
      logger,
      leadership,
    }),
    notifier: deps.notifier,
    lastRefreshAt: deps.clock.now(),
    background: new Background(logger),
    leadership,
    replica: deps.replica ?? createReplicaId(),
  };
}

/**
 * In-memory state a stage keeps for one engine (execution's quote book, polling's schedules),
 * made on its first use: the stage owns it, the base needs no import of it.
 */
export function perEngine<T>(create: () => T): (ctx: EngineContext) => T {
  const states = new WeakMap<EngineContext, T>();
  return (ctx) => {
    let state = states.get(ctx);
    if (state === undefined) states.set(ctx, (state = create()));
    return state;
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
  changes: (current: RequestRecord) => RecordChanges = () => ({}),
): Promise<RequestRecord | undefined> {
  const now = ctx.clock.now();
  return ctx.requests.mutate(id, (current) => {
    if (current === undefined || !from.includes(current.state)) return { result: undefined };
    const next = mustAdvance(current, command, now, changes(current));
    return { next, result: next };
  });
}

/** Appends an audit line (durable before it resolves). */
export function audit(
  ctx: EngineContext,
  type: string,
  actor: string,
  requestId: string | undefined,
  data?: Record<string, unknown>,
): Promise<void> {
  const entry: Parameters<AuditLog['append']>[0] = { type, actor };
  if (requestId !== undefined) entry.requestId = requestId;
  if (data !== undefined) entry.data = data;
  return ctx.auditLog.append(entry);
}

/** Queues an event about `request` (already persisted) for the notifier. */
export function emit(ctx: EngineContext, request: RequestRecord, event: EventInput): void {
  ctx.notices.push(stamp(ctx, request, event));
}

/** An event about `request` as persisted: for a Mutation's outbox, written with the change. */
export function stamp(ctx: EngineContext, request: RequestRecord, event: EventInput): RequestEvent {
  return { ...event, at: ctx.clock.now(), requestId: request.id, request };
}
