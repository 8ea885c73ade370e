/**
 * The one way a test starts the bot, composed as production composes it (src/bot/runtime/compose.ts):
 * the sandbox exchange on loopback with the real signed client (startTestExchange), the stores
 * (openTestStores), and Bolt's real HTTP receiver fed signed requests with the fake Slack Web API
 * behind SLACK_API_URL (startBot). Harnesses add their own vocabulary on top; what differs between
 * them is an option here, not a second way to build the bot.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/bot/config/index.js';
import { DESK_REQUEST_SCHEMA, DESK_REQUEST_STORE_NAME, DESK_REQUEST_VERSION } from '../../src/bot/domain/record-schema.js';
import { isFinishedRequest, type DeskRequest } from '../../src/bot/domain/record.js';
import type { EngineConfigInput } from '../../src/bot/engine/engine-config.js';
import type { AuditLog, Clock, KeyValueStore, Leadership, Logger, Repository } from '../../src/bot/engine/ports.js';
import { createExchangePort } from '../../src/bot/exchange/adapter/index.js';
import { createExchangeListings } from '../../src/bot/exchange/adapter/listings.js';
import { createExchangeClient, type ExchangeClient, type ExchangeClientOptions } from '../../src/bot/exchange/client.js';
import { createSigner, parsePrivateKey } from '../../src/bot/exchange/signer.js';
import type { ExchangeApi } from '../../src/bot/exchange/wire-api.js';
import type { DeskOps } from '../../src/bot/ops/desk-ops.js';
import type { ExchangeListings } from '../../src/bot/ports/exchange-listings.js';
import type { ExchangePort } from '../../src/bot/ports/exchange-port.js';
import { composeDesk, type ComposedDesk } from '../../src/bot/runtime/compose.js';
import { EVENTS_PATH } from '../../src/bot/slack/shell/slack-app.js';
import type { SlackRetryOptions } from '../../src/bot/slack/kit/slack-retry.js';
import { AUDIT_FILE_NAME, openAuditLog, type DurableAuditLog } from '../../src/bot/store/audit-log.js';
import { openKeyValueStore, type DurableKeyValueStore } from '../../src/bot/store/kv.js';
import { memoryAuditLog, memoryKv, memoryRepository, type MemoryAuditLog, type MemoryKeyValueStore, type MemoryRepository } from '../../src/bot/store/memory.js';
import { openRepository, type DurableRepository } from '../../src/bot/store/repository.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../src/stand-ins/fake-slack/fake-slack-api.js';
import { SlackRequester } from '../../src/stand-ins/fake-slack/slack-requests.js';
import { createSandboxClock, startSandbox, type FaultRule, type Sandbox } from '../../src/stand-ins/sandbox/index.js';
import { makeKey, type TestKey } from '../stand-ins/sandbox/support/sign.js';
import { T0 } from '../stand-ins/sandbox/support/sandbox.js';

export const SIGNING_SECRET = 'test-signing-secret-0123456789abcdef';
export const BOT_TOKEN = 'xoxb-test-000000000-SECRETBOTTOKEN';
export const APPROVAL_CHANNEL = 'C0APPROVE1';

/** A clock that reads the system time and sleeps in real time. */
export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };

// ---- the exchange ------------------------------------------------------------------------------

/** The client production builds (runtime/connect-exchange.ts), signed with `privateKey`, tuned for tests: no rate cap, quick read retries. */
export function testClient(baseUrl: string, privateKey: string, o: Partial<Omit<ExchangeClientOptions, 'baseUrl' | 'signer'>> = {}): ExchangeClient {
  return createExchangeClient({ baseUrl, signer: createSigner(parsePrivateKey(privateKey)), rateLimit: false, retry: { baseDelayMs: 1, maxDelayMs: 5 }, timeoutMs: 5_000, ...o });
}

export interface TestExchangeOptions {
  seed: string;
  /** Where the sandbox clock starts (default T0 of the sandbox tests). */
  startMs?: number;
  /** Whether the sandbox clock also follows real time (default false: only advance() moves it). */
  followRealTime?: boolean;
  /** What the sandbox clock reads as real time when it follows it (a test's fake clock). */
  wallNow?: () => number;
  faults?: readonly FaultRule[];
  quoteLifetimeMs?: number;
  /** The client's options beyond the test defaults (timeout, retry, logger, clock, fetch). */
  client?: Partial<Omit<ExchangeClientOptions, 'baseUrl' | 'signer'>>;
  /** Wrap the client before the port and listings get it (a test's kill switch or counter). */
  wrap?: (api: ExchangeApi) => ExchangeApi;
}

export interface TestExchange {
  sandbox: Sandbox;
  key: TestKey;
  /** The client itself, unwrapped: a test's own reads and writes on the exchange. */
  client: ExchangeClient;
  /** The client as the bot gets it (wrapped when asked). */
  api: ExchangeApi;
  /** The engine's port over `api`, and the listings over it, as runtime/connect-exchange.ts builds them. */
  exchange: ExchangePort;
  listings: ExchangeListings;
  /**
   * The exchange's time line, which the bot reads too (quote expiry and cooldowns compared on one
   * clock). Sleeps wait a few real milliseconds: a loop on it must not spin, and time moves only when a test says.
   */
  clock: Clock;
  close(): Promise<void>;
}

/** The sandbox on loopback with a key holding every scope, and the real signed client for it. */
export async function startTestExchange(o: TestExchangeOptions): Promise<TestExchange> {
  const key = makeKey();
  const sandbox = await startSandbox({
    seed: o.seed,
    clock: createSandboxClock({ startMs: o.startMs ?? T0, followRealTime: o.followRealTime ?? false, ...(o.wallNow ? { wallNow: o.wallNow } : {}) }),
    keys: [{ publicKeyHex: key.compressedHex, scopes: ['read', 'transfer', 'trade'] }],
    ...(o.faults ? { faults: o.faults } : {}),
    ...(o.quoteLifetimeMs === undefined ? {} : { quoteLifetimeMs: o.quoteLifetimeMs }),
  });
  const client = testClient(sandbox.url, key.privateKeyHex, o.client);
  const api = o.wrap ? o.wrap(client) : client;
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
  return { sandbox, key, client, api, exchange: createExchangePort(api), listings: createExchangeListings(api), clock: { now: () => sandbox.clock.now(), sleep }, close: () => sandbox.close() };
}

// ---- the stores --------------------------------------------------------------------------------

/** The stores a bot runs on, and how to let them go. */
export interface TestStores {
  requests: Repository<DeskRequest>;
  kv: KeyValueStore;
  audit: AuditLog;
  close(): Promise<void>;
}

export interface FileStores extends TestStores {
  requests: DurableRepository<DeskRequest>;
  kv: DurableKeyValueStore;
  audit: DurableAuditLog;
  dir: string;
}

export interface MemoryStores extends TestStores {
  requests: MemoryRepository<DeskRequest>;
  kv: MemoryKeyValueStore;
  audit: MemoryAuditLog;
}

export function memoryStores(clock?: Clock): MemoryStores {
  return { requests: memoryRepository<DeskRequest>(isFinishedRequest), kv: memoryKv(), audit: memoryAuditLog(clock ? { clock } : {}), close: async () => {} };
}

/** The durable file stores, as runtime/stores.ts opens them, in `dir` or a new temporary folder (removed on close when it made it). */
export async function fileStores(clock: Clock, o: { dir?: string; prefix?: string; warn?: (message: string) => void; redact?: string[] } = {}): Promise<FileStores> {
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), o.prefix ?? 'bot-'));
  const warn = o.warn ? { warn: o.warn } : {};
  const requests = await openRepository({ dir, name: DESK_REQUEST_STORE_NAME, schema: DESK_REQUEST_SCHEMA, isFinished: isFinishedRequest, version: DESK_REQUEST_VERSION, ...warn });
  const kv = await openKeyValueStore({ dir, ...warn });
  const audit = await openAuditLog({ file: join(dir, AUDIT_FILE_NAME), clock, ...warn, ...(o.redact ? { redact: o.redact } : {}) });
  return {
    requests,
    kv,
    audit,
    dir,
    async close() {
      await Promise.all([requests.close(), kv.close(), audit.close()]);
      if (o.dir === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---- the bot -----------------------------------------------------------------------------------

/** The Slack side of a test bot's environment: its token and secret, the fake at `apiUrl`, the desk's approval channel. */
export function slackEnv(apiUrl: string): Record<string, string> {
  return { SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET, SLACK_API_URL: apiUrl, APPROVAL_CHANNEL_ID: APPROVAL_CHANNEL };
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
  ops?: DeskOps;
  logger?: Logger;
  tradePairs?: readonly string[];
  engineConfig?: EngineConfigInput;
  /** Default: one attempt per Slack call; `{}` for production's retries. */
  notifierRetry?: Partial<SlackRetryOptions>;
  /** The fake Slack Web API to use (a replica shares its first desk's); default: a new one, stopped with the bot. */
  fake?: FakeSlackApi;
}

export interface TestBot {
  desk: ComposedDesk;
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
  const desk = composeDesk({
    config,
    clock: o.clock ?? realClock,
    exchange: createExchangePort(o.exchange),
    listings: createExchangeListings(o.exchange),
    requests: stores.requests,
    kv: stores.kv,
    audit: stores.audit,
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
