/**
 * Where the compliance use cases report what happened (the Slack layer implements it: the
 * deposit's message in the compliance channel and its thread). Every call comes after the state
 * it describes is persisted. The deposit watch delivers through an outbox, so a call that throws
 * is tried again on a later poll, and a crash between a call and its "delivered" mark repeats
 * that call once: implementations keep a call idempotent (update the message they already posted).
 */
import type { Deposit } from './exchange-port.js';
import type { Notifier } from './notifier.js';

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

/** What compliance tells the world: events, like the engine's (events.ts), through the same Notifier port. */
export type ComplianceEvent =
  /** A deposit seen for the first time. */
  | { type: 'deposit.seen'; deposit: Deposit }
  /** A tracked deposit's status or Travel Rule status moved; `deposit` is its latest form. */
  | { type: 'deposit.changed'; deposit: Deposit; changes: DepositChanges }
  /** The exchange accepted a declaration for `done.transactionId`. */
  | { type: 'declaration.done'; done: DeclarationDone };

export type ComplianceNotifier = Notifier<ComplianceEvent>;
