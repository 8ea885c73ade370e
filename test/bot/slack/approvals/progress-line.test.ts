// The approval message's progress line names a delegate's approval "@Ben for @Ana", under a policy file's groups too.
import { describe, expect, it } from 'vitest';
import { progressLine } from '../../../../src/bot/slack/approvals/approval-message.js';

const at = 0;
describe('progressLine', () => {
  it('a delegate in the plain count', () => {
    const approvals = [{ userId: 'U0ANA', delegate: 'U0BEN', at }];
    expect(progressLine({ approvals, requiredApprovals: 2 })).toBe('1 of 2 approvals: <@U0BEN> for <@U0ANA>');
  });

  it('a delegate counted in a group', () => {
    const approvals = [{ userId: 'U0ANA', delegate: 'U0BEN', at }];
    const tally = [
      { group: 'treasury', count: 2, by: ['U0ANA'] },
      { group: 'risk', count: 1, by: [] },
    ];
    expect(progressLine({ approvals, requiredApprovals: 3, rule: 'large withdrawals', tally })).toBe(
      'Rule *large withdrawals* · Needs 2 of treasury (1 so far: <@U0BEN> for <@U0ANA>) and 1 of risk',
    );
  });

  it('a delegate who may approve for someone still awaited, while it waits; not once decided', () => {
    const actingDelegates = [{ userId: 'U0ANA', delegate: 'U0BEN' }];
    expect(progressLine({ approvals: [], requiredApprovals: 2, actingDelegates })).toBe(
      '0 of 2 approvals so far · <@U0BEN> for <@U0ANA> may also approve',
    );
    const approvals = [
      { userId: 'U0CAL', at },
      { userId: 'U0DEE', at },
    ];
    expect(
      progressLine({ approvals, requiredApprovals: 2, actingDelegates, verdict: { outcome: 'approved', at } }),
    ).toBe(':white_check_mark: Approved by <@U0CAL> and <@U0DEE>');
  });
});
