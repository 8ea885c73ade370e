/**
 * The one way a test starts the bot, composed as production composes it (src/bot/runtime/compose.ts):
 * the sandbox exchange on loopback with the real signed client (bot-exchange.ts), the stores
 * (bot-stores.ts), and Bolt's real HTTP receiver fed signed requests with the fake Slack Web API
 * behind SLACK_API_URL (startBot). Harnesses add their own vocabulary on top; what differs between
 * them is an option here, not a second way to build the bot.
 */
import { loadConfig, type Config } from '../../src/bot/config/index.js';
import type { EngineConfigInput } from '../../src/bot/engine/engine-config.js';
import type { Clock } from '../../src/bot/ports/clock.js';
import type { Leadership } from '../../src/bot/ports/leadership.js';
import type { Logger } from '../../src/bot/ports/logger.js';
import { createExchangePort } from '../../src/bot/exchange/adapter/index.js';
import { createExchangeListings } from '../../src/bot/exchange/adapter/listings.js';
import type { ExchangeApi } from '../../src/bot/exchange/wire-api.js';
import type { BotOps } from '../../src/bot/ops/bot-ops.js';
import { composeBot, type ComposedBot } from '../../src/bot/runtime/compose.js';
import { EVENTS_PATH } from '../../src/bot/slack/shell/slack-app.js';
import type { SlackRetryOptions } from '../../src/bot/slack/kit/slack-retry.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../src/stand-ins/fake-slack/fake-slack-api.js';
import { SlackRequester } from '../../src/stand-ins/fake-slack/slack-requests.js';
import { memoryStores, type TestStores } from './bot-stores.js';
import { keyValueStepUpStore } from '../../src/bot/store/step-up.js';
import { memoryKv } from '../../src/bot/store/memory.js';

export { startTestExchange, testClient, type TestExchange, type TestExchangeOptions } from './bot-exchange.js';
export { fileStores, memoryStores, type FileStores, type MemoryStores, type TestStores } from './bot-stores.js';

export const SIGNING_SECRET = 'test-signing-secret-0123456789abcdef';
export const BOT_TOKEN = 'xoxb-test-000000000-SECRETBOTTOKEN';
export const APPROVAL_CHANNEL = 'C0APPROVE1';

/** A clock that reads the system time and sleeps in real time. */
export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** The Slack side of a test bot's environment: its token and secret, the fake at `apiUrl`, the desk's approval channel. */
export function slackEnv(apiUrl: string): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: apiUrl,
    APPROVAL_CHANNEL_ID: APPROVAL_CHANNEL,
  };
}

export interface BotOptions {
  /** The exchange on the wire: the bot gets the real port and listings over it. */
  exchange: ExchangeApi;
  /** People and channels beyond the Slack side (REQUESTER_USER_IDS …), and any other setting. */
  env: Record<string, string>;
  /** Default: the system clock. */
  clock?: Clock;
  /** Default: in memory. The bot does not close stores it was given. */
  stores?: Omit<TestStores, 'close'>;
  leadership?: Leadership;
  ops?: BotOps;
  logger?: Logger;
  tradePairs?: readonly string[];
  engineConfig?: EngineConfigInput;
  /** Default: one attempt per Slack call; `{}` for production's retries. */
  notifierRetry?: Partial<SlackRetryOptions>;
  /** The fake Slack Web API to use (a replica shares its first desk's); default: a new one, stopped with the bot. */
  fake?: FakeSlackApi;
}

export interface TestBot {
  desk: ComposedBot;
  config: Config;
  fake: FakeSlackApi;
  /** Signs and sends to this bot's /slack/events. */
  slack: SlackRequester;
  /** http://127.0.0.1:<bound port> */
  origin: string;
  stop(): Promise<void>;
}

/** Composes the desk as production does, starts it on HTTP (port 0 on loopback) and signs requests for it. */
export async function startBot(o: BotOptions): Promise<TestBot> {
  const fake = o.fake ?? (await startFakeSlackApi({ expectedToken: BOT_TOKEN }));
  const config = loadConfig({ ...slackEnv(fake.apiUrl), LOG_LEVEL: 'error', ...o.env });
  const stores = o.stores ?? memoryStores();
  const desk = composeBot({
    config,
    clock: o.clock ?? realClock,
    exchange: createExchangePort(o.exchange),
    listings: createExchangeListings(o.exchange),
    requests: stores.requests,
    kv: stores.kv,
    audit: stores.audit,
    stepUp: stores.stepUp ?? keyValueStepUpStore(memoryKv()),
    logger: () => o.logger ?? quiet,
    ...(o.leadership ? { leadership: o.leadership } : {}),
    ...(o.ops ? { ops: o.ops } : {}),
    ...(o.tradePairs ? { tradePairs: o.tradePairs } : {}),
    ...(o.engineConfig ? { engineConfig: o.engineConfig } : {}),
    receiverOptions: { port: 0, retryConfig: { retries: 0 } },
    notifierRetry: o.notifierRetry ?? { attempts: 1 },
  });
  const { port } = await desk.start();
  const origin = `http://127.0.0.1:${port}`;
  return {
    desk,
    config,
    fake,
    slack: new SlackRequester(`${origin}${EVENTS_PATH}`, SIGNING_SECRET),
    origin,
    async stop() {
      await desk.stop();
      if (!o.fake) await fake.stop();
    },
  };
}
