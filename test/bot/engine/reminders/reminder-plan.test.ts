// The nudge due at a time, from the round and what the record says went out (pure).
import { describe, expect, it } from 'vitest';
import { createPolicy, DEFAULT_REMINDERS, type FrozenRule } from '../../../../src/bot/domain/policy.js';
import {
  nudgeDue,
  reminderRuleFor,
  type RoundTimes,
  type Reminders,
} from '../../../../src/bot/engine/reminders/reminder-plan.js';

const MIN = 60_000;
const T = Date.UTC(2026, 0, 5, 9);
const trade = DEFAULT_REMINDERS.trade; // 5 min, every 5 min, three
const round2: RoundTimes = { round: 2, roundStartedAt: T, expiresAt: T + 15 * MIN };

const at = (min: number, reminders?: Reminders) => nudgeDue(trade, { ...round2, reminders }, T + min * MIN);

describe('the nudge due', () => {
  it.each<[string, number, Reminders | undefined, string | undefined]>([
    ['nothing before the delay', 4.99, undefined, undefined],
    ['the first reminder at the delay', 5, undefined, 'approval.reminder 1'],
    [
      'a past round’s reminders count for nothing',
      5,
      { round: 1, sentAt: [T - 10 * MIN], expiryWarnedAt: T - MIN },
      'approval.reminder 1',
    ],
    ['not within the interval of the last one', 10, { round: 2, sentAt: [T + 6 * MIN] }, undefined],
    ['the second once the interval has passed', 11, { round: 2, sentAt: [T + 6 * MIN] }, 'approval.reminder 2'],
    ['the warning at 80% of the round', 12, { round: 2, sentAt: [T + 5 * MIN, T + 10 * MIN] }, 'request.expiring'],
    [
      'the warning only once',
      13,
      { round: 2, sentAt: [T + 5 * MIN, T + 10 * MIN], expiryWarnedAt: T + 12 * MIN },
      undefined,
    ],
    [
      'no third: it would come at expiry',
      14.99,
      { round: 2, sentAt: [T + 5 * MIN, T + 10 * MIN], expiryWarnedAt: T + 12 * MIN },
      undefined,
    ],
    ['nothing once expired', 15, undefined, undefined],
  ])('%s', (_, min, reminders, expected) => {
    const nudge = at(min, reminders);
    const said =
      nudge && (nudge.event.type === 'approval.reminder' ? `approval.reminder ${nudge.event.n}` : nudge.event.type);
    expect(said).toBe(expected);
    if (nudge) expect(nudge.reminders.round).toBe(2);
  });

  it('at most three, however long the round', () => {
    const long: RoundTimes = { round: 1, roundStartedAt: T, expiresAt: T + 24 * 60 * MIN };
    const sent: Reminders = {
      round: 1,
      sentAt: [T + 5 * MIN, T + 10 * MIN, T + 15 * MIN],
      expiryWarnedAt: T + 60 * MIN,
    };
    expect(nudgeDue(trade, { ...long, reminders: sent }, T + 23 * 60 * MIN)).toBeUndefined();
  });
});

describe("a request's reminder rule", () => {
  const policy = createPolicy({ requesters: ['U1'], approvers: ['U2', 'U3'] });
  const removal = (rule?: Partial<FrozenRule>) => ({
    kind: 'bank_account_removal' as const,
    snapshot: {
      kind: 'bank_account_removal' as const,
      bankAccount: { id: 1, currency: null, display: 'x' },
      note: null,
      ...(rule ? { rule: { name: 'r', hash: 'h', require: [{ group: 'approvers', count: 2 }], ...rule } } : {}),
    },
  });

  it.each<[string, Partial<FrozenRule> | undefined, { delayMs: number; intervalMs: number }]>([
    ['no frozen rule: the kind’s default', undefined, { delayMs: 30 * MIN, intervalMs: 30 * MIN }],
    ['a rule without reminders: the kind’s default', {}, { delayMs: 30 * MIN, intervalMs: 30 * MIN }],
    ['remind_after alone: also the interval', { remindAfterMs: 10 * MIN }, { delayMs: 10 * MIN, intervalMs: 10 * MIN }],
    [
      'remind_after and remind_every',
      { remindAfterMs: 10 * MIN, remindEveryMs: 20 * MIN },
      { delayMs: 10 * MIN, intervalMs: 20 * MIN },
    ],
    ['remind_every alone: the kind’s delay', { remindEveryMs: 7 * MIN }, { delayMs: 30 * MIN, intervalMs: 7 * MIN }],
  ])('%s', (_, rule, expected) => {
    expect(reminderRuleFor(policy, removal(rule))).toEqual({ ...expected, max: 3 });
  });
});
