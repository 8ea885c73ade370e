import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/bot/config/index.js';

const base = {
  SLACK_BOT_TOKEN: 'xoxb-111111111-222222222-SECRETBOTTOKENVALUE',
  SLACK_SIGNING_SECRET: 'signingsecretvalue0123456789abcd',
  APPROVAL_CHANNEL_ID: 'C0123ABCD',
  REQUESTER_USER_IDS: 'U0000001',
  APPROVER_USER_IDS: 'U0000002,U0000003',
};

function problemsOf(env: Record<string, string>): { variable: string; message: string }[] {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return [...(err as ConfigError).problems];
  }
  throw new Error('expected a ConfigError');
}

describe('step-up configuration', () => {
  it('refuses to start with STEP_UP_AT_LEAST and no key', () => {
    expect(problemsOf({ ...base, STEP_UP_AT_LEAST: '100000' })).toEqual([
      { variable: 'STEP_UP_ENCRYPTION_KEY', message: expect.stringContaining('is required with STEP_UP_AT_LEAST') },
    ]);
  });

  it('refuses a malformed key without quoting it, and a malformed amount', () => {
    const short = randomBytes(31).toString('hex');
    const problems = problemsOf({ ...base, STEP_UP_AT_LEAST: '1,000', STEP_UP_ENCRYPTION_KEY: short });
    expect(problems.map((p) => p.variable).sort()).toEqual(['STEP_UP_AT_LEAST', 'STEP_UP_ENCRYPTION_KEY']);
    expect(JSON.stringify(problems)).not.toContain(short);
  });

  it('reads the key (hex or base64) as a Secret, the amount and the admins', () => {
    const key = randomBytes(32);
    for (const written of [key.toString('hex'), key.toString('base64')]) {
      const c = loadConfig({
        ...base,
        STEP_UP_AT_LEAST: '250000.50',
        STEP_UP_ENCRYPTION_KEY: written,
        ADMIN_USER_IDS: 'U0ADMIN01, U0ADMIN02',
      });
      expect(Buffer.from(c.stepUp.key!.reveal()).equals(key)).toBe(true);
      expect(c.stepUp.atLeastUsd).toBe('250000.50');
      expect(c.admins).toEqual(['U0ADMIN01', 'U0ADMIN02']);
      expect(inspect(c, { depth: 10 })).not.toContain(written);
      expect(JSON.stringify(c)).not.toContain(written);
    }
  });

  it('without step-up variables: nobody is asked, no key, no admins', () => {
    const c = loadConfig(base);
    expect(c.stepUp).toEqual({ atLeastUsd: undefined, key: undefined });
    expect(c.admins).toEqual([]);
  });
});

describe('step-up with a policy file', () => {
  const policy = (stepUp: boolean) => `
groups:
  treasury: [U0000002, U0000003, U0000004]
requesters: [U0000001]
rules:
  - name: everything
    require: [{ group: treasury, count: 2 }]${stepUp ? '\n    step_up: true' : ''}
`;
  const env = {
    SLACK_BOT_TOKEN: base.SLACK_BOT_TOKEN,
    SLACK_SIGNING_SECRET: base.SLACK_SIGNING_SECRET,
    APPROVAL_CHANNEL_ID: base.APPROVAL_CHANNEL_ID,
    POLICY_FILE: '/etc/desk/policy.yaml',
  };
  const load = (e: Record<string, string>, stepUp: boolean) => () =>
    loadConfig(e, { readPolicyFile: () => policy(stepUp) });

  it('a step_up rule needs the key; the rule keeps step_up', () => {
    expect(load(env, true)).toThrow(/STEP_UP_ENCRYPTION_KEY: is required with a rule with step_up/);
    const c = load({ ...env, STEP_UP_ENCRYPTION_KEY: randomBytes(32).toString('hex') }, true)();
    expect(c.policyFile?.rules[0]?.stepUp).toBe(true);
    expect(load(env, false)().stepUp.key).toBeUndefined();
  });

  it('refuses STEP_UP_AT_LEAST beside a policy file, naming both', () => {
    expect(
      load({ ...env, STEP_UP_AT_LEAST: '1', STEP_UP_ENCRYPTION_KEY: randomBytes(32).toString('hex') }, false),
    ).toThrow(/STEP_UP_AT_LEAST: is set, and so is POLICY_FILE/);
  });
});
