/**
 * `npm run doctor` (runtime/doctor-cli.ts over ops/doctor/) against the fake Slack and the
 * sandbox exchange over real HTTP, and a real data folder: every check passes on a good
 * configuration, and each fault it names fails its own line, with the fix, and the exit code:
 * the token refused, the bot not in a channel, the .env.example placeholder channel, a user unknown,
 * deactivated or a bot, Slack unreachable, the exchange key unknown, the clock off, the embedded
 * sandbox, a data folder that cannot be written or that others can read, a database that does not
 * answer, a configuration that does not load.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSlackApi, type FakeSlackApi } from '../../../../src/stand-ins/fake-slack/fake-slack-api.js';
import { SCOPES } from '../../../../src/bot/exchange/assumptions.js';
import { doctor } from '../../../../src/bot/runtime/doctor-cli.js';
import { startSandbox, type Sandbox } from '../../../../src/stand-ins/sandbox/index.js';
import { makeKey } from '../../../stand-ins/sandbox/support/sign.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../../slack/support/harness.js';

const PEOPLE = { requester: 'U0REQ0001', approver1: 'U0APP0001', approver2: 'U0APP0002', compliance: 'U0CMP0001' };
const CHANNELS = { approval: 'C0APPROVE1', compliance: 'C0COMPLY01' };

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

interface World {
  fake: FakeSlackApi;
  sandbox: Sandbox;
  env: Record<string, string>;
}

/** A workspace stand-in, the sandbox with the key registered, a private data folder, and the environment naming them. */
async function world(): Promise<World> {
  const key = makeKey();
  const fake = await startFakeSlackApi({ expectedToken: BOT_TOKEN });
  cleanup.push(() => fake.stop());
  const sandbox = await startSandbox({
    seed: 'doctor',
    keys: [{ publicKeyHex: key.compressedHex, scopes: [...SCOPES] }],
  });
  cleanup.push(() => sandbox.close());
  const dataDir = mkdtempSync(join(tmpdir(), 'doctor-'));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
    APPROVAL_CHANNEL_ID: CHANNELS.approval,
    COMPLIANCE_CHANNEL_ID: CHANNELS.compliance,
    REQUESTER_USER_IDS: PEOPLE.requester,
    APPROVER_USER_IDS: `${PEOPLE.approver1},${PEOPLE.approver2}`,
    COMPLIANCE_USER_IDS: PEOPLE.compliance,
    EXCHANGE_BASE_URL: sandbox.url,
    EXCHANGE_PRIVATE_KEY: key.privateKeyHex,
    DATA_DIR: dataDir,
  };
  return { fake, sandbox, env };
}

async function run(
  env: Record<string, string>,
  deps: Parameters<typeof doctor>[1] = {},
): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await doctor(env, { ...deps, out: (l) => void lines.push(l) });
  return { code, lines };
}

/** The lines that failed. */
const failures = (lines: string[]) => lines.filter((l) => l.startsWith('[FAIL]'));

describe('npm run doctor', () => {
  it('passes every check on a good configuration, one line each, and exits 0', async () => {
    const w = await world();
    const { code, lines } = await run(w.env);
    expect(failures(lines)).toEqual([]);
    expect(lines.filter((l) => l.startsWith('[ok]')).map((l) => l.slice(7, l.indexOf(':')))).toEqual([
      'Slack token',
      `approval channel ${CHANNELS.approval}`,
      `compliance channel ${CHANNELS.compliance}`,
      `user ${PEOPLE.requester} (REQUESTER_USER_IDS)`,
      `user ${PEOPLE.approver1} (APPROVER_USER_IDS)`,
      `user ${PEOPLE.approver2} (APPROVER_USER_IDS)`,
      `user ${PEOPLE.compliance} (COMPLIANCE_USER_IDS)`,
      'exchange key',
      'clock offset to the exchange',
      `store ${w.env.DATA_DIR}`,
    ]);
    expect(lines.at(-1)).toBe('All 10 checks passed.');
    expect(code).toBe(0);
    // It changes nothing in Slack: reads only.
    expect(new Set(w.fake.calls.map((c) => c.method))).toEqual(
      new Set(['auth.test', 'conversations.info', 'users.info']),
    );
    for (const secret of [BOT_TOKEN, SIGNING_SECRET, w.env.EXCHANGE_PRIVATE_KEY])
      expect(lines.join('\n')).not.toContain(secret);
  });

  it('fails each Slack fault on its own line with the fix: token, channels, users', async () => {
    const w = await world();
    w.fake.setChannel({ id: CHANNELS.approval, name: 'desk-approvals', is_member: false });
    // The .env.example placeholder passes validation; Slack does not know it.
    w.fake.forgetChannel('C0123ABCD');
    w.fake.forgetUser(PEOPLE.requester);
    w.fake.setUser({ id: PEOPLE.approver1, real_name: 'Ana Lima', deleted: true });
    w.fake.setUser({ id: PEOPLE.approver2, real_name: 'Deploy Bot', is_bot: true });
    const { code, lines } = await run({ ...w.env, COMPLIANCE_CHANNEL_ID: 'C0123ABCD' });
    expect(failures(lines)).toEqual([
      `[FAIL] approval channel ${CHANNELS.approval}: the bot is not in #desk-approvals. Fix: invite it: in #desk-approvals, /invite @the bot`,
      expect.stringMatching(
        /^\[FAIL\] compliance channel C0123ABCD: no channel C0123ABCD that the bot can see \(channel_not_found.*Fix: set COMPLIANCE_CHANNEL_ID to the id from channel details/,
      ),
      expect.stringMatching(
        /^\[FAIL\] user U0REQ0001 \(REQUESTER_USER_IDS\): no user U0REQ0001 in this workspace \(user_not_found\)\. Fix: fix REQUESTER_USER_IDS/,
      ),
      `[FAIL] user ${PEOPLE.approver1} (APPROVER_USER_IDS): Ana Lima is deactivated. Fix: remove ${PEOPLE.approver1} from APPROVER_USER_IDS, or reactivate the account`,
      `[FAIL] user ${PEOPLE.approver2} (APPROVER_USER_IDS): Deploy Bot is a bot, not a person. Fix: remove ${PEOPLE.approver2} from APPROVER_USER_IDS: only people may request or approve`,
    ]);
    expect(lines.at(-1)).toBe('5 of 10 checks failed.');
    expect(code).toBe(1);

    w.fake.failNext('auth.test', 'invalid_auth');
    const refused = await run(w.env);
    expect(failures(refused.lines)[0]).toMatch(
      /^\[FAIL\] Slack token: Slack refused the token \(invalid_auth\)\. Fix: set SLACK_BOT_TOKEN/,
    );
  });

  it('says Slack could not be reached, and how it was tried: directly or through HTTPS_PROXY', async () => {
    const w = await world();
    await w.fake.stop();
    const { code, lines } = await run(w.env);
    expect(failures(lines)[0]).toBe(
      `[FAIL] Slack token: Slack could not be reached: ${w.fake.apiUrl} directly (HTTPS_PROXY unset) failed (ECONNREFUSED). Fix: check the network, SLACK_API_URL, and HTTPS_PROXY if this machine needs a proxy`,
    );
    expect(code).toBe(1);
    const viaProxy = await run({ ...w.env, HTTPS_PROXY: 'http://127.0.0.1:1' });
    expect(failures(viaProxy.lines)[0]).toMatch(
      /^\[FAIL\] Slack token: Slack could not be reached: \S+ through the proxy 127\.0\.0\.1:1 \(HTTPS_PROXY\) failed \(ECONNREFUSED\)/,
    );
  });

  it('fails the exchange key the sandbox does not know, and a clock off the exchange, with their fixes', async () => {
    const w = await world();
    const stranger = makeKey();
    const unknownKey = await run({ ...w.env, EXCHANGE_PRIVATE_KEY: stranger.privateKeyHex });
    expect(failures(unknownKey.lines)).toEqual([
      expect.stringMatching(
        /^\[FAIL\] exchange key: The exchange did not accept the key \(401\): check that public key [0-9A-F]+ is registered/,
      ),
    ]);

    // The exchange's Date header a minute ahead of this machine: our clock is behind.
    const ahead = async (url: string, init: RequestInit) => {
      const res = await fetch(url, init);
      const headers = new Headers(res.headers);
      headers.set('date', new Date(Date.now() + 60_000).toUTCString());
      return new Response(await res.arrayBuffer(), { status: res.status, headers });
    };
    const skewed = await run(w.env, { exchangeFetch: ahead });
    expect(failures(skewed.lines)).toEqual([
      expect.stringMatching(
        /^\[FAIL\] clock offset to the exchange: this machine's clock is (59|60|61)\.\d s behind the exchange's \(more than 5 s\)\. Fix: synchronise the clock/,
      ),
    ]);

    const embedded = { ...w.env };
    delete (embedded as Partial<typeof embedded>).EXCHANGE_BASE_URL;
    delete (embedded as Partial<typeof embedded>).EXCHANGE_PRIVATE_KEY;
    expect(failures((await run(embedded)).lines)[0]).toMatch(
      /^\[FAIL\] exchange key: EXCHANGE_BASE_URL is unset: the bot would run on its embedded sandbox exchange/,
    );
  });

  it('fails a data folder that cannot be written or that others can read, and a database that does not answer', async () => {
    const w = await world();
    const dataDir = w.env.DATA_DIR!;
    const file = join(dataDir, 'a-file');
    writeFileSync(file, '');
    expect(failures((await run({ ...w.env, DATA_DIR: join(file, 'data') })).lines)).toEqual([
      expect.stringMatching(/^\[FAIL\] store .*a-file\/data: the data folder cannot be created or written \(ENOTDIR\)/),
    ]);

    chmodSync(dataDir, 0o755);
    expect(failures((await run(w.env)).lines)).toEqual([
      `[FAIL] store ${dataDir}: other users may read it (mode 755): it holds the requests and the audit log. Fix: chmod 700 ${dataDir}`,
    ]);
    chmodSync(dataDir, 0o700);

    const db = await run({ ...w.env, DATABASE_URL: 'postgres://desk:a-long-database-password@127.0.0.1:1/desk' });
    expect(failures(db.lines)).toEqual([
      expect.stringMatching(
        /^\[FAIL\] store PostgreSQL desk on 127\.0\.0\.1:1 as desk: the database did not answer \(ECONNREFUSED\)\. Fix: check DATABASE_URL/,
      ),
    ]);
    expect(db.lines.join('\n')).not.toContain('a-long-database-password');
  });

  it('lists what keeps the configuration from loading, and asks for one when nothing is set', async () => {
    const w = await world();
    const { code, lines } = await run({ ...w.env, APPROVAL_CHANNEL_ID: '#desk-approvals' });
    expect(lines[0]).toMatch(/^\[FAIL\] configuration APPROVAL_CHANNEL_ID: must be a channel id like C0123ABCD/);
    expect(code).toBe(1);
    expect((await run({})).lines[0]).toMatch(/^\[FAIL\] configuration: nothing is configured/);
  });
});
