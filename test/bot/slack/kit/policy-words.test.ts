// Help and the trade form say what the policy says, never a number written into a message.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../../../src/bot/domain/policy.js';
import { readPolicyFile } from '../../../../src/bot/config/policy-file.js';
import { approvalsSentence, tradeApprovalHint } from '../../../../src/bot/slack/kit/policy-words.js';
import { deskHelp } from '../../../../src/bot/slack/listings/help.js';

const EXAMPLE = readFileSync(new URL('../../../../policy.example.yaml', import.meta.url), 'utf8');
const fromFile = readPolicyFile('policy.yaml', () => EXAMPLE).policy!;

describe('policy words', () => {
  it('the variables: REQUIRED_APPROVALS as it is, not "two"', () => {
    const three = createPolicy({ requesters: ['R'], approvers: ['A1', 'A2', 'A3'], requiredApprovals: 3 });
    expect(approvalsSentence(three)).toBe('Every money movement needs 3 approvals by people other than the requester.');
    expect(tradeApprovalHint(three)).toBe(
      'The order executes later, after 3 approvals, at a fresh quote within this limit.',
    );
  });

  it('a policy file: each rule and what it needs, and where to read it in full', () => {
    expect(approvalsSentence(fromFile)).toBe(
      "Approvals follow the desk's policy, never the requester's own: large withdrawals: 2 of treasury and 1 of risk; trades: 2 of treasury; everything else: 2 of treasury. `/desk policy` shows it in full.",
    );
    expect(tradeApprovalHint(fromFile)).toBe(
      'The order executes later, after the approvals of rule "trades" (2 of treasury), at a fresh quote within this limit.',
    );
  });

  it('/desk help carries the sentence and lists /desk policy', () => {
    const text = JSON.stringify(deskHelp(approvalsSentence(fromFile)));
    expect(text).toContain('2 of treasury and 1 of risk');
    expect(text).toContain('/desk policy');
    expect(text).not.toContain('two approvals');
  });
});
