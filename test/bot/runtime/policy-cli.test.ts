// npm run policy -- check | explain: the policy file, and for explain the limits' room left read from
// the desk's store (a file store held open by its bot, here) without changing it; exit codes for scripts.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../../src/bot/domain/record.js';
import { runPolicyCli } from '../../../src/bot/runtime/policy-cli.js';
import { openRepository } from '../../../src/bot/store/repository.js';
import { NOW, REQUESTS, storeExecutedRequests } from './support/executed-requests.js';

const EXAMPLE = readFileSync(new URL('../../../policy.example.yaml', import.meta.url), 'utf8');
/** A data folder with no store in it: the tool must not fall back on ./data of the working folder. */
const EMPTY = { DATA_DIR: mkdtempSync(join(tmpdir(), 'policy-cli-empty-')) };

async function run(argv: string[], text = EXAMPLE, env: NodeJS.ProcessEnv = EMPTY) {
  let out = '';
  let err = '';
  const code = await runPolicyCli(
    argv,
    { out: (t) => (out += t), err: (t) => (err += t) },
    env,
    () => text,
    () => NOW,
  );
  return { code, out, err };
}

/** explain of an `amount` BTC crypto withdrawal by `requester`, worth `value` when given. */
const explain = (requester: string, value?: string, env?: NodeJS.ProcessEnv, amount = '2') =>
  run(
    [
      'explain',
      ...['--kind', 'crypto_withdrawal', '--asset', 'BTC', '--amount', amount, '--requester', requester],
      ...(value ? ['--value', value] : []),
      'policy.yaml',
    ],
    EXAMPLE,
    env,
  );

/** Every file under `dir` and its content's hash. */
const contents = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => {
        const path = join(e.parentPath, e.name);
        return [path, createHash('sha256').update(readFileSync(path)).digest('hex')];
      }),
  );

describe('npm run policy', () => {
  it('check prints the effective policy of a valid file, exit 0', async () => {
    const r = await run(['check', 'policy.yaml']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('policy.yaml is valid.');
    expect(r.out).toContain(
      '1. large withdrawals: crypto_withdrawal or fiat_withdrawal worth at least 100000 USD → 2 of treasury and 1 of risk',
    );
    expect(r.out).toContain('daily BTC outflow: crypto_withdrawal of BTC, at most 5 BTC per 24 h; over it: refused');
  });

  it("check prints a rule's reminders and the groups delegation is forbidden for (the example's commented lines)", async () => {
    const uncommented = EXAMPLE.replace(/# (remind_\w+: \w+)/g, '$1')
      .replace('# delegation:', 'delegation:')
      .replace('#   forbidden_for', '  forbidden_for');
    const r = await run(['check', 'policy.yaml'], uncommented);
    expect(r.err).toBe('');
    expect(r.out).toContain(
      '2. trades: trade → 2 of treasury, expires after 15 min, reminds after 5 min, then every 5 min',
    );
    expect(r.out).toContain('Delegation: forbidden for members of risk (nobody approves in their place)');
  });

  it('check lists every problem of an invalid file, exit 1; FILE defaults to POLICY_FILE', async () => {
    const r = await run(['check'], 'groups: {}\nrequesters: []\nrules: []\nextra: 1\n', { POLICY_FILE: 'p.yaml' });
    expect(r.code).toBe(1);
    expect(r.err.split('\n').filter((l) => l.startsWith('- p.yaml'))).toHaveLength(3);
  });

  it('explain: the rule, the groups needed, the limits it counts under', async () => {
    const large = await explain('U0CCCCCC1', '120000 USD');
    expect(large.code).toBe(0);
    expect(large.out).toContain('Rule: large withdrawals');
    expect(large.out).toContain('Needs: 2 of treasury and 1 of risk, never U0CCCCCC1 (the requester)');
    expect(large.out).toContain('this request counts 2 BTC');
    const small = await explain('U0CCCCCC1', '99999.99 USD');
    expect(small.out).toContain('Rule: everything else');
    const unpriced = await explain('U0XXXXXX1');
    expect(unpriced.out).toContain('U0XXXXXX1 is not a requester');
    expect(unpriced.out).toContain('taken as large');
  });

  it('explain without a store says so in one line and prints the rest, exit 0', async () => {
    const r = await explain('U0CCCCCC1', '120000 USD');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Rule: large withdrawals');
    expect(r.out).toContain(`Room left: not read (no requests stored in ${EMPTY.DATA_DIR}); /desk policy shows it.`);
    expect(readdirSync(EMPTY.DATA_DIR)).toEqual([]);
  });

  it('explain reads the room left from the file store while its bot holds it, and changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'policy-cli-store-'));
    const requests = await openRepository<RequestRecord>({ dir, ...REQUESTS });
    try {
      await storeExecutedRequests(requests);
      const before = contents(dir);
      const fits = await explain('U0CCCCCC1', '120000 USD', { DATA_DIR: dir });
      expect(fits.code).toBe(0);
      expect(fits.out).toContain('this request counts 2 BTC; counted now 2.5 BTC, room left 2.5 BTC: it fits');
      expect(fits.out).toContain(`No limit refuses it now (read from ${dir})`);
      const over = await explain('U0CCCCCC1', '200000 USD', { DATA_DIR: dir }, '2.50000001');
      expect(over.out).toContain('room left 2.5 BTC: it does not fit: refused now');
      expect(over.out).toContain('Refused now by a limit: daily BTC outflow');
      expect(contents(dir)).toEqual(before);
      // The bot's store still works: the tool took no lease and left none.
      await requests.mutate('RIN2', (r) => ({ next: r, result: undefined }));
    } finally {
      await requests.close();
    }
  });

  it('usage errors exit 2', async () => {
    expect((await run(['explain', '--kind', 'loan', 'policy.yaml'])).code).toBe(2);
    expect((await run(['frobnicate', 'policy.yaml'])).code).toBe(2);
    expect((await run(['check'])).code).toBe(2);
  });
});
