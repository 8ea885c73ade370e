// Who a waiting request still needs (reminders and the expiry warning name them), and the hash that
// says whether the groups changed since a message was worked out.
import { describe, expect, it } from 'vitest';
import { countingHash, stillNeeded } from '../../../../src/bot/domain/policy.js';
import { createPolicy } from '../../../../src/bot/domain/policy/build.js';

const file = (groups: Record<string, string[]>, forbidden: string[] = []) =>
  createPolicy({
    requesters: ['REQ'],
    groups,
    rules: [
      {
        name: 'all',
        require: [
          { group: 'treasury', count: 2 },
          { group: 'risk', count: 1 },
        ],
      },
    ],
    delegationForbiddenFor: forbidden,
  });

const policy = file({ treasury: ['ANA', 'CAL', 'DEE'], risk: ['RIT', 'ROB'] });
const request = (approvals: string[]) => ({
  requester: 'REQ',
  snapshot: {
    rule: {
      name: 'all',
      hash: 'h',
      require: [
        { group: 'treasury', count: 2 },
        { group: 'risk', count: 1 },
      ],
    },
  } as never,
  snapshotHash: 's',
  approvals: approvals.map((userId) => ({ userId, snapshotHash: 's' })),
  requiredApprovals: 3,
});

describe('stillNeeded', () => {
  it.each<[string, string[], string[]]>([
    ['nobody approved: everyone in a group', [], ['ANA', 'CAL', 'DEE', 'RIT', 'ROB']],
    ['one of treasury: the rest of treasury and risk', ['ANA'], ['CAL', 'DEE', 'RIT', 'ROB']],
    ['treasury has its two: only risk', ['ANA', 'CAL'], ['RIT', 'ROB']],
  ])('%s', (_name, approvals, expected) => {
    expect(stillNeeded(policy, request(approvals))).toEqual(expected);
  });
});

describe('countingHash', () => {
  it('changes with the groups and delegation.forbidden_for, not with their order', () => {
    const same = file({ risk: ['ROB', 'RIT'], treasury: ['DEE', 'CAL', 'ANA'] });
    expect(countingHash(same)).toBe(countingHash(policy));
    expect(countingHash(file({ treasury: ['CAL', 'DEE', 'EVE'], risk: ['RIT', 'ROB'] }))).not.toBe(
      countingHash(policy),
    );
    expect(countingHash(file({ treasury: ['ANA', 'CAL', 'DEE'], risk: ['RIT', 'ROB'] }, ['risk']))).not.toBe(
      countingHash(policy),
    );
  });
});
