/**
 * The Slack app under test: the bot started the one way tests start it (test/support/bot.ts), on
 * in-memory stores, over whatever wire exchange the test passes (often a fakeExchange), with this
 * suite's people.
 */
import type { ComposedBot } from '../../../../src/bot/runtime/compose.js';
import type { AuditLog } from '../../../../src/bot/ports/store.js';
import type { Clock } from '../../../../src/bot/ports/clock.js';
import type { ExchangeApi } from '../../../../src/bot/exchange/wire-api.js';
import type { Config } from '../../../../src/bot/config/index.js';
import type { FakeSlackApi } from '../../../../src/stand-ins/fake-slack/fake-slack-api.js';
import type { SlackApp } from '../../../../src/bot/slack/shell/slack-app.js';
import { memoryStores, slackEnv as botSlackEnv, startBot } from '../../../support/bot.js';
import type { SlackRequester } from './signed-requests.js';

export { APPROVAL_CHANNEL, BOT_TOKEN, realClock, SIGNING_SECRET } from '../../../support/bot.js';

export const PEOPLE = {
  requester: 'U0REQ0001',
  approver1: 'U0APP0001',
  approver2: 'U0APP0002',
  compliance: 'U0CMP0001',
  outsider: 'U0OUT0001',
} as const;

export interface Harness {
  fake: FakeSlackApi;
  slack: SlackRequester;
  app: SlackApp;
  desk: ComposedBot;
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

/** This suite's people, as the bot's environment names them. */
export const PEOPLE_ENV: Record<string, string> = {
  REQUESTER_USER_IDS: PEOPLE.requester,
  APPROVER_USER_IDS: `${PEOPLE.approver1},${PEOPLE.approver2}`,
  COMPLIANCE_USER_IDS: PEOPLE.compliance,
};

/** The Slack side of a test bot's environment (test/support/bot.ts) with this suite's requester and approvers. */
export function slackEnv(apiUrl: string): Record<string, string> {
  return {
    ...botSlackEnv(apiUrl),
    REQUESTER_USER_IDS: PEOPLE.requester,
    APPROVER_USER_IDS: `${PEOPLE.approver1},${PEOPLE.approver2}`,
  };
}

export async function startHarness(opts: HarnessOptions): Promise<Harness> {
  const stores = memoryStores();
  const bot = await startBot({
    exchange: opts.exchange,
    env: { ...PEOPLE_ENV, ...opts.env },
    ...(opts.clock ? { clock: opts.clock } : {}),
    stores: opts.audit ? { ...stores, audit: opts.audit } : stores,
    ...(opts.tradePairs ? { tradePairs: opts.tradePairs } : {}),
  });
  return {
    fake: bot.fake,
    slack: bot.slack,
    app: bot.desk.slack,
    desk: bot.desk,
    config: bot.config,
    stop: () => bot.stop(),
  };
}

/** The exchange's wire API whose every method throws unless the test supplies it. */
export function fakeExchange(
  methods: Partial<ExchangeApi>,
): ExchangeApi & { calls: { method: string; args: unknown[] }[] } {
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
