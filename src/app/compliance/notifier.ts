/**
 * Where the compliance use cases report what happened (the Slack layer implements it: the
 * deposit's message in the compliance channel and its thread). Every call comes after the state
 * it describes is persisted. The deposit watch delivers through an outbox, so a call that throws
 * is tried again on a later poll, and a crash between a call and its "delivered" mark repeats
 * that call once: implementations keep a call idempotent (update the message they already posted).
 */
import type { Deposit } from '../../ports/exchange.js';

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

export interface ComplianceNotifier {
  /** A deposit seen for the first time. */
  depositSeen(deposit: Deposit): Promise<void> | void;
  /** A tracked deposit's status or Travel Rule status moved; `deposit` is its latest form. */
  depositChanged(deposit: Deposit, changes: DepositChanges): Promise<void> | void;
  /** The exchange accepted a declaration for `transactionId`. */
  declarationDone(done: DeclarationDone): Promise<void> | void;
}
