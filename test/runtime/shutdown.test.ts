/**
 * A stop never waits on a hung exchange: the real bot (runDesk, configured by its environment,
 * against the sandbox as a remote exchange whose every route hangs) gets a /balances command,
 * acknowledges it, and its listener is stuck on the exchange; stop() gives up on that work after
 * the grace period, says so in the log, and closes the files (the lock files go).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../src/devtools/fake-slack-api.js';
import { SCOPES } from '../../src/exchange/assumptions.js';
import { runDesk, type RunningDesk } from '../../src/runtime/bot.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { EVENTS_PATH } from '../../src/slack/app.js';
import { makeKey } from '../sandbox/support/sign.js';
import { APPROVAL_CHANNEL, BOT_TOKEN, SIGNING_SECRET } from '../slack/support/harness.js';
import { SlackRequester } from '../slack/support/signed-requests.js';

const TRADER = 'U0REQ0001';
const GRACE_MS = 300;

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe('stopping the bot', () => {
  it('gives up on work stuck on a hung exchange after the grace period, and closes the files', async () => {
    const key = makeKey();
    const sandbox: Sandbox = await startSandbox({ seed: 'shutdown', keys: [{ publicKeyHex: key.compressedHex, scopes: [...SCOPES] }] });
    cleanup.push(() => sandbox.close());
    const fake: FakeSlackApi = await startFakeSlackApi({ expectedToken: BOT_TOKEN });
    cleanup.push(() => fake.stop());
    const dataDir = mkdtempSync(join(tmpdir(), 'shutdown-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));

    const logs: string[] = [];
    const config = loadConfig({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: fake.apiUrl,
      APPROVAL_CHANNEL_ID: APPROVAL_CHANNEL,
      REQUESTER_USER_IDS: TRADER,
      APPROVER_USER_IDS: 'U0APP0001,U0APP0002',
      EXCHANGE_BASE_URL: sandbox.url,
      EXCHANGE_PRIVATE_KEY: Buffer.from(key.privateKey.export({ format: 'jwk' }).d!, 'base64url').toString('hex'),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    });
    const desk: RunningDesk = await runDesk(config, { receiverOptions: { port: 0, retryConfig: { retries: 0 } }, shutdownGraceMs: GRACE_MS, logWrite: (line) => void logs.push(line) });
    let stopped = false;
    cleanup.push(() => (stopped ? undefined : desk.stop()));

    sandbox.control.setFaults([{ kind: 'hang' }]);
    const slack = new SlackRequester(`http://127.0.0.1:${desk.port}${EVENTS_PATH}`, SIGNING_SECRET);
    const answer = await slack.command({ command: '/balances', userId: TRADER, responseUrl: fake.responseUrl('shutdown') });
    expect(answer.status).toBe(200);
    // The listener is now waiting on the exchange, which never answers.
    await waitUntil(() => sandbox.control.requests().some((r) => r.path.includes('/balances')));
    expect(readdirSync(dataDir).some((f) => f.endsWith('.lock'))).toBe(true);

    const started = performance.now();
    await desk.stop();
    stopped = true;
    const took = performance.now() - started;

    expect(took).toBeGreaterThanOrEqual(GRACE_MS - 5);
    expect(took).toBeLessThan(GRACE_MS + 3_000);
    expect(logs.some((l) => l.includes('stopping without waiting longer for work in flight'))).toBe(true);
    expect(readdirSync(dataDir).filter((f) => f.endsWith('.lock'))).toEqual([]);
    expect(existsSync(dataDir)).toBe(true);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
