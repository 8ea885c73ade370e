import type { ComplianceEvent, NoticeEvent, RequestEvent } from './events.js';

/**
 * Where the engine reports what happened (the Slack layer implements it). Events reach it from the
 * durable outbox, one request's in the order they happened, after the state they describe is
 * persisted, and again until it takes them: a notifier that throws is tried again later (with
 * backoff), and `progress` says which of an event's steps it already delivered, so a retry
 * repeats none. An error with `permanent: true` (Slack refused for a reason that will not pass by
 * itself) is tried again only slowly, and shown to approvers.
 */
export interface Notifier<E extends { type: string } = RequestEvent> {
  notify(event: E, progress?: DeliveryProgress): Promise<void> | void;
}

/** The deposit watch's and the declarations' notices, delivered like the requests' (compliance/). */
export type ComplianceNotifier = Notifier<ComplianceEvent>;

/** Where notices about no request are handed: in the durable outbox once `append` resolves (notice-queue.ts). */
export interface OutboxNotices<E extends NoticeEvent = NoticeEvent> {
  append(events: E[]): Promise<void>;
}

/** Where compliance hands its notices. */
export type ComplianceNotices = OutboxNotices<ComplianceEvent>;

export interface DeliveryProgress {
  /** Steps of this event already delivered (e.g. "message", "thread", "dm"). */
  readonly done: readonly string[];
  /** Records a step as delivered (durable before it resolves). */
  markDone(step: string): Promise<void>;
}
