/**
 * The real bot's start and stop (runBot, configured by its environment, against the sandbox as
 * a remote exchange and the fake Slack API):
 * - a stop never waits on a hung exchange: a /balances command is acknowledged and its listener
 *   is stuck on the exchange; stop() gives up on that work after the grace period, says so in
 *   the log, and closes the files (the lock files go);
 * - a start prunes the Slack references past their retention from the key-value file;
 * - a follower runs no background loop (deposit watch, pruning) until it becomes leader, and then
 *   they start at once.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/bot/config/index.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../../src/stand-ins/fake-slack/fake-slack-api.js';
import { SCOPES } from '../../../src/bot/exchange/assumptions.js';
import { runBot, type RunningBot } from '../../../src/bot/runtime/run-bot.js';
import { startSandbox, type Sandbox } from '../../../src/stand-ins/sandbox/index.js';
import { EVENTS_PATH } from '../../../src/bot/slack/shell/slack-app.js';
import { makeKey } from '../../stand-ins/sandbox/support/sign.js';
import { APPROVAL_CHANNEL, BOT_TOKEN, SIGNING_SECRET } from '../slack/support/harness.js';
import { SlackRequester } from '../slack/support/signed-requests.js';
import { until } from '../../support/until.js';
import { SUBMISSION_KEY_PREFIX } from '../../../src/bot/slack/request-forms/submission-markers.js';
import { SUBMISSION_RETENTION_MS } from '../../../src/bot/slack/shell/retention.js';
import { LeadershipState, type Leadership } from '../../../src/bot/ports/leadership.js';

const TRADER = 'U0REQ0001';
const GRACE_MS = 300;

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

interface Started {
  desk: RunningBot;
  sandbox: Sandbox;
  fake: FakeSlackApi;
  dataDir: string;
  logs: string[];
  stop: () => Promise<void>;
}

/** The bot on a fresh sandbox and fake Slack; `prepare` may put files in the data folder first. */
async function startDesk(
  o: { prepare?: (dataDir: string) => void; env?: Record<string, string>; leadership?: Leadership } = {},
): Promise<Started> {
  const key = makeKey();
  // Cleanup runs in reverse: the exchange goes first, so work the stop cut off (a listener waiting
  // on a hung exchange) ends and answers while the fake Slack still listens, and no call of it is
  // left to fail against a closed server after the test.
  const fake = await startFakeSlackApi({ expectedToken: BOT_TOKEN });
  cleanup.push(() => fake.stop());
  cleanup.push(() => new Promise((r) => setTimeout(r, 200)));
  const sandbox = await startSandbox({
    seed: 'lifecycle',
    keys: [{ publicKeyHex: key.compressedHex, scopes: [...SCOPES] }],
  });
  cleanup.push(() => sandbox.close());
  const dataDir = mkdtempSync(join(tmpdir(), 'lifecycle-'));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  o.prepare?.(dataDir);

  const logs: string[] = [];
  const config = loadConfig({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
    APPROVAL_CHANNEL_ID: APPROVAL_CHANNEL,
    REQUESTER_USER_IDS: TRADER,
    APPROVER_USER_IDS: 'U0APP0001,U0APP0002',
    EXCHANGE_BASE_URL: sandbox.url,
    EXCHANGE_PRIVATE_KEY: key.privateKeyHex,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...o.env,
  });
  const desk = await runBot(config, {
    startSandbox,
    receiverOptions: { port: 0, retryConfig: { retries: 0 } },
    shutdownGraceMs: GRACE_MS,
    logWrite: (line) => void logs.push(line),
    ...(o.leadership ? { leadership: o.leadership } : {}),
  });
  let stopped = false;
  cleanup.push(() => (stopped ? undefined : desk.stop()));
  return {
    desk,
    sandbox,
    fake,
    dataDir,
    logs,
    async stop() {
      stopped = true;
      await desk.stop();
    },
  };
}

describe('stopping the bot', () => {
  it('gives up on work stuck on a hung exchange after the grace period, and closes the files', async () => {
    const { desk, sandbox, fake, dataDir, logs, stop } = await startDesk();
    sandbox.control.setFaults([{ kind: 'hang' }]);
    const slack = new SlackRequester(`http://127.0.0.1:${desk.port}${EVENTS_PATH}`, SIGNING_SECRET);
    const answer = await slack.command({
      command: '/balances',
      userId: TRADER,
      responseUrl: fake.responseUrl('shutdown'),
    });
    expect(answer.status).toBe(200);
    // The listener is now waiting on the exchange, which never answers.
    await until(
      'the listener to call the exchange',
      () => (sandbox.control.requests().some((r) => r.path.includes('/balances')) ? true : undefined),
      5_000,
    );
    expect(readdirSync(dataDir).some((f) => f.endsWith('.lock'))).toBe(true);

    const started = performance.now();
    await stop();
    const took = performance.now() - started;

    expect(took).toBeGreaterThanOrEqual(GRACE_MS - 5);
    expect(took).toBeLessThan(GRACE_MS + 3_000);
    expect(logs.some((l) => l.includes('stopping without waiting longer for work in flight'))).toBe(true);
    expect(readdirSync(dataDir).filter((f) => f.endsWith('.lock'))).toEqual([]);
    expect(existsSync(dataDir)).toBe(true);
  });
});

describe('starting the bot', () => {
  it('prunes Slack references past their retention from the key-value file, and keeps the rest', async () => {
    const now = Date.now();
    const values = {
      [`${SUBMISSION_KEY_PREFIX}VOLD`]: {
        state: 'created',
        requestId: 'R1',
        at: now - SUBMISSION_RETENTION_MS - 60_000,
      },
      [`${SUBMISSION_KEY_PREFIX}VNEW`]: { state: 'created', requestId: 'R2', at: now - 60_000 },
      'compliance:other': { at: 0 },
    };
    const { logs, dataDir, stop } = await startDesk({
      prepare: (dir) => writeFileSync(join(dir, 'kv.json'), JSON.stringify({ version: 1, values })),
    });
    await stop();
    const kept = (JSON.parse(readFileSync(join(dataDir, 'kv.json'), 'utf8')) as { values: Record<string, unknown> })
      .values;
    expect(Object.keys(kept).sort()).toEqual(['compliance:other', `${SUBMISSION_KEY_PREFIX}VNEW`]);
    expect(logs.some((l) => l.includes('pruned Slack references') && l.includes('"keys":1'))).toBe(true);
  });
});

describe('leadership', () => {
  it('a follower runs no background loop (deposit watch, pruning) until it becomes leader; then they start at once, and stop again when it is not', async () => {
    const POLL_MS = 1_000;
    const expired = {
      [`${SUBMISSION_KEY_PREFIX}VOLD`]: {
        state: 'created',
        requestId: 'R1',
        at: Date.now() - SUBMISSION_RETENTION_MS - 60_000,
      },
    };
    const leadership = new LeadershipState('follower');
    const { desk, sandbox, logs, dataDir } = await startDesk({
      prepare: (dir) => writeFileSync(join(dir, 'kv.json'), JSON.stringify({ version: 1, values: expired })),
      env: { COMPLIANCE_CHANNEL_ID: 'C0COMPLY1', COMPLIANCE_USER_IDS: 'U0CMP0001', POLL_INTERVAL_MS: String(POLL_MS) },
      leadership,
    });
    expect(desk.leadership.role()).toBe('follower');
    const depositPolls = () => sandbox.control.requests().filter((r) => r.path.includes('/crypto/deposits')).length;
    const kvValues = () =>
      (JSON.parse(readFileSync(join(dataDir, 'kv.json'), 'utf8')) as { values: Record<string, unknown> }).values;

    await new Promise((r) => setTimeout(r, POLL_MS + 300));
    expect(depositPolls()).toBe(0);
    expect(Object.keys(kvValues())).toEqual([`${SUBMISSION_KEY_PREFIX}VOLD`]);

    const became = performance.now();
    leadership.set('leader');
    await until('the deposit watch to poll', () => (depositPolls() > 0 ? true : undefined), 5_000);
    // At once: well before a poll interval has passed.
    expect(performance.now() - became).toBeLessThan(POLL_MS);
    await until(
      'the new leader to prune',
      () => (kvValues()[`${SUBMISSION_KEY_PREFIX}VOLD`] === undefined ? true : undefined),
      5_000,
    );
    expect(logs.some((l) => l.includes('this replica is now the leader'))).toBe(true);

    leadership.set('follower');
    // A poll already under way may still land (late on a loaded machine); after it, none.
    let polls = depositPolls();
    for (let quiet = 0; quiet < 3;) {
      await new Promise((r) => setTimeout(r, 200));
      quiet = depositPolls() === polls ? quiet + 1 : 0;
      polls = depositPolls();
    }
    await new Promise((r) => setTimeout(r, 2 * POLL_MS + 300));
    expect(depositPolls()).toBe(polls);
  });
});
