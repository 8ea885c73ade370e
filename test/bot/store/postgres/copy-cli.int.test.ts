/**
 * `npm run store -- copy` on a file store the real bot made (the engine, the Slack listeners and
 * the outbox over the file stores, against the sandbox): a completed withdrawal in history, an
 * open one whose approval message Slack refused (so its outbox entry waits), key-value references,
 * the approvers' step-up states (one enrolled, one with a pending secret and a wrong code) and the
 * audit chain. Everything reads back the same from PostgreSQL, the chain verifies there with the
 * file's last hash, and the bot's stores carry on from it: the enrolled approver's next code counts.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../../../src/bot/runtime/logger.js';
import { openStores, type StoreLocation, type Stores } from '../../../../src/bot/runtime/stores.js';
import { ACTION } from '../../../../src/bot/slack/kit/slack-ids.js';
import { runAuditCli } from '../../../../src/bot/store/audit-cli.js';
import { AUDIT_FILE_NAME } from '../../../../src/bot/store/audit-log.js';
import { verifyAuditLog } from '../../../../src/bot/store/audit-verify.js';
import { runStoreCli } from '../../../../src/bot/store/store-cli.js';
import { approvalMessage, buttonValue, startTestBot, USERS } from '../../../e2e/support/test-bot.js';
import { click, requestCrypto } from '../../../e2e/support/flows.js';
import { describePostgres, usePostgres } from '../../../support/postgres.js';
import { tempDir } from '../support/temp.js';
import { totpCode } from '../../../../src/bot/domain/step-up/totp.js';
import type { Clock } from '../../../../src/bot/ports/clock.js';
import { createStepUps } from '../../../../src/bot/slack/step-up/step-ups.js';
import { memoryAuditLog } from '../../../../src/bot/store/memory.js';
import { STEP_UP_KV_NAME } from '../../../../src/bot/store/step-up.js';
import { captureCliOutput } from '../support/cli-output.js';

const STEP_UP_KEY = randomBytes(32);

const quiet = () => createLogger({ level: 'error', secrets: [], write: () => {} });
const clock = { now: () => Date.parse('2025-06-01T00:00:00Z'), sleep: async () => {} };

const io = captureCliOutput;

/** Everything a store holds, read through the ports. */
async function contents(location: StoreLocation) {
  const stores = await openStores(location, clock, [], quiet());
  try {
    const keys = (await stores.kv.keys('')).sort();
    return {
      live: await stores.requests.listLive(),
      history: await stores.requests.recentHistory(1_000),
      outbox: await stores.requests.outbox.pending(),
      kv: Object.fromEntries(await Promise.all(keys.map(async (k) => [k, await stores.kv.get(k)] as const))),
    };
  } finally {
    await stores.close();
  }
}

/** step-up.json's states by user, as the file holds them. */
const fileStepUp = (dir: string): Record<string, unknown> =>
  (JSON.parse(readFileSync(join(dir, `${STEP_UP_KV_NAME}.json`), 'utf8')) as { values: Record<string, unknown> })
    .values;

async function pgStepUp(url: string): Promise<Record<string, unknown>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ user_id: string; state: unknown }>('SELECT user_id, state FROM step_up');
    return Object.fromEntries(rows.map((r) => [r.user_id, r.state]));
  } finally {
    await client.end();
  }
}

async function rows(url: string, table: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
  } finally {
    await client.end();
  }
}

describePostgres('npm run store -- copy', () => {
  const pgc = usePostgres();
  let dataDir: string;
  /** approver1's authenticator secret, and when it enrolled (engine clock). */
  let enrolled: { secret: string; at: number };
  let open: Stores | undefined;
  afterEach(async () => {
    await open?.close();
    open = undefined;
  });

  /** A data folder the real bot wrote: one completed withdrawal, one open with its message refused by Slack. */
  async function botMadeStore(): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'copy-cli-'));
    const d = await startTestBot({
      stores: (c: Clock) => openStores(dir, c, [], quiet()),
      env: { STEP_UP_ENCRYPTION_KEY: STEP_UP_KEY.toString('hex') },
    });
    try {
      const done = await requestCrypto(d);
      const msg = approvalMessage(d.fake, done.requestId);
      const approve = buttonValue(msg.blocks, ACTION.approve)!;
      await click(d, USERS.approver1, ACTION.approve, approve, msg.ts);
      await click(d, USERS.approver2, ACTION.approve, approve, msg.ts);
      await d.runFor(80_000);
      d.fake.failNext('chat.postMessage', 'channel_not_found');
      await requestCrypto(d, { amount: '99.5' }).catch(() => undefined);
      await d.settle();
      // One approver enrolled; another halfway, with a wrong first code counted.
      const stepUps = d.bot.slack.context.deps.stepUps;
      const at = d.sandbox.clock.now();
      const { secret } = await stepUps.begin(USERS.approver1, 'ana');
      expect(await stepUps.confirm(USERS.approver1, totpCode(secret, at), undefined)).toEqual({ ok: true });
      enrolled = { secret, at };
      await stepUps.begin(USERS.approver2, 'ben');
      expect(await stepUps.confirm(USERS.approver2, '000000', undefined)).toMatchObject({ ok: false });
    } finally {
      await d.stop();
    }
    return dir;
  }

  beforeAll(async () => {
    dataDir = await botMadeStore();
  }, 60_000);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('copies live, history, outbox, key-value and audit, verifies the chain, and prints the counts', async () => {
    const url = await pgc.cluster.createDatabase();
    const before = await contents(dataDir);
    expect(before.live).toHaveLength(1);
    expect(before.history.map((r) => r.state)).toEqual(['completed']);
    expect(before.outbox.length).toBeGreaterThan(0);
    expect(Object.keys(before.kv).length).toBeGreaterThan(0);
    const stepUpBefore = fileStepUp(dataDir);
    expect(Object.keys(stepUpBefore).sort()).toEqual([USERS.approver1, USERS.approver2]);
    const fileChain = await verifyAuditLog(join(dataDir, AUDIT_FILE_NAME));
    expect(fileChain.ok).toBe(true);

    const t = io();
    // The target and its password from a file, as a container secret is mounted.
    const urlFile = join(tempDir(), 'database-url');
    writeFileSync(urlFile, `${url}\n`, { mode: 0o600 });
    expect(await runStoreCli(['copy', '--from', dataDir], t.io, { DATABASE_URL_FILE: urlFile })).toBe(0);
    expect(t.out.join('')).toBe(
      `copied ${dataDir} into PostgreSQL ${url.split('/').pop()} on 127.0.0.1:${pgc.cluster.port} as postgres\n` +
        `  live requests      1\n` +
        `  finished requests  1 (1 history lines)\n` +
        `  outbox entries     ${before.outbox.length}\n` +
        `  key-value entries  ${Object.keys(before.kv).length}\n` +
        `  step-up states     2 (1 enrolled), verified in the database\n` +
        `  audit entries      ${fileChain.entries}, chain verified in the database, last hash ${fileChain.lastHash}\n`,
    );
    expect(t.text()).not.toContain(pgc.cluster.password);

    expect(await contents({ databaseUrl: url })).toEqual(before);
    expect(await pgStepUp(url)).toEqual(stepUpBefore);
    // The URL on the command line without its password; the password from the environment.
    const withoutPassword = url.replace(`:${pgc.cluster.password}@`, '@');
    const verify = io();
    expect(
      await runAuditCli(['verify', '--database-url', withoutPassword], verify.io, { PGPASSWORD: pgc.cluster.password }),
    ).toBe(0);
    expect(verify.out.join('')).toContain(`ok, ${fileChain.entries} entries, last hash ${fileChain.lastHash}`);
    const csv = io();
    expect(await runAuditCli(['export'], csv.io, { DATABASE_URL: url })).toBe(0);
    expect(csv.out.join('').trimEnd().split('\r\n')).toHaveLength(fileChain.entries + 1);

    // The bot's stores carry on where the files stopped: the chain, the outbox numbers.
    open = await openStores({ databaseUrl: url }, clock, [], quiet());
    await open.audit.append({ type: 'store.copied', actor: 'system' });
    await open.requests.outbox.append([{ ...before.outbox[0]!.event }]);
    const seqs = (await open.requests.outbox.pending()).map((e) => e.seq);
    expect(seqs.at(-1)).toBeGreaterThan(Math.max(...before.outbox.map((e) => e.seq)));
    const again = io();
    expect(await runAuditCli(['verify'], again.io, { DATABASE_URL: url })).toBe(0);
    expect(again.out.join('')).toContain(`ok, ${fileChain.entries + 1} entries`);

    // The enrolled approver needs no new enrollment: their next code counts, the used one does not.
    const stepUps = createStepUps({
      store: open.stepUp,
      key: STEP_UP_KEY,
      clock: { now: () => enrolled.at + 5 * 60_000 },
      audit: memoryAuditLog(),
      notices: { append: async () => {} },
      logger: { error: () => {} },
    });
    expect(await stepUps.check(USERS.approver1, totpCode(enrolled.secret, enrolled.at), 'R1')).toMatchObject({
      kind: 'wrong',
    });
    expect(
      await stepUps.check(USERS.approver1, totpCode(enrolled.secret, enrolled.at + 5 * 60_000), 'R1'),
    ).toMatchObject({ kind: 'accepted' });
    expect(await stepUps.enrolled(USERS.approver2)).toBe(false);
  });

  it('refuses a step-up state that does not match its schema, copying nothing', async () => {
    const url = await pgc.cluster.createDatabase();
    const bad = tempDir();
    for (const name of ['requests.json', 'requests.history.jsonl', 'kv.json', AUDIT_FILE_NAME])
      writeFileSync(join(bad, name), readFileSync(join(dataDir, name)));
    const file = JSON.parse(readFileSync(join(dataDir, `${STEP_UP_KV_NAME}.json`), 'utf8')) as {
      values: Record<string, Record<string, unknown>>;
    };
    file.values[USERS.approver2]!.lockedUntil = 'soon';
    writeFileSync(join(bad, `${STEP_UP_KV_NAME}.json`), JSON.stringify(file));
    const t = io();
    expect(await runStoreCli(['copy', '--from', bad], t.io, { DATABASE_URL: url })).toBe(2);
    expect(t.err.join('')).toMatch(
      new RegExp(
        `the step-up state of ${USERS.approver2} does not match the schema \\(lockedUntil: .*\\); nothing was copied`,
      ),
    );
    expect(await rows(url, "pg_tables WHERE schemaname = 'public'")).toBe(0);
  });

  it('refuses a target that holds data, copying nothing', async () => {
    const url = await pgc.cluster.createDatabase();
    expect(await runStoreCli(['copy', '--from', dataDir], io().io, { DATABASE_URL: url })).toBe(0);
    const entries = await rows(url, 'audit_log');
    const t = io();
    expect(await runStoreCli(['copy', '--from', dataDir], t.io, { DATABASE_URL: url })).toBe(2);
    expect(t.err.join('')).toMatch(
      /the database already holds data \(records: 2 rows, outbox: \d+ rows, kv: \d+ rows, step_up: 2 rows, audit_log: \d+ rows, store_formats: 1 rows\); copy only into an empty database, nothing was copied/,
    );
    expect(await rows(url, 'audit_log')).toBe(entries);
    expect(t.text()).not.toContain(pgc.cluster.password);
  });

  it('refuses a file store whose audit chain does not verify, or that a running bot holds', async () => {
    const url = await pgc.cluster.createDatabase();
    const broken = tempDir();
    for (const name of ['requests.json', 'requests.history.jsonl', 'kv.json', AUDIT_FILE_NAME])
      writeFileSync(join(broken, name), readFileSync(join(dataDir, name)));
    const lines = readFileSync(join(broken, AUDIT_FILE_NAME), 'utf8').split('\n');
    lines[1] = lines[1]!.replace('"actor":"', '"actor":"X');
    writeFileSync(join(broken, AUDIT_FILE_NAME), lines.join('\n'));
    const t = io();
    expect(await runStoreCli(['copy', '--from', broken], t.io, { DATABASE_URL: url })).toBe(2);
    expect(t.err.join('')).toMatch(/the audit chain does not verify \(line 2: its hash does not match its content/);
    // Refused before the database was touched: not even the schema was created.
    expect(await rows(url, "pg_tables WHERE schemaname = 'public'")).toBe(0);

    open = await openStores(dataDir, clock, [], quiet());
    const locked = io();
    expect(await runStoreCli(['copy', '--from', dataDir], locked.io, { DATABASE_URL: url })).toBe(2);
    expect(locked.err.join('')).toMatch(/lock/i);
    expect(await rows(url, "pg_tables WHERE schemaname = 'public'")).toBe(0);
  });

  it('says what is wrong without the password when the database refuses the login', async () => {
    const target = (await pgc.cluster.createDatabase()).replace(`:${pgc.cluster.password}@`, '@');
    const t = io();
    expect(
      await runStoreCli(['copy', '--to', target, '--from', dataDir], t.io, { PGPASSWORD: 'not-the-password-123' }),
    ).toBe(2);
    expect(t.err.join('')).toMatch(/password authentication failed for user "postgres"/);
    expect(t.text()).not.toContain('not-the-password-123');
    expect(await runStoreCli(['copy', '--from', dataDir], io().io, {})).toBe(2);
  });

  it('refuses a folder that holds no file store', async () => {
    const url = await pgc.cluster.createDatabase();
    const t = io();
    expect(await runStoreCli(['copy', '--from', join(tempDir(), 'typo')], t.io, { DATABASE_URL: url })).toBe(2);
    expect(t.err.join('')).toMatch(/requests\.json: there is no file store here/);
    expect(await rows(url, "pg_tables WHERE schemaname = 'public'")).toBe(0);
  });
});
