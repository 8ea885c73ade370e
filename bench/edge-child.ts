// Child of bench/edge.ts: an HTTP-mode receiver whose memory the parent reads while attacking it; argv[2] is
// `desk` (the bot as it runs) or `bolt-defaults` (Bolt's and Node's defaults), argv[3..5] Slack API, token,
// signing secret. Parent messages: 'reset', 'peak' ({ rss, peak }), 'stop'.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { loadConfig } from '../src/bot/config/index.js';
import { runBot } from '../src/bot/runtime/run-bot.js';
import { startSandbox } from '../src/stand-ins/sandbox/index.js';

const [variant, slackApiUrl, TOKEN, SECRET] = process.argv.slice(2) as [string, string, string, string];
const dataDir = mkdtempSync(join(tmpdir(), 'bench-edge-'));

let port: number;
let stop: () => Promise<void>;
if (variant === 'desk') {
  const config = loadConfig({
    SLACK_BOT_TOKEN: TOKEN,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slackApiUrl,
    APPROVAL_CHANNEL_ID: 'C0APPROVE1',
    REQUESTER_USER_IDS: 'U0REQ0001',
    APPROVER_USER_IDS: 'U0APP0001,U0APP0002',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
  });
  const desk = await runBot(config, {
    startSandbox,
    receiverOptions: { port: 0, host: '127.0.0.1' },
    logWrite: () => {},
  });
  port = desk.port!;
  stop = () => desk.stop();
} else if (variant === 'bolt-defaults') {
  const app = new App({
    token: TOKEN,
    receiver: new HTTPReceiver({ signingSecret: SECRET, logLevel: LogLevel.ERROR }),
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl },
  });
  const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
  port = (server.address() as AddressInfo).port;
  stop = async () => void (await app.stop());
} else {
  throw new Error(`edge bench child: unknown variant ${variant}`);
}

let peak = process.memoryUsage().rss;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
process.on('message', (m: string) => {
  const rss = process.memoryUsage().rss;
  if (m === 'reset') peak = rss;
  if (m === 'peak') process.send!({ rss, peak: Math.max(peak, rss) });
  if (m === 'stop') {
    clearInterval(sampler);
    void stop().finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  }
});
process.send!({ port });
