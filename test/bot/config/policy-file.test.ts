// POLICY_FILE: the example reads as a policy; every problem is listed at once; with the
// file, the policy variables are refused, naming both.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/bot/config/index.js';
import { parsePolicyText, readPolicyFile } from '../../../src/bot/config/policy-file.js';
import { policyOf } from '../../../src/bot/runtime/compose.js';
import { delegationRefusal, requiredApprovalsFor } from '../../../src/bot/domain/policy.js';
import { describePolicy } from '../../../src/bot/domain/policy/describe.js';

const EXAMPLE = readFileSync(new URL('../../../policy.example.yaml', import.meta.url), 'utf8');
const env = {
  SLACK_BOT_TOKEN: 'xoxb-111111111-222222222-SECRETBOTTOKENVALUE',
  SLACK_SIGNING_SECRET: 'signingsecretvalue0123456789abcd',
  APPROVAL_CHANNEL_ID: 'C0123ABCD',
  POLICY_FILE: 'policy.yaml',
};
const files = (text: string) => (path: string) => {
  if (path !== '/srv/bot/policy.yaml') throw Object.assign(new Error('no'), { code: 'ENOENT' });
  return text;
};

function problemsOf(run: () => unknown): { variable: string; message: string }[] {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return [...(err as ConfigError).problems];
  }
  throw new Error('expected a ConfigError');
}

describe('the policy file', () => {
  it("reads the issue's example: groups, rules in order with their hashes, the limit, destinations", () => {
    const read = readPolicyFile('policy.yaml', () => EXAMPLE);
    expect(read.ok).toBe(true);
    const policy = read.policy!;
    expect([...policy.groups.keys()]).toEqual(['treasury', 'risk']);
    expect(policy.rules.map((r) => r.name)).toEqual(['large withdrawals', 'trades', 'everything else']);
    expect(policy.rules[1]).toMatchObject({
      expiresAfterMs: 15 * 60_000,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(policy.limits[0]).toMatchObject({
      name: 'daily BTC outflow',
      windowMs: 86_400_000,
      max: '5',
      over: 'refuse',
    });
    expect(policy.destinations.get('BTC')).toEqual(['Treasury cold storage']);
    expect(policy.source).toMatchObject({
      from: 'file',
      path: 'policy.yaml',
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('lists every problem at once, each with where it is', () => {
    const text = `
groups:
  treasury: [U0AAAAAA1, U0AAAAAA2]
  risk: [not-a-user]
requesters: [U0CCCCCC1]
rules:
  - name: large
    match: { kind: withdrawal, value_at_least: { amount: 100000, currency: USD } }
    require: [{ group: treasury, count: 2 }]
    expires_after: soon
  - name: everything else
    require: [{ group: treasury, count: 2 }]
    approve_by: anyone
`;
    const read = parsePolicyText(text, 'p.yaml');
    expect(read.ok).toBe(false);
    const problems = read.ok ? [] : read.problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('p.yaml: groups.risk.0: expected a Slack user id'),
        expect.stringContaining('rules.0.match.kind'),
        expect.stringContaining('rules.0.match.value_at_least.amount: expected a decimal in quotes'),
        expect.stringContaining('rules.0.expires_after: expected a duration'),
        expect.stringMatching(/rules\.1: .*approve_by/),
      ]),
    );
    expect(problems.length).toBeGreaterThanOrEqual(5);
  });

  it('refuses a policy that weakens the two-person rule or that a requester could never get approved under', () => {
    const text = `
groups:
  treasury: [U0AAAAAA1, U0AAAAAA2]
  risk: [U0BBBBBB1]
requesters: [U0AAAAAA1]
rules:
  - name: one is enough
    match: { kind: trade }
    require: [{ group: treasury, count: 1 }]
  - name: with risk
    match: { kind: crypto_withdrawal }
    require: [{ group: treasury, count: 2 }, { group: risk, count: 1 }]
  - name: unknown group
    require: [{ group: ops, count: 2 }]
  - name: after the catch-all
    require: [{ group: treasury, count: 2 }]
`;
    const read = readPolicyFile('p.yaml', () => text);
    expect(read.ok).toBe(false);
    const problems = read.ok ? [] : read.problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('rule 1 ("one is enough") needs 1 approval(s): money never moves with fewer than 2'),
        expect.stringContaining('rule 3 ("unknown group"): no group called "ops"'),
        expect.stringContaining(
          'rule 4 ("after the catch-all") can never decide: rule "unknown group" before it matches every request',
        ),
      ]),
    );
  });

  it('names the requester and the rule they could never get approved under', () => {
    const text = `
groups:
  treasury: [U0AAAAAA1, U0AAAAAA2, U0AAAAAA3]
  risk: [U0BBBBBB1]
requesters: [U0BBBBBB1, U0CCCCCC1]
rules:
  - name: large withdrawals
    require: [{ group: treasury, count: 2 }, { group: risk, count: 1 }]
`;
    const read = readPolicyFile('p.yaml', () => text);
    expect(read.ok ? [] : read.problems).toEqual([
      'p.yaml: requester U0BBBBBB1 could never get a request approved under rule "large withdrawals": it needs 2 of treasury and 1 of risk other than the requester, and U0BBBBBB1 never counts',
    ]);
  });
});

describe("a rule's reminders", () => {
  const withRules = (rules: string) => `
groups:
  treasury: [U0AAAAAA1, U0AAAAAA2, U0AAAAAA3]
requesters: [U0CCCCCC1]
rules:
${rules}`;

  it('reads remind_after and remind_every as durations, and prints them', () => {
    const read = readPolicyFile('p.yaml', () =>
      withRules(`  - name: withdrawals
    match: { kind: crypto_withdrawal }
    require: [{ group: treasury, count: 2 }]
    remind_after: 10m
    remind_every: 20m
  - name: everything else
    require: [{ group: treasury, count: 2 }]
`),
    );
    expect(read.ok ? [] : read.problems).toEqual([]);
    expect(read.policy!.rules[0]).toMatchObject({ remindAfterMs: 10 * 60_000, remindEveryMs: 20 * 60_000 });
    expect(read.policy!.rules[1]).not.toHaveProperty('remindAfterMs');
    expect(describePolicy(read.policy!)).toContain(
      '  1. withdrawals: crypto_withdrawal → 2 of treasury, reminds after 10 min, then every 20 min',
    );
  });

  it('refuses a reminder that could never come before the request expires, or that is not a duration', () => {
    const text = withRules(`  - name: trades
    match: { kind: trade }
    require: [{ group: treasury, count: 2 }]
    remind_after: 15m
  - name: slow
    match: { kind: crypto_withdrawal }
    require: [{ group: treasury, count: 2 }]
    expires_after: 1h
    remind_every: 2h
  - name: everything else
    require: [{ group: treasury, count: 2 }]
    remind_after: 30m
`);
    const read = readPolicyFile('p.yaml', () => text);
    expect(read.ok ? [] : read.problems).toEqual([
      'p.yaml: rule 1 ("trades") remind_after is 15 min, but a trade under it expires after 15 min: no reminder could ever go out',
      'p.yaml: rule 2 ("slow") remind_every is 2 h, but a crypto_withdrawal under it expires after 1 h: no reminder could ever go out',
      'p.yaml: rule 3 ("everything else") remind_after is 30 min, but a trade under it expires after 15 min: no reminder could ever go out',
    ]);
    const bad = parsePolicyText(
      withRules('  - name: x\n    require: [{ group: treasury, count: 2 }]\n    remind_after: 0m\n'),
      'p.yaml',
    );
    expect(bad.ok ? [] : bad.problems).toEqual([expect.stringContaining('rules.0.remind_after: expected a duration')]);
  });
});

describe("the policy's delegation", () => {
  const text = (forbidden: string) => `
groups:
  treasury: [U0AAAAAA1, U0AAAAAA2, U0AAAAAA3]
  risk: [U0BBBBBB1, U0BBBBBB2]
requesters: [U0CCCCCC1]
rules:
  - name: everything
    require: [{ group: treasury, count: 2 }]
delegation:
  forbidden_for: ${forbidden}
`;

  it('reads forbidden_for as groups, and prints it', () => {
    const read = readPolicyFile('p.yaml', () => text('[risk]'));
    expect(read.ok ? [] : read.problems).toEqual([]);
    expect([...read.policy!.delegationForbiddenFor]).toEqual(['risk']);
    expect(describePolicy(read.policy!)).toContain(
      'Delegation: forbidden for members of risk (nobody approves in their place)',
    );
    expect(delegationRefusal(read.policy!, 'U0BBBBBB2')).toBe(
      'The approval policy forbids delegation for risk: you are in risk, so nobody may approve in your place.',
    );
    expect(delegationRefusal(read.policy!, 'U0AAAAAA1')).toBeUndefined();
  });

  it('refuses a group it does not know, and an empty list', () => {
    expect(readPolicyFile('p.yaml', () => text('[risk, ops]'))).toEqual({
      ok: false,
      problems: ['p.yaml: delegation forbidden_for: no group called "ops"'],
    });
    const empty = parsePolicyText(text('[]'), 'p.yaml');
    expect(empty.ok ? [] : empty.problems).toEqual(['p.yaml: delegation.forbidden_for: name at least one group']);
  });
});

describe('POLICY_FILE in the configuration', () => {
  it('is the whole policy: no user variables needed', () => {
    const config = loadConfig(env, { cwd: '/srv/bot', readPolicyFile: files(EXAMPLE) });
    expect(config.users.requesters).toEqual(['U0CCCCCC1']);
    const policy = policyOf(config);
    expect(policy.rules).toHaveLength(3);
    expect(policy.approvers.has('U0BBBBBB2')).toBe(true);
  });

  it('set together with the policy variables: refused, naming both', () => {
    const problems = problemsOf(() =>
      loadConfig(
        { ...env, APPROVER_USER_IDS: 'U0000002,U0000003', REQUIRED_APPROVALS: '3' },
        { cwd: '/srv/bot', readPolicyFile: files(EXAMPLE) },
      ),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        { variable: 'APPROVER_USER_IDS', message: expect.stringContaining('and so is POLICY_FILE') },
        {
          variable: 'REQUIRED_APPROVALS',
          message: expect.stringContaining('remove REQUIRED_APPROVALS or POLICY_FILE'),
        },
      ]),
    );
  });

  it("a file's problems are the variable's problems, all of them", () => {
    const problems = problemsOf(() =>
      loadConfig(env, { cwd: '/srv/bot', readPolicyFile: files('groups: {}\nrequesters: []\nrules: []\n') }),
    );
    expect(problems.filter((p) => p.variable === 'POLICY_FILE').length).toBeGreaterThanOrEqual(2);
    expect(
      problemsOf(() =>
        loadConfig({ ...env, POLICY_FILE: 'missing.yaml' }, { cwd: '/srv/bot', readPolicyFile: files('') }),
      ),
    ).toEqual([{ variable: 'POLICY_FILE', message: '/srv/bot/missing.yaml: cannot be read (ENOENT)' }]);
  });

  it('without it, the variables are the policy, unchanged: one group, REQUIRED_APPROVALS of it', () => {
    const config = loadConfig(
      {
        ...env,
        POLICY_FILE: undefined,
        REQUESTER_USER_IDS: 'U0000001',
        APPROVER_USER_IDS: 'U0000002,U0000003,U0000004',
        REQUIRED_APPROVALS: '3',
      },
      { cwd: '/srv/bot' },
    );
    const policy = policyOf(config);
    expect(policy.rules.map((r) => [r.name, r.require])).toEqual([
      ['every request', [{ group: 'approvers', count: 3 }]],
    ]);
    expect(
      requiredApprovalsFor(policy, {
        kind: 'bank_account_removal',
        bankAccount: { id: 1, currency: null, display: 'x' },
        note: null,
      }),
    ).toBe(3);
    expect(
      problemsOf(() => loadConfig({ ...env, POLICY_FILE: undefined }, { cwd: '/srv/bot' })).map((p) => p.variable),
    ).toEqual(['REQUESTER_USER_IDS', 'APPROVER_USER_IDS']);
  });
});
