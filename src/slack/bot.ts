/**
 * The composition of the Slack side, for main.ts (and the end-to-end tests, the demo, the
 * benchmark): the Bolt app, the Slack notifier the engine reports through, and the engine in the
 * listeners' deps. The engine needs the notifier and the notifier needs the Slack client, so the
 * caller passes a function that builds the engine around the notifier.
 *
 * @example
 * const bot = await startBot({ config, exchange, kv, audit, clock,
 *   createEngine: (notifier) => createEngine({ exchange, requests, kv, audit, notifier, clock, ids, policy, config: engineConfig, logger }) });
 * void bot.engine.run(abort.signal, 1_000);
 */
import type { Policy } from '../domain/policy.js';
import { webApi, type Logger as BoltLogger } from '@slack/bolt';
import type { Engine } from '../app/engine.js';
import type { AuditLog, Clock, DeskEvent, ExchangePort, KeyValueStore, Logger, Notifier } from '../app/ports.js';
import type { ExchangeListings } from '../exchange/api.js';
import type { Config } from '../config/config.js';
import { createSlackApp, type SlackApp, type SlackReceiverOptions } from './app.js';
import type { SlackClient, SlackDeps } from './context.js';
import { refreshHome } from './home/app-home-opened.js';
import { createSlackNotifier } from './notifier.js';
import type { SlackRetryOptions } from './slack-retry.js';

export interface StartBotOptions {
  config: Config;
  /** Read-only use by the listeners (forms, balances, wallet search); writes go through the engine. */
  exchange: ExchangePort;
  /** The `/desk` listings. */
  listings: ExchangeListings;
  /** Who may do what (runtime/bot.ts policyOf). */
  policy: Policy;
  /** Where approval messages (channel, ts) and form dedupe tokens are persisted; the engine's KV is fine. */
  kv: KeyValueStore;
  clock: Clock;
  /**
   * Builds the approval engine with the Slack notifier it must report through. Or pass `engine`
   * built earlier and route its events to the returned `bot.notifier` yourself (e.g. through a
   * forwarding notifier); exactly one of the two.
   */
  createEngine?: (notifier: Notifier) => Engine;
  engine?: Engine;
  audit?: AuditLog;
  /** Operational log of the notifier; default: Bolt's logger. */
  logger?: Logger;
  /** Pairs the desk trades (trade form hint and check); empty: any well-formed pair. */
  tradePairs?: readonly string[];
  /** Listener deps that need the Slack client, e.g. `(client) => ({ declarations })` for compliance. */
  extraDeps?: (client: SlackClient) => Partial<SlackDeps>;
  receiverOptions?: SlackReceiverOptions;
  /** Retries of the notifier's Slack calls (default: 4 calls, backoff from 500 ms up to 10 s). */
  notifierRetry?: Partial<SlackRetryOptions>;
  /** Run engine.start() (recovery) before listening. Default true. */
  recover?: boolean;
}

export interface Bot {
  slack: SlackApp;
  engine: Engine;
  notifier: Notifier;
  /** Bolt's Web API client (for other notifiers, e.g. the compliance one). */
  client: SlackClient;
  /** The bound port in HTTP mode. */
  port: number | undefined;
  /** Stops listening; waits for queued notices. The engine's run loop is the caller's to stop. */
  stop(): Promise<void>;
}

/** Events after which the App Home of the people concerned is published again. */
const HOME_EVENTS = new Set<DeskEvent['type']>([
  'request.created',
  'approval.counted',
  'request.approved',
  'request.rejected',
  'request.cancelled',
  'request.expired',
  'trade.awaiting_reapproval',
  'request.completed',
  'execution.failed',
]);

/** Build the app, the notifier and the engine; recover; listen. See the file comment. */
export async function startBot(o: StartBotOptions): Promise<Bot> {
  const deps: SlackDeps = {
    exchange: o.exchange,
    listings: o.listings,
    policy: o.policy,
    clock: o.clock,
    kv: o.kv,
    ...(o.audit ? { audit: o.audit } : {}),
    ...(o.tradePairs ? { tradePairs: o.tradePairs } : {}),
  };
  const slack = createSlackApp({ config: o.config, deps, ...(o.receiverOptions ? { receiverOptions: o.receiverOptions } : {}) });
  const client = slack.app.client;
  const logger = o.logger ?? fromBoltLogger(slack.app.logger);

  // The notifier's own client: no hidden retries (Bolt's default waits up to half an hour), rate
  // limits surfaced as errors, so the notifier's bounded retry decides (slack-retry.ts).
  const notifierClient = new webApi.WebClient(o.config.slack.botToken.reveal(), {
    slackApiUrl: o.config.slack.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: 10_000,
    logger: slack.app.logger,
  });
  const notifier = createSlackNotifier({
    client: notifierClient,
    channel: o.config.channels.approval,
    kv: o.kv,
    sandbox: slack.context.sandbox,
    logger,
    ...(o.notifierRetry ? { retry: o.notifierRetry } : {}),
    afterEvent: async (event) => {
      if (!HOME_EVENTS.has(event.type)) return;
      const people = new Set([event.request.requester, ...o.config.users.approvers]);
      // The notifier's client: a Slack outage must not hold the notice queue in hidden retries.
      for (const userId of people) await refreshHome(slack.context, notifierClient, userId);
    },
  });
  const engine = o.engine ?? o.createEngine?.(notifier);
  if (!engine) throw new Error('startBot needs createEngine or engine');
  deps.desk = engine;
  deps.previewQuote = (terms) => engine.previewQuote(terms);
  if (o.extraDeps) Object.assign(deps, o.extraDeps(client));

  if (o.recover ?? true) await engine.start();
  const { port } = await slack.start();
  return {
    slack,
    engine,
    notifier,
    client,
    port,
    async stop() {
      await slack.stop();
      await engine.idle();
    },
  };
}

function fromBoltLogger(l: BoltLogger): Logger {
  const fmt = (message: string, data?: Record<string, unknown>) => (data ? `${message} ${JSON.stringify(data)}` : message);
  return {
    info: (m, d) => l.info(fmt(m, d)),
    warn: (m, d) => l.warn(fmt(m, d)),
    error: (m, d) => l.error(fmt(m, d)),
  };
}
