/**
 * The store's ports: durable requests with their outbox, small values, the audit log. Implemented
 * by store/ (files or PostgreSQL); tests pass the in-memory versions (store/memory.ts).
 */
import type { RequestEvent, OutboxEvent } from './events.js';

export interface Mutation<R, T> {
  /** The new record to persist; undefined leaves the stored record as it is. */
  next?: R;
  /** What `mutate` resolves with. */
  result: T;
  /** What must reach Slack about it: written to the outbox in the same durable write as `next`. */
  outbox?: RequestEvent[];
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

export type OutboxChanges = Partial<
  Pick<OutboxEntry, 'attempts' | 'nextAt' | 'lastError' | 'permanent' | 'failingSince' | 'done'>
>;

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
  /**
   * `mutate` whose `fn` also sees the other records in scope (every live one, and the finished ones
   * whose `updatedAt` is at or after `scope.since`) as they are when it runs. Every mutateInScope on
   * the store runs one at a time, from any replica (a lock the store holds for the write), so a
   * decision over several records (a limit of the approval policy) is never taken twice at once.
   */
  mutateInScope<T>(
    scope: { since: number },
    id: string,
    fn: (current: R | undefined, others: readonly R[]) => Mutation<R, T>,
  ): Promise<T>;
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
