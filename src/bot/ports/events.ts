/**
 * What the engine tells the world, through the Notifier port. Every event carries the request
 * record as persisted when the event happened, so a driver can re-render from it alone.
 *
 * Delivery is through the durable outbox (notices/): an event is written with the change it
 * describes (execution, requests, approvals) or just after it (the others), and delivered in
 * order per request until the notifier takes it; the steps of an event the notifier already
 * took are never repeated. "Reported once, never twice" also holds for status changes across
 * restarts, because polling compares against the persisted last-reported values.
 */
import type {
  Candidate,
  RequestRecord,
  Failure,
  SettlementRecord,
  PersonQuestion,
  RemoteStatus,
} from '../domain/record.js';
import type { RefusalReason } from '../domain/refusals.js';
import type { Deposit } from '../ports/exchange-port.js';

interface Base<T extends string> {
  type: T;
  /** Engine clock, epoch ms. */
  at: number;
  requestId: string;
  request: RequestRecord;
}

export type RequoteReason = 'expired' | 'expiring' | 'superseded' | 'used' | 'unusable';

export type RequestEvent =
  | Base<'request.created'>
  | (Base<'approval.counted'> & { by: string; count: number; required: number })
  | (Base<'approval.refused'> & { by: string; reason: RefusalReason; message: string })
  | Base<'request.approved'>
  | (Base<'request.rejected'> & { by: string; reason: string })
  | (Base<'request.cancelled'> & { by: string })
  | Base<'request.expired'>
  /** Approvers who have not acted are reminded by DM: the `n`-th reminder of approval round `round` (engine/reminders/). */
  | (Base<'approval.reminder'> & { n: number; round: number })
  /** Round `round` has reached most of its life without enough approvals: the thread says so (engine/reminders/). */
  | (Base<'request.expiring'> & { round: number })
  /** A withdrawal's destination is in its cooldown: execution waits until `executeAt`. */
  | (Base<'execution.scheduled'> & { executeAt: number; reason: string })
  | (Base<'execution.started'> & { attempt: number; idempotencyKey: string; retry: boolean })
  | (Base<'trade.requoted'> & {
      reason: RequoteReason;
      oldPrice: string;
      newPrice: string;
      limitPrice: string;
      withinLimit: boolean;
      expiresAt: number;
    })
  | (Base<'trade.awaiting_reapproval'> & {
      price: string;
      oldLimitPrice: string;
      newLimitPrice: string;
      snapshotHash: string;
    })
  | (Base<'execution.submitted'> & { exchangeId: string })
  | (Base<'execution.outcome_unknown'> & { message: string })
  | (Base<'execution.reconciled'> & { found: boolean; exchangeId: string | null })
  /**
   * The exchange cannot settle an unknown outcome: nothing appeared within the settle window, or
   * more than one record could be ours. The bot keeps looking (less often) until a person decides;
   * `request.execution.inDoubt.question` holds the same question.
   */
  | (Base<'execution.needs_person'> & { question: PersonQuestion })
  /** A person settled (or asked to look again at) an unknown outcome; audited. */
  | (Base<'execution.person_decided'> & { decision: SettlementRecord })
  /**
   * A person's send again or mark as not sent was not carried out: the look made for it found the
   * request's record (`found`: followed now), a record that may be ours (`appeared`, asked again
   * with them), or could not read the exchange (`unreadable`, asked again).
   */
  | (Base<'execution.person_decision_withheld'> & {
      decision: SettlementRecord;
      reason: 'found' | 'appeared' | 'unreadable';
      appeared: Candidate[];
    })
  | (Base<'status.changed'> & { changed: (keyof RemoteStatus)[] } & RemoteStatus)
  | (Base<'execution.failed'> & Failure)
  | Base<'request.completed'>
  /**
   * Polling gave up, after its maximum age or (`not_found`) after the exchange answered 404 past
   * the bound; the last known status stays as it was and the outcome is not settled.
   */
  | (Base<'polling.stopped'> & { status: string | null } & (
        { reason?: 'max_age' } | { reason: 'not_found'; exchangeMessage: string }
      ))
  /**
   * Who counts changed without an approval (a start under other groups, a delegation set, ended or
   * run out; engine/approval/recount.ts): the record's `tally` and `actingDelegates` say it now.
   */
  | Base<'approval.recounted'>
  /** No change: the request's message is posted if missing and brought up to date (on start, periodically). */
  | Base<'message.refresh'>;

export type RequestEventType = RequestEvent['type'];

/** Distributes Omit over the union, so each event keeps its own fields. */
export type EventInput = RequestEvent extends infer E
  ? E extends RequestEvent
    ? Omit<E, 'at' | 'requestId' | 'request'>
    : never
  : never;

/** A status that moved, as `from` -> `to` (the Travel Rule status may be absent: null). */
export interface Change<T> {
  from: T;
  to: T;
}

/** Only the fields that changed are present. */
export interface DepositChanges {
  status?: Change<string>;
  travelRuleStatus?: Change<string | null>;
}

/** A counterparty declaration the exchange accepted (201). */
export interface DeclarationDone {
  transactionId: string;
  /** Slack user id of the compliance officer who declared. */
  userId: string;
  /** Our clock, epoch ms. */
  at: number;
  entityType: 'individual' | 'entity';
  entityName: string;
  ownership: 'first_party' | 'third_party';
  /** The wallet part as sent: a listed wallet (with its label when the form had one) or a typed name. */
  wallet?: { kind: 'listed'; id: string; label?: string } | { kind: 'unlisted'; name: string };
  /** A typed wallet name creates an unverified wallet at the exchange and starts a compliance review. */
  createsUnverifiedWallet: boolean;
  /** True when an earlier submission whose answer was lost turned out to have arrived. */
  confirmedLate: boolean;
}

/**
 * What compliance tells the world, through the same outbox and Notifier as the requests' events.
 * `requestId` is the outbox's ordering key: `deposit:<transaction id>` (depositKey), so one
 * deposit's notices keep their order and never wait on another's.
 */
export type ComplianceEvent = { requestId: string; /** Engine clock when it was written, epoch ms. */ at: number } &
  /** A deposit seen for the first time. */
  (
    | { type: 'deposit.seen'; deposit: Deposit }
    /** A tracked deposit's status or Travel Rule status moved; `deposit` is its latest form. */
    | { type: 'deposit.changed'; deposit: Deposit; changes: DepositChanges }
    /** The exchange accepted a declaration for `done.transactionId`. */
    | { type: 'declaration.done'; done: DeclarationDone }
  );

/** The outbox key of a deposit's notices. */
export function depositKey(transactionId: string): string {
  return `deposit:${transactionId.toLowerCase()}`;
}

/**
 * An admin removed `user`'s step-up enrollment (`/desk 2fa reset`): the person is told by DM, a
 * security notice that must reach them. `requestId` is the outbox's ordering key, stepUpKey(user).
 */
export interface StepUpResetEvent {
  type: 'step_up.reset';
  requestId: string;
  /** Engine clock when it was written, epoch ms. */
  at: number;
  /** Whose enrollment was removed. */
  user: string;
  /** The admin who removed it. */
  by: string;
}

/** The outbox key of a person's step-up notices. */
export function stepUpKey(userId: string): string {
  return `step-up:${userId}`;
}

/** Notices about no request, appended to the outbox on their own (engine.notices). */
export type NoticeEvent = ComplianceEvent | StepUpResetEvent;

/** Everything the outbox carries to the one Notifier. */
export type OutboxEvent = RequestEvent | NoticeEvent;

export function isRequestEvent(event: OutboxEvent): event is RequestEvent {
  return 'request' in event;
}

/** The nudges to approvers (engine/reminders/): delivered by their own notifier, not the approval message's. */
export type ReminderEvent = Extract<RequestEvent, { type: 'approval.reminder' | 'request.expiring' }>;

export function isReminderEvent(event: OutboxEvent): event is ReminderEvent {
  return event.type === 'approval.reminder' || event.type === 'request.expiring';
}

export function isStepUpEvent(event: OutboxEvent): event is StepUpResetEvent {
  return event.type === 'step_up.reset';
}
