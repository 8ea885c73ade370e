// The real bot on the embedded sandbox and the fake Slack API, people's clicks played as signed requests
// through Bolt's real receiver, one time line shared with the sandbox. Nothing leaves this machine.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../bot/ports/clock.js';
import { loadConfig } from '../../bot/config/index.js';
import { startFakeSlackApi, type FakeSlackApi } from '../fake-slack/fake-slack-api.js';
import { SlackRequester } from '../fake-slack/slack-requests.js';
import { LOOPBACK } from '../preview/preview.js';
import { runBot, type RunningBot } from '../../bot/runtime/run-bot.js';
import { sandboxLinkedClock } from '../preview/sandbox-linked-clock.js';
import type { Sandbox } from '../sandbox/index.js';
import { EVENTS_PATH } from '../../bot/slack/shell/slack-app.js';
import { CHANNELS, DESK_TIME_ZONE, PEOPLE } from './people.js';
import { startSandbox } from '../sandbox/index.js';

export interface StageOptions {
  /** Sandbox quote lifetime (default: the sandbox's 2.5 s). */
  quoteLifetimeMs?: number;
  /** Status polling of the bot, ms (default 200: the sandbox allows fast polling). */
  pollIntervalMs?: number;
}

export interface Stage {
  desk: RunningBot<Sandbox>;
  sandbox: Sandbox;
  slack: FakeSlackApi;
  requester: SlackRequester;
  clock: Clock;
  /** Log lines of the bot (warn and error), kept out of the transcript; shown when a step fails. */
  logs: string[];
  /** Move the exchange (and so the bot's clock) forward. */
  advance(ms: number): void;
  /** Resolves once the engine is idle and Slack has heard nothing new for `quietMs`. */
  settle(quietMs?: number, maxMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Start the fake Slack API, then the whole bot against it. */
export async function startStage(o: StageOptions = {}): Promise<Stage> {
  const botToken = `xoxb-demo-${randomBytes(12).toString('hex')}`;
  const signingSecret = randomBytes(16).toString('hex');
  const slack = await startFakeSlackApi({
    expectedToken: botToken,
    users: Object.values(PEOPLE).map((p) => ({
      id: p.id,
      real_name: p.name,
      tz: DESK_TIME_ZONE.tz,
      tz_offset: DESK_TIME_ZONE.tzOffsetSeconds,
    })),
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'desk-demo-'));
  const cleanup = async () => {
    await slack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };

  const { clock, link } = sandboxLinkedClock();
  const logs: string[] = [];
  let desk: RunningBot<Sandbox>;
  try {
    const config = loadConfig({
      SLACK_BOT_TOKEN: botToken,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      APPROVAL_CHANNEL_ID: CHANNELS.approvals.id,
      COMPLIANCE_CHANNEL_ID: CHANNELS.compliance.id,
      POLICY_FILE: writeDemoPolicy(dataDir),
      COMPLIANCE_USER_IDS: PEOPLE.cleo.id,
      DATA_DIR: dataDir,
      POLL_INTERVAL_MS: String(o.pollIntervalMs ?? 200),
      LOG_LEVEL: 'warn',
    });
    desk = await runBot<Sandbox>(config, {
      startSandbox,
      clock,
      tickMs: 100,
      logWrite: (line) => void logs.push(line),
      // Local only, like the preview: nothing of the demo is for other machines.
      receiverOptions: { host: LOOPBACK },
      ...(o.quoteLifetimeMs !== undefined ? { sandboxQuoteLifetimeMs: o.quoteLifetimeMs } : {}),
    });
  } catch (err) {
    await cleanup();
    throw err;
  }
  if (!desk.sandbox || desk.port === undefined) {
    await desk.stop();
    await cleanup();
    throw new Error('the demo needs the embedded sandbox and HTTP mode');
  }
  link(desk.sandbox);
  const sandbox = desk.sandbox;
  const running = desk;
  const requester = new SlackRequester(`http://127.0.0.1:${desk.port}${EVENTS_PATH}`, signingSecret);

  return {
    desk,
    sandbox,
    slack,
    requester,
    clock,
    logs,
    advance: (ms) => void running.sandbox!.control.advance(ms),
    async settle(quietMs = 150, maxMs = 5_000) {
      const deadline = Date.now() + maxMs;
      for (;;) {
        const seen = slack.calls.length;
        await running.engine.idle();
        await new Promise((r) => setTimeout(r, quietMs));
        await running.engine.idle();
        if (slack.calls.length === seen || Date.now() > deadline) return;
      }
    },
    async stop() {
      await running.stop();
      await cleanup();
    },
  };
}

/**
 * The demo desk's policy, a file like policy.example.yaml: Ana and Ben are treasury, Rita is risk; a
 * withdrawal worth 100000 USD or more (priced at the sandbox's BTC-USD spot) waits for Rita too.
 */
function writeDemoPolicy(dataDir: string): string {
  const path = join(dataDir, 'policy.yaml');
  writeFileSync(
    path,
    `groups:
  treasury: [${PEOPLE.ana.id}, ${PEOPLE.ben.id}]
  risk: [${PEOPLE.rita.id}]
requesters: [${PEOPLE.tara.id}]
rules:
  - name: large withdrawals
    match: { kind: crypto_withdrawal, asset: [BTC, ETH], value_at_least: { amount: '100000', currency: USD } }
    require: [{ group: treasury, count: 2 }, { group: risk, count: 1 }]
  - name: everything else
    require: [{ group: treasury, count: 2 }]
`,
    { mode: 0o600 },
  );
  return path;
}
