/**
 * The whole bot for end-to-end tests, started the one way tests start it (test/support/bot.ts):
 * Bolt's real HTTP receiver on loopback with signed requests, the fake Slack Web API recording every
 * call, the sandbox exchange over real HTTP with the real signed client, the real engine, and the
 * durable file stores in a temporary folder. The sandbox clock only moves when the test advances
 * it, and the engine and the listeners read that same clock. The operations side (src/bot/ops/) is
 * wired as runBot wires it: the client reports every call to it, and /healthz, /readyz and
 * /metrics answer on a port of their own.
 *
 * `replica()` composes another desk over the same stores, sandbox and fake Slack API, with its own
 * Bolt app, receiver and in-process state: a second replica of the bot (the file store's lock
 * keeps a second process out, but within this process both desks share the one opened store).
 */
import type { StepUpStore } from '../../../src/bot/ports/step-up.js';
import { keyValueStepUpStore } from '../../../src/bot/store/step-up.js';
import { memoryKv } from '../../../src/bot/store/memory.js';
import type { AuditLog, Repository } from '../../../src/bot/ports/store.js';
import type { Clock } from '../../../src/bot/ports/clock.js';
import { type Leadership, LeadershipState } from '../../../src/bot/ports/leadership.js';
import type { Logger } from '../../../src/bot/ports/logger.js';
import type { ExchangeApi } from '../../../src/bot/exchange/wire-api.js';
import type { Config } from '../../../src/bot/config/index.js';
import {
  startFakeSlackApi,
  type FakeSlackApi,
  type FakeSlackCall,
} from '../../../src/stand-ins/fake-slack/fake-slack-api.js';
import type { RequestRecord } from '../../../src/bot/domain/record.js';
import type { AddressBookAddress, CryptoCurrencyEntry } from '../../../src/bot/exchange/schemas.js';
import type { Sandbox } from '../../../src/stand-ins/sandbox/index.js';
import type { ComposedBot } from '../../../src/bot/runtime/compose.js';
import { createBotOps, type BotOps } from '../../../src/bot/ops/bot-ops.js';
import { startHealthServer, type HealthServer } from '../../../src/bot/ops/health-server.js';
import { ACTION, BLOCK } from '../../../src/bot/slack/kit/slack-ids.js';
import type { DurableAuditLog } from '../../../src/bot/store/audit-log.js';
import type { DurableKeyValueStore } from '../../../src/bot/store/kv.js';
import type { DurableRepository } from '../../../src/bot/store/repository.js';
import { APPROVAL_CHANNEL, BOT_TOKEN, fileStores, startBot, startTestExchange } from '../../support/bot.js';
import type { SlackRequester } from '../../bot/slack/support/signed-requests.js';

export { APPROVAL_CHANNEL };

/** Who is who; the second approver may also request (for "your own request" refusals). */
export const USERS = {
  requester: 'U0REQ0001',
  approver1: 'U0APP0001',
  approver2: 'U0APP0002',
  approver3: 'U0APP0003',
  outsider: 'U0OUT0001',
} as const;

/** The stores the bot runs on; by default the file stores in a temporary folder (removed on stop). */
export interface TestBotStores {
  requests: Repository<RequestRecord>;
  kv: DurableKeyValueStore;
  audit: AuditLog;
  /** Default: one in memory, shared by this desk's replicas. */
  stepUp?: StepUpStore;
  close(): Promise<void>;
}

interface FileStores extends TestBotStores {
  requests: DurableRepository<RequestRecord>;
  audit: DurableAuditLog;
}

export interface TestBot<S extends TestBotStores = FileStores> {
  sandbox: Sandbox;
  /** The client (wrapped as asked): the bot gets the engine's port over it, and its listings. */
  exchange: ExchangeApi;
  fake: FakeSlackApi;
  slack: SlackRequester;
  bot: ComposedBot;
  /** The desk's operations side; its endpoints are at `${healthOrigin}/healthz` etc. */
  ops: BotOps;
  /** http://127.0.0.1:<bound port>: /slack/events */
  origin: string;
  /** http://127.0.0.1:<health port>: the operations endpoints, on a port of their own as runBot serves them. */
  healthOrigin: string;
  config: Config;
  requests: S['requests'];
  kv: S['kv'];
  audit: S['audit'];
  logs: { level: string; message: string; data?: Record<string, unknown> }[];
  /** This desk's leadership (leader unless the options say otherwise). */
  leadership: Leadership;
  /**
   * Another desk over the same stores, sandbox and fake Slack (a second replica), with its own
   * receiver; stopped with this one. Its `slack` sends to its own receiver; idle/settle cover every desk.
   */
  replica(leadership: Leadership): Promise<TestBot<S>>;
  /** Advance the exchange (and engine) clock by `ms` in steps, ticking the engine after each. */
  runFor(ms: number, step?: number): Promise<void>;
  /** Waits for started executions and queued notices. */
  idle(): Promise<void>;
  /**
   * Waits until the bot has gone quiet: listeners go on after their ack, so a test waits for the
   * engine to be idle and the fake Slack API to see no new call for a few tens of ms.
   */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

export interface TestBotOptions {
  seed?: string;
  env?: Record<string, string>;
  exchange?: (api: ExchangeApi) => ExchangeApi;
  /** The exchange client's timeout (default 5 s). */
  clientTimeoutMs?: number;
  /** Default: always leader (the only replica). */
  leadership?: Leadership;
}

/** A bot on whichever stores (what the flows in flows.ts need). */
export type AnyTestBot = TestBot<TestBotStores>;

export function startTestBot(o?: TestBotOptions): Promise<TestBot>;
/** The bot on stores the test opens (on the engine's clock), e.g. PostgreSQL; closed by stop(). */
export function startTestBot<S extends TestBotStores>(
  o: TestBotOptions & { stores: (clock: Clock) => Promise<S> },
): Promise<TestBot<S>>;
export async function startTestBot(
  o: TestBotOptions & { stores?: (clock: Clock) => Promise<TestBotStores> } = {},
): Promise<TestBot<TestBotStores>> {
  const leadership = o.leadership ?? new LeadershipState('leader');
  // The first desk's operations side; the exchange client (shared by the replicas) reports to it.
  const observed: { ops?: BotOps } = {};
  const { sandbox, api: exchange } = await startTestExchange({
    seed: o.seed ?? 'slack-e2e',
    client: { timeoutMs: o.clientTimeoutMs ?? 5_000, logger: (e) => observed.ops?.exchange.observe(e) },
    ...(o.exchange ? { wrap: o.exchange } : {}),
  });
  const ops = createBotOps({ clock: { now: () => sandbox.clock.now() } });
  observed.ops = ops;
  const engineClock: Clock = { now: () => sandbox.clock.now(), sleep: async () => {} };
  // Listeners bound their waits with clock.sleep: real timers, on the exchange's time line.
  const slackClock: Clock = { now: () => sandbox.clock.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

  const opened = await (o.stores ?? ((clock: Clock) => fileStores(clock, { prefix: 'slack-e2e-' })))(engineClock);
  // One step-up store for every replica of this desk, as one database is.
  const stores = { ...opened, stepUp: opened.stepUp ?? keyValueStepUpStore(memoryKv()) };
  const { requests, kv, audit } = stores;

  const fake = await startFakeSlackApi({ expectedToken: BOT_TOKEN });
  const logs: TestBot['logs'] = [];
  const logger: Logger = {
    info: () => {},
    warn: (message, data) => void logs.push({ level: 'warn', message, ...(data ? { data } : {}) }),
    error: (message, data) => void logs.push({ level: 'error', message, ...(data ? { data } : {}) }),
  };
  /** Every desk over these stores: the first, then the replicas. */
  const desks: ComposedBot[] = [];
  const healthServers: HealthServer[] = [];
  const stoppers: (() => Promise<void>)[] = [];
  const startDesk = async (leadership: Leadership, deskOps?: BotOps) => {
    const bot = await startBot({
      exchange,
      env: {
        REQUESTER_USER_IDS: `${USERS.requester},${USERS.approver2}`,
        APPROVER_USER_IDS: `${USERS.approver1},${USERS.approver2},${USERS.approver3}`,
        ...o.env,
      },
      clock: slackClock,
      stores,
      leadership,
      ...(deskOps ? { ops: deskOps } : {}),
      logger,
      fake,
      tradePairs: ['BTC-USD', 'ETH-USD', 'BTC-SGD'],
      engineConfig: { poll: { intervalMs: 2_000, maxIntervalMs: 10_000 } },
      notifierRetry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
    });
    desks.push(bot.desk);
    stoppers.push(() => bot.stop());
    const health = await startHealthServer({ port: 0, host: '127.0.0.1', routes: bot.desk.ops.routes });
    healthServers.push(health);
    return { bot, healthOrigin: `http://127.0.0.1:${health.port}` };
  };
  const { bot: first, healthOrigin } = await startDesk(leadership, ops);
  const idle = async () => {
    for (const desk of desks) {
      await desk.slack.idle();
      await desk.engine.idle();
    }
  };
  const deskBot: AnyTestBot = {
    sandbox,
    exchange,
    fake,
    slack: first.slack,
    bot: first.desk,
    ops,
    origin: first.origin,
    healthOrigin,
    config: first.config,
    requests,
    kv,
    audit,
    logs,
    leadership,
    async replica(replicaLeadership) {
      const started = await startDesk(replicaLeadership);
      return {
        ...deskBot,
        bot: started.bot.desk,
        slack: started.bot.slack,
        origin: started.bot.origin,
        healthOrigin: started.healthOrigin,
        leadership: replicaLeadership,
      };
    },
    idle,
    async settle() {
      const deadline = Date.now() + 2_000;
      for (;;) {
        const seen = fake.calls.length;
        await idle();
        await new Promise((r) => setTimeout(r, 25));
        await idle();
        if (fake.calls.length === seen || Date.now() > deadline) return;
      }
    },
    async runFor(ms, step = 2_000) {
      for (let t = 0; t < ms; t += step) {
        sandbox.control.advance(step);
        // Every replica's loop ticks; only the leader's tick does anything.
        for (const desk of desks) await desk.engine.tick();
        await idle();
      }
    },
    async stop() {
      for (const stop of stoppers) await stop();
      for (const health of healthServers) await health.close();
      await fake.stop();
      await sandbox.close();
      await stores.close();
    },
  };
  return deskBot;
}

// ---- reading what the bot said ----------------------------------------------------------------

export type Block = {
  type: string;
  block_id?: string;
  text?: { text: string };
  fields?: { text: string }[];
  elements?: Record<string, any>[];
};

export const blocksOf = (call: FakeSlackCall): Block[] => (call.args.blocks as Block[] | undefined) ?? [];
export const textOf = (call: FakeSlackCall): string =>
  `${String(call.args.text ?? '')}\n${JSON.stringify(call.args.blocks ?? [])}`;

/** What Slack reads as mrkdwn in a call (its fallback text and every mrkdwn text object): where a token like <!channel> would act. */
export function mrkdwnOf(call: FakeSlackCall): string {
  const texts: string[] = [String(call.args.text ?? '')];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      if (o.type === 'mrkdwn' && typeof o.text === 'string') texts.push(o.text);
      Object.values(o).forEach(walk);
    }
  };
  walk(call.args.blocks);
  return texts.join('\n');
}

/** The value of a button in a message's blocks. */
export function buttonValue(blocks: Block[], actionId: string): string | undefined {
  for (const b of blocks) for (const e of b.elements ?? []) if (e.action_id === actionId) return e.value as string;
  return undefined;
}

export function hasButtons(blocks: Block[]): boolean {
  return blocks.some((b) => (b.block_id ?? '').split(':')[0] === BLOCK.approvalActions);
}

/** Top-level posts in the approval channel. */
export function approvalPosts(fake: FakeSlackApi): FakeSlackCall[] {
  return fake
    .callsTo('chat.postMessage')
    .filter((c) => c.args.channel === APPROVAL_CHANNEL && c.args.thread_ts === undefined);
}

/** The approval message of a request: its ts and its latest content (post or last update). */
export function approvalMessage(
  fake: FakeSlackApi,
  requestId: string,
): { ts: string; blocks: Block[]; updates: FakeSlackCall[] } {
  const post = approvalPosts(fake).find(
    (c) => buttonValue(blocksOf(c), ACTION.cancel) === requestId || textOf(c).includes(requestId),
  );
  if (!post) throw new Error(`no approval message for ${requestId}`);
  const ts = post.response.ts as string;
  const updates = fake.callsTo('chat.update').filter((c) => c.args.ts === ts);
  return { ts, blocks: blocksOf(updates.at(-1) ?? post), updates };
}

/** Posts in a request's thread, as text. */
export function threadTexts(fake: FakeSlackApi, ts: string): string[] {
  return fake
    .callsTo('chat.postMessage')
    .filter((c) => c.args.thread_ts === ts)
    .map((c) => String(c.args.text));
}

/** Direct messages to a user: posted to the user id (Slack puts them in the bot's DM with them). */
export function dmsTo(fake: FakeSlackApi, userId: string): string[] {
  return fake
    .callsTo('chat.postMessage')
    .filter((c) => c.args.channel === userId)
    .map((c) => String(c.args.text));
}

/** The sandbox's seeded destinations: a usable one and the one without recipient details. */
export async function destinations(exchange: ExchangeApi): Promise<{
  ok: { address: AddressBookAddress; entry: CryptoCurrencyEntry };
  noRecipient: { address: AddressBookAddress; entry: CryptoCurrencyEntry };
}> {
  const book: AddressBookAddress[] = [];
  for await (const a of exchange.listAddressBook({ pageSize: 100 })) book.push(a);
  const entries = await exchange.listCryptoCurrencies();
  const pick = (label: string, asset: string) => {
    const address = book.find((a) => a.label === label)!;
    const entry = entries.find(
      (e) =>
        address.crypto_currency_networks.some((n) => n.uuid === e.network_id) &&
        (e.code ?? '').toUpperCase().includes(asset),
    )!;
    if (!address || !entry) throw new Error(`fixture: no ${label} / ${asset}`);
    return { address, entry };
  };
  return { ok: pick('OTC partner (TRC20)', 'USDT'), noRecipient: pick('Vendor without recipient details', 'ETH') };
}
