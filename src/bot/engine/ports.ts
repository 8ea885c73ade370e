/**
 * What the approval engine needs from the world. Adapters implement these: exchange/ (the
 * client), store/ (durable files), slack/ (the notifier), main.ts wires them. Tests pass the
 * in-memory versions. The exchange port (ports/exchange-port.ts) speaks the engine's terms; app/ never
 * imports exchange/.
 */
import type { ComplianceEvent, DeskEvent, OutboxEvent } from './events.js';
import type { Clock } from '../ports/clock.js';
import type { ListOptions } from '../ports/list-options.js';
import type { ExchangePort } from '../ports/exchange-port.js';

export type { Clock, ListOptions, ExchangePort };

// ---- ids --------------------------------------------------------------------------------------

export interface Ids {
  /** A random UUID: idempotency keys (client_order_id, request_id). */
  uuid(): string;
  /** A short, human-typable request id such as `R7K2QX`. */
  requestId(): string;
}

// ---- storage ----------------------------------------------------------------------------------

export interface Mutation<R, T> {
  /** The new record to persist; undefined leaves the stored record as it is. */
  next?: R;
  /** What `mutate` resolves with. */
  result: T;
  /** What must reach Slack about it: written to the outbox in the same durable write as `next`. */
  outbox?: DeskEvent[];
}

/** An event waiting to reach Slack (a request's or a deposit's), with how its delivery went so far. */
export interface OutboxEntry {
  /** Increasing: delivery is in this order within a request. */
  seq: number;
  /** The event's ordering key: a request's id, or a deposit's (events.ts depositKey). */
  requestId: string;
  event: OutboxEvent;
  attempts: number;
  /** Not tried again before this (epoch ms). */
  nextAt: number;
  lastError: string | null;
  /** Slack refused for a reason that will not pass by itself (channel_not_found, invalid_auth...). */
  permanent: boolean;
  /** When its delivery first failed, for how long Slack has been refusing. */
  failingSince: number | null;
  /** Steps of this event Slack has already taken (the message, the thread post, the DM): never repeated. */
  done: string[];
}

export type OutboxChanges = Partial<Pick<OutboxEntry, 'attempts' | 'nextAt' | 'lastError' | 'permanent' | 'failingSince' | 'done'>>;

/** The durable outbox, in the same store (and the same writes) as the requests. */
export interface Outbox {
  /** Entries not yet delivered, oldest first. */
  pending(): Promise<OutboxEntry[]>;
  /** Appends events on their own (a state change writes them with its Mutation instead). */
  append(events: OutboxEvent[]): Promise<void>;
  update(seq: number, changes: OutboxChanges): Promise<void>;
  /** Delivered: gone. */
  remove(seq: number): Promise<void>;
}

/**
 * A write whose answer was lost: the connection broke after the commit was sent, so the change
 * may or may not be stored, and only reading it back tells which. A store that can lose a
 * commit's answer (PostgreSQL: store/postgres/errors.ts CommitOutcomeUnknownError) rejects with
 * this or a subclass; the caller must not assume either outcome.
 */
export class WriteOutcomeUnknownError extends Error {
  override name = 'WriteOutcomeUnknownError';
}

/**
 * Durable records with one write queue. `mutate` runs read-modify-write atomically with respect
 * to every other mutate on the same store, and resolves only after the new record is on disk
 * (fsync). Records the repository's `isFinished` says are done move to append-only history.
 */
export interface Repository<R extends { id: string }> {
  get(id: string): Promise<R | undefined>;
  /** Open and in-flight records only (not history). */
  listLive(): Promise<R[]>;
  /** Rejects with WriteOutcomeUnknownError when the write's answer was lost (read the record to know). */
  mutate<T>(id: string, fn: (current: R | undefined) => Mutation<R, T>): Promise<T>;
  /** Most recent finished records first, for listings; bounded. */
  recentHistory(limit: number): Promise<R[]>;
  /** What must reach Slack, written with the records' changes. */
  readonly outbox: Outbox;
}

/**
 * Small durable values: polling positions, cursors, Slack references and form markers. Written
 * with fsync before resolving. Every replica of the bot shares one store, so a value is what any
 * of them reads next, and `setIfAbsent` is the one way to claim something (a form's submission,
 * a bank account's removal) that two replicas may try at once.
 */
export interface KeyValueStore {
  get<T>(key: string): Promise<T | undefined>;
  /** `undefined` deletes the key. */
  set<T>(key: string, value: T): Promise<void>;
  /**
   * Stores `value` only if `key` holds nothing, atomically against every other write to the store
   * (from any replica); true when this call stored it. Durable before it resolves, like `set`.
   */
  setIfAbsent<T>(key: string, value: T): Promise<boolean>;
  /**
   * Deletes `key` only if it holds `expected` (compared as JSON, key order aside), atomically like
   * `setIfAbsent`: a claim released by its holder, never one another holder took meanwhile. True
   * when this call deleted it.
   */
  deleteIf<T>(key: string, expected: T): Promise<boolean>;
}

export interface AuditEntryInput {
  /** e.g. request.created, approval.counted, approval.refused, execution.attempt, exchange.answer */
  type: string;
  /** Slack user id, `system` or `exchange`. */
  actor: string;
  requestId?: string;
  data?: Record<string, unknown>;
}

/** Append-only, fsync'd, hash-chained. Resolves after the line is durable. */
export interface AuditLog {
  append(entry: AuditEntryInput): Promise<void>;
}

// ---- leadership -------------------------------------------------------------------------------

export type Role = 'leader' | 'follower';

/**
 * Whether this process is, among the replicas sharing one store, the one that does the background
 * work: the engine's ticks (expiries, reconciles, executions of approved requests, status
 * polling), the deposit watch, outbox delivery to Slack and the retention pruning. At most one
 * replica is leader at a time; leadership can be lost at any moment (a database session ends) and
 * gained (the leader died). The work a replica does for the interaction it is answering (a form,
 * a click) is not background work and runs on every replica.
 *
 * Implementations: the file store's (app/leadership.ts LeadershipState, always leader: one process
 * holds the files' locks), a database's advisory lock polled every few seconds.
 */
export interface Leadership {
  isLeader(): boolean;
  role(): Role;
  /** Calls `listener` with the new role after each change; returns the function that unsubscribes it. */
  onChange(listener: (role: Role) => void): () => void;
}

// ---- notifier and logging (approval engine) ---------------------------------------------------

export type { ComplianceEvent, DeskEvent, DeskEventType, OutboxEvent } from './events.js';

/**
 * Where the engine reports what happened (the Slack layer implements it). Events reach it from the
 * durable outbox, one request's in the order they happened, after the state they describe is
 * persisted, and again until it takes them: a notifier that throws is tried again later (with
 * backoff), and `progress` says which of an event's steps it already delivered, so a retry
 * repeats none. An error with `permanent: true` (Slack refused for a reason that will not pass by
 * itself) is tried again only slowly, and shown to approvers.
 */
export interface Notifier<E extends { type: string } = DeskEvent> {
  notify(event: E, progress?: DeliveryProgress): Promise<void> | void;
}

/** The deposit watch's and the declarations' notices, delivered like the requests' (compliance/). */
export type ComplianceNotifier = Notifier<ComplianceEvent>;

/** Where compliance hands its notices: in the durable outbox once `append` resolves (notice-queue.ts). */
export interface ComplianceNotices {
  append(events: ComplianceEvent[]): Promise<void>;
}

export interface DeliveryProgress {
  /** Steps of this event already delivered (e.g. "message", "thread", "dm"). */
  readonly done: readonly string[];
  /** Records a step as delivered (durable before it resolves). */
  markDone(step: string): Promise<void>;
}

/** Operational log lines (never secrets). */
export interface Logger {
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}
