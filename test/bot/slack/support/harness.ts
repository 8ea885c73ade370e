/**
 * The Slack app under test, composed as production composes it (runtime/compose.ts): real Bolt over
 * HTTP on 127.0.0.1 (port 0), the fake Slack Web API behind SLACK_API_URL, a real engine over
 * in-memory stores, and whatever wire exchange the test passes (often a fakeExchange). Configuration
 * goes through loadConfig like production.
 */
import { createExchangeListings } from '../../../../src/bot/exchange/adapter/listings.js';
import { composeDesk, type ComposedDesk } from '../../../../src/bot/runtime/compose.js';
import type { AuditLog } from '../../../../src/bot/ports/store.js';
import type { Clock } from '../../../../src/bot/ports/clock.js';
import { isFinishedRequest, type DeskRequest } from '../../../../src/bot/domain/record.js';
import { memoryAuditLog, memoryKv, memoryRepository } from '../../../../src/bot/store/memory.js';
import type { ExchangeApi } from '../../../../src/bot/exchange/wire-api.js';
import { createExchangePort } from '../../../../src/bot/exchange/adapter/index.js';
import { loadConfig, type Config } from '../../../../src/bot/config/index.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../../../src/stand-ins/fake-slack/fake-slack-api.js';
import { EVENTS_PATH, type SlackApp } from '../../../../src/bot/slack/shell/slack-app.js';
import { SlackRequester } from './signed-requests.js';

export const PEOPLE = {
  requester: 'U0REQ0001',
  approver1: 'U0APP0001',
  approver2: 'U0APP0002',
  compliance: 'U0CMP0001',
  outsider: 'U0OUT0001',
} as const;

export const SIGNING_SECRET = 'test-signing-secret-0123456789abcdef';
export const BOT_TOKEN = 'xoxb-test-000000000-SECRETBOTTOKEN';
export const APPROVAL_CHANNEL = 'C0APPROVE1';

export interface Harness {
  fake: FakeSlackApi;
  slack: SlackRequester;
  app: SlackApp;
  desk: ComposedDesk;
  config: Config;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  /** The exchange on the wire (often a fakeExchange): the listeners get the real port over it, and its listings. */
  exchange: ExchangeApi;
  clock?: Clock;
  env?: Record<string, string>;
  tradePairs?: readonly string[];
  /** Where the audit lines go (default: in memory). */
  audit?: AuditLog;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

/** The Slack side of a test bot's environment: its token and secret, the fake at `apiUrl`, the desk's channel and people. */
export function slackEnv(apiUrl: string): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: apiUrl,
    APPROVAL_CHANNEL_ID: APPROVAL_CHANNEL,
    REQUESTER_USER_IDS: PEOPLE.requester,
    APPROVER_USER_IDS: `${PEOPLE.approver1},${PEOPLE.approver2}`,
  };
}

export async function startHarness(opts: HarnessOptions): Promise<Harness> {
  const fake = await startFakeSlackApi({ expectedToken: BOT_TOKEN });
  const config = loadConfig({
    ...slackEnv(fake.apiUrl),
    COMPLIANCE_USER_IDS: PEOPLE.compliance,
    LOG_LEVEL: 'error',
    ...opts.env,
  });
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  const desk = composeDesk({
    config,
    clock: opts.clock ?? realClock,
    exchange: createExchangePort(opts.exchange),
    listings: createExchangeListings(opts.exchange),
    requests: memoryRepository<DeskRequest>(isFinishedRequest),
    kv: memoryKv(),
    audit: opts.audit ?? memoryAuditLog(),
    logger: () => quiet,
    ...(opts.tradePairs ? { tradePairs: opts.tradePairs } : {}),
    receiverOptions: { port: 0, retryConfig: { retries: 0 } },
    notifierRetry: { attempts: 1 },
  });
  const { port } = await desk.start();
  const app = desk.slack;
  const slack = new SlackRequester(`http://127.0.0.1:${port}${EVENTS_PATH}`, SIGNING_SECRET);
  return {
    fake,
    slack,
    app,
    desk,
    config,
    async stop() {
      await desk.stop();
      await fake.stop();
    },
  };
}

/** The exchange's wire API whose every method throws unless the test supplies it. */
export function fakeExchange(methods: Partial<ExchangeApi>): ExchangeApi & { calls: { method: string; args: unknown[] }[] } {
  const calls: { method: string; args: unknown[] }[] = [];
  return new Proxy({ calls } as ExchangeApi & { calls: typeof calls }, {
    get(target, prop: string) {
      if (prop === 'calls') return calls;
      const impl = (methods as Record<string, (...a: unknown[]) => unknown>)[prop];
      if (prop === 'then') return undefined;
      return (...args: unknown[]) => {
        calls.push({ method: prop, args });
        if (!impl) throw new Error(`fake exchange: ${prop} not provided by this test`);
        return impl(...args);
      };
    },
  });
}

/** An async iterable over a list, honouring maxItems like the real paginator. */
export async function* listOf<T>(items: readonly T[], opts?: { maxItems?: number }): AsyncIterable<T> {
  const max = opts?.maxItems ?? Infinity;
  let n = 0;
  for (const item of items) {
    if (n >= max) return;
    n += 1;
    yield item;
  }
}

/** A promise with its resolve handle (to hold an exchange call open). */
export function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
