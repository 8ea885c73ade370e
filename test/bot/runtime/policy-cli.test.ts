// npm run policy -- check | explain: the file only, nothing touched; exit codes for scripts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runPolicyCli } from '../../../src/bot/runtime/policy-cli.js';

const EXAMPLE = readFileSync(new URL('../../../policy.example.yaml', import.meta.url), 'utf8');
function run(argv: string[], text = EXAMPLE, env: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  const code = runPolicyCli(argv, { out: (t) => (out += t), err: (t) => (err += t) }, env, () => text);
  return { code, out, err };
}

/** explain of a 2 BTC crypto withdrawal by `requester`, worth `value` when given. */
const explain = (requester: string, value?: string) =>
  run([
    'explain',
    ...['--kind', 'crypto_withdrawal', '--asset', 'BTC', '--amount', '2', '--requester', requester],
    ...(value ? ['--value', value] : []),
    'policy.yaml',
  ]);

describe('npm run policy', () => {
  it('check prints the effective policy of a valid file, exit 0', () => {
    const r = run(['check', 'policy.yaml']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('policy.yaml is valid.');
    expect(r.out).toContain(
      '1. large withdrawals: crypto_withdrawal or fiat_withdrawal worth at least 100000 USD → 2 of treasury and 1 of risk',
    );
    expect(r.out).toContain('daily BTC outflow: crypto_withdrawal of BTC, at most 5 BTC per 24 h; over it: refused');
  });

  it("check prints a rule's reminders and the groups delegation is forbidden for (the example's commented lines)", () => {
    const uncommented = EXAMPLE.replace(/# (remind_\w+: \w+)/g, '$1')
      .replace('# delegation:', 'delegation:')
      .replace('#   forbidden_for', '  forbidden_for');
    const r = run(['check', 'policy.yaml'], uncommented);
    expect(r.err).toBe('');
    expect(r.out).toContain(
      '2. trades: trade → 2 of treasury, expires after 15 min, reminds after 5 min, then every 5 min',
    );
    expect(r.out).toContain('Delegation: forbidden for members of risk (nobody approves in their place)');
  });

  it('check lists every problem of an invalid file, exit 1; FILE defaults to POLICY_FILE', () => {
    const r = run(['check'], 'groups: {}\nrequesters: []\nrules: []\nextra: 1\n', { POLICY_FILE: 'p.yaml' });
    expect(r.code).toBe(1);
    expect(r.err.split('\n').filter((l) => l.startsWith('- p.yaml'))).toHaveLength(3);
  });

  it('explain: the rule, the groups needed, the limits it counts under', () => {
    const large = explain('U0CCCCCC1', '120000 USD');
    expect(large.code).toBe(0);
    expect(large.out).toContain('Rule: large withdrawals');
    expect(large.out).toContain('Needs: 2 of treasury and 1 of risk, never U0CCCCCC1 (the requester)');
    expect(large.out).toContain('this request counts 2 BTC');
    const small = explain('U0CCCCCC1', '99999.99 USD');
    expect(small.out).toContain('Rule: everything else');
    const unpriced = explain('U0XXXXXX1');
    expect(unpriced.out).toContain('U0XXXXXX1 is not a requester');
    expect(unpriced.out).toContain('taken as large');
  });

  it('usage errors exit 2', () => {
    expect(run(['explain', '--kind', 'loan', 'policy.yaml']).code).toBe(2);
    expect(run(['frobnicate', 'policy.yaml']).code).toBe(2);
    expect(run(['check']).code).toBe(2);
  });
});
