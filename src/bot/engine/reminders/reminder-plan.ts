/**
 * When a waiting request's approvers are nudged (pure): the reminders' times follow the rule from
 * the start of the approval round, never closer than the interval to the previous one; the
 * expiry warning comes at EXPIRY_WARNING_AT of the round's life. Nothing is due once it expired.
 */
import { DEFAULT_REMINDERS, EXPIRY_WARNING_AT, type Policy, type ReminderRule } from '../../domain/policy.js';
import type { RequestRecord } from '../../domain/record.js';

export type RoundTimes = Pick<RequestRecord, 'round' | 'roundStartedAt' | 'expiresAt'>;
export type Reminders = NonNullable<RequestRecord['reminders']>;

/** The nudge due now, and the record's `reminders` once it is sent. */
export type Nudge = {
  event: { type: 'approval.reminder'; n: number; round: number } | { type: 'request.expiring'; round: number };
  reminders: Reminders;
};

/**
 * The reminder rule of a request: its frozen rule's remind_after and remind_every (a pending request
 * keeps those it was made under), else its kind's default; remind_every defaults to remind_after.
 */
export function reminderRuleFor(_policy: Policy, request: Pick<RequestRecord, 'kind' | 'snapshot'>): ReminderRule {
  const byKind = DEFAULT_REMINDERS[request.kind];
  const rule = request.snapshot.rule;
  const delayMs = rule?.remindAfterMs ?? byKind.delayMs;
  const intervalMs = rule?.remindEveryMs ?? rule?.remindAfterMs ?? byKind.intervalMs;
  return { delayMs, intervalMs, max: byKind.max };
}

/**
 * When the `n`-th reminder (from 1) is due, given when the one before it went out (undefined for
 * the first); undefined when there is none: past the rule's maximum, or not before expiry.
 */
export function reminderDueAt(
  rule: ReminderRule,
  round: RoundTimes,
  n: number,
  previousAt: number | undefined,
): number | undefined {
  if (n < 1 || n > rule.max) return undefined;
  const planned = round.roundStartedAt + rule.delayMs + (n - 1) * rule.intervalMs;
  const at = previousAt === undefined ? planned : Math.max(planned, previousAt + rule.intervalMs);
  return at < round.expiresAt ? at : undefined;
}

/** When the thread says the round is about to expire. */
export function expiryWarningAt(round: RoundTimes): number {
  return round.roundStartedAt + Math.floor(EXPIRY_WARNING_AT * (round.expiresAt - round.roundStartedAt));
}

/** The one nudge due at `now` for this round (a reminder first), given what the record says went out. */
export function nudgeDue(
  rule: ReminderRule,
  request: RoundTimes & Pick<RequestRecord, 'reminders'>,
  now: number,
): Nudge | undefined {
  if (now >= request.expiresAt) return undefined;
  const sent: Reminders =
    request.reminders?.round === request.round ? request.reminders : { round: request.round, sentAt: [] };
  const n = sent.sentAt.length + 1;
  const dueAt = reminderDueAt(rule, request, n, sent.sentAt.at(-1));
  if (dueAt !== undefined && now >= dueAt)
    return {
      event: { type: 'approval.reminder', n, round: request.round },
      reminders: { ...sent, sentAt: [...sent.sentAt, now] },
    };
  if (sent.expiryWarnedAt === undefined && now >= expiryWarningAt(request))
    return { event: { type: 'request.expiring', round: request.round }, reminders: { ...sent, expiryWarnedAt: now } };
  return undefined;
}
