/**
 * The approvers' step-up state (enrollment, the last accepted time step, wrong codes, lockout),
 * one record per Slack user, shared by every replica. Implemented by store/step-up.ts (files, one
 * process) and store/postgres/step-up.ts (a row lock per user across replicas).
 */
import type { StepUpState } from '../domain/step-up/attempts.js';

export interface StepUpChange<T> {
  /** The new state; undefined leaves it as it is, null removes it. */
  next?: StepUpState | null;
  result: T;
}

export interface StepUpStore {
  get(userId: string): Promise<StepUpState | undefined>;
  /**
   * Reads, decides and writes one user's state atomically against every other change of that user
   * on any replica; durable before it resolves. `fn` runs once and must not do I/O.
   */
  change<T>(userId: string, fn: (current: StepUpState | undefined) => StepUpChange<T>): Promise<T>;
}
