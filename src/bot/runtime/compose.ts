/**
 * The composition root: every part of the desk built once, in order, each from the parts before
 * it, with nothing optional and nothing wired later.
 *
 *   policy -> reads (the stores seen through the policy) -> the notifiers' Slack client
 *   -> App Home (reads only) -> the one notifier (requests' messages, refreshing homes; deposits'; step-up resets' DMs)
 *   -> the engine (its outbox carries both) -> compliance (declarations, deposit watch)
 *   -> the Slack app, its listeners given all of the above.
 * The operations side (src/bot/ops/) watches it all: the audit log it is given counts what it records,
 * and runBot serves /healthz, /readyz and /metrics on HEALTH_PORT, never beside /slack/events.
 *
 * runBot (run-bot.ts) opens the exchange and the stores and calls this; the end-to-end tests call it
 * with theirs. start() recovers in-flight work before listening (on the leader); the loops are the caller's.
 */
import { createDeclarations, type Declarations } from '../engine/compliance/declare.js';
import { createDepositWatch, type DepositWatch } from '../engine/compliance/deposit-watch.js';
import type { ComplianceNotifier, Notifier } from '../ports/notifier.js';
import type { EngineConfigInput } from '../engine/engine-config.js';
import { createRequestReads } from '../engine/request-reads.js';
import { createEngine, type Engine } from '../engine/engine.js';
import { createRandomIds, createReplicaId } from '../engine/ids.js';
import type { AuditLog, KeyValueStore, Repository } from '../ports/store.js';
import type { StepUpStore } from '../ports/step-up.js';
import { createStepUps } from '../slack/step-up/step-ups.js';
import { createStepUpNotifier } from '../slack/step-up/reset-notifier.js';
import type { Clock } from '../ports/clock.js';
import type { Ids } from '../ports/ids.js';
import { type Leadership, LeadershipState } from '../ports/leadership.js';
import type { Logger } from '../ports/logger.js';
import type { OutboxEvent } from '../ports/events.js';
import { isReminderEvent, isRequestEvent, isStepUpEvent } from '../ports/events.js';
import type { Config } from '../config/config.js';
import { createPolicy, type Policy } from '../domain/policy.js';
import type { RequestRecord } from '../domain/record.js';
import type { ExchangeListings } from '../ports/exchange-listings.js';
import type { ExchangePort } from '../ports/exchange-port.js';
import { createSlackApp, type SlackApp, type SlackReceiverOptions } from '../slack/shell/slack-app.js';
import { createSlackComplianceNotifier } from '../slack/compliance/deposit-notifier.js';
import { consoleSlackLogger } from '../slack/shell/library-log.js';
import { createHomes } from '../slack/home/homes.js';
import { createSlackNotifier } from '../slack/approvals/approval-notifier.js';
import { createReminderNotifier } from '../slack/reminders/reminder-notifier.js';
import type { SlackRetryOptions } from '../slack/kit/slack-retry.js';
import { notifierClient } from '../slack/shell/web-clients.js';
import { slackTransport } from '../slack/shell/slack-transport.js';
import { createBotOps, type BotOps } from '../ops/bot-ops.js';
import { serveOps, watchBot, type ServedOps, type WatchedBot } from '../ops/watch-bot.js';

export interface BotParts {
  config: Config;
  clock: Clock;
  exchange: ExchangePort;
  listings: ExchangeListings;
  requests: Repository<RequestRecord>;
  kv: KeyValueStore;
  audit: AuditLog;
  /** Approvers' one-time code state (runtime/stores.ts): shared by every replica. */
  stepUp: StepUpStore;
  /** Whether this replica does the background work; default: the only replica (always leader), as with the file store. */
  leadership?: Leadership;
  /** The logger of each part (the process logger's children in production). */
  logger: (part: 'engine' | 'slack' | 'compliance') => Logger;
  receiverOptions?: SlackReceiverOptions;
  /** Tests: faster Slack retries (both notifiers), another engine timing, fixed ids, trade pairs. */
  notifierRetry?: Partial<SlackRetryOptions>;
  engineConfig?: EngineConfigInput;
  ids?: Ids;
  /** This process's identity in execution leases; default: a new one (engine/ids.ts createReplicaId). */
  replica?: string;
  tradePairs?: readonly string[];
  /** The desk's operations side (runBot's, which its exchange client reports to); default: a fresh one, always leader. */
  ops?: BotOps;
}

export interface ComposedBot {
  policy: Policy;
  leadership: Leadership;
  engine: Engine;
  /** The one notifier the outbox delivers to: requests' events and compliance's. */
  notifier: Notifier<OutboxEvent>;
  declarations: Declarations;
  /** Present when COMPLIANCE_CHANNEL_ID is set: deposits are watched and posted there. */
  depositWatch: DepositWatch | undefined;
  slack: SlackApp;
  /** Readiness, the loops' rounds and the operations endpoints (runBot serves them on HEALTH_PORT only). */
  ops: WatchedBot & ServedOps;
  /**
   * Recovers in-flight work (engine.start) if this replica is leader, then listens. Resolves with
   * the bound port in HTTP mode. A follower recovers when it becomes leader (engine.run).
   */
  start(): Promise<{ port?: number; host?: string }>;
  /** Stops listening and waits for listeners and queued notices. */
  stop(): Promise<void>;
}

export function composeBot(p: BotParts): ComposedBot {
  const { config, clock, exchange, requests, kv } = p;
  const leadership = p.leadership ?? new LeadershipState('leader');
  const deskOps = p.ops ?? createBotOps({ clock });
  const watched = watchBot(deskOps, { requests, kv, audit: p.audit, leadership: () => leadership.role() });
  const { audit } = watched;
  const sandbox = config.exchange.kind === 'sandbox';
  const policy = policyOf(config);
  const reads = createRequestReads({ requests, policy, clock });
  const slackLibraryLogger = p.receiverOptions?.logger ?? consoleSlackLogger(config.logLevel);
  // One way to Slack for every client (HTTPS_PROXY), which says once when Slack cannot be reached.
  const transport = slackTransport(config.slack, p.logger('slack'));
  const client = notifierClient(config, slackLibraryLogger, transport);

  const homes = createHomes({ reads, policy, clock, sandbox, logger: p.logger('slack'), client, kv });
  const requestNotifier = createSlackNotifier({
    client,
    channel: config.channels.approval,
    kv,
    sandbox,
    logger: p.logger('slack'),
    ...(p.notifierRetry ? { retry: p.notifierRetry } : {}),
    afterEvent: (event) => homes.afterEvent(event),
  });
  const reminderNotifier = createReminderNotifier({
    client,
    kv,
    reads,
    policy,
    clock,
    sandbox,
    logger: p.logger('slack'),
    ...(p.notifierRetry ? { retry: p.notifierRetry } : {}),
  });
  const complianceLog = p.logger('compliance');
  const channel = config.channels.compliance;
  // Without COMPLIANCE_CHANNEL_ID no deposit is watched or posted; declarations still work, and
  // their answer is shown to the officer in the modal.
  const complianceNotifier: ComplianceNotifier = channel
    ? createSlackComplianceNotifier({
        client,
        channel,
        kv,
        sandbox,
        logger: complianceLog,
        ...(p.notifierRetry ? { retry: p.notifierRetry } : {}),
      })
    : NO_DEPOSIT_CHANNEL;
  const stepUpNotifier = createStepUpNotifier({
    client,
    sandbox,
    logger: p.logger('slack'),
    ...(p.notifierRetry ? { retry: p.notifierRetry } : {}),
  });
  const notifier: Notifier<OutboxEvent> = {
    notify: (event, progress) =>
      isReminderEvent(event)
        ? reminderNotifier.notify(event, progress)
        : isRequestEvent(event)
          ? requestNotifier.notify(event, progress)
          : isStepUpEvent(event)
            ? stepUpNotifier.notify(event, progress)
            : complianceNotifier.notify(event, progress),
  };
  const engine = createEngine({
    exchange,
    requests,
    kv,
    audit,
    notifier,
    clock,
    ids: p.ids ?? createRandomIds(),
    policy,
    stepUpSettings: { atLeastUsd: config.stepUp.atLeastUsd },
    config: {
      quoteSafetyMarginMs: config.approvals.quoteSafetyMarginMs,
      unknownSettleWindowMs: config.approvals.unknownSettleWindowMs,
      ...p.engineConfig,
      poll: { intervalMs: config.pollIntervalMs, ...p.engineConfig?.poll },
    },
    logger: p.logger('engine'),
    leadership,
    replica: p.replica ?? createReplicaId(),
  });

  const declarations = createDeclarations({
    exchange,
    kv,
    audit,
    notices: engine.notices,
    policy,
    clock,
    logger: complianceLog,
  });
  const depositWatch = channel
    ? createDepositWatch({ exchange, kv, audit, notices: engine.notices, clock, logger: complianceLog })
    : undefined;

  const slack = createSlackApp({
    config,
    deps: {
      policy,
      exchange,
      listings: p.listings,
      clock,
      engine,
      homes,
      declarations,
      tradePairs: p.tradePairs ?? [],
      audit,
      kv,
      stepUps: createStepUps({
        store: p.stepUp,
        key: config.stepUp.key?.reveal(),
        clock,
        audit,
        notices: engine.notices,
        logger: p.logger('slack'),
      }),
    },
    ...(p.receiverOptions ? { receiverOptions: p.receiverOptions } : {}),
    observeAck: watched.observeAck,
    transport,
  });
  // Readiness asks the Slack app, so it is served once the app exists.
  const ops = {
    ...watched,
    ...serveOps(deskOps, {
      kv,
      leadership: () => leadership.role(),
      slackAuthChecked: () => slack.authChecked(),
      slackConnected: () => slack.connected(),
      slackReached: () => slack.reached(),
    }),
  };

  return {
    policy,
    leadership,
    engine,
    notifier,
    declarations,
    depositWatch,
    slack,
    ops,
    async start() {
      if (leadership.isLeader()) await engine.start();
      return slack.start();
    },
    async stop() {
      await slack.stop();
      await engine.idle();
    },
  };
}

const NO_DEPOSIT_CHANNEL: ComplianceNotifier = { notify() {} };

/** Who may do what, and how long approvals may take, as configured. */
export function policyOf(config: Config): Policy {
  const common = {
    compliance: config.users.compliance,
    expiryMs: {
      crypto_withdrawal: config.approvals.withdrawalExpiryMs,
      fiat_withdrawal: config.approvals.withdrawalExpiryMs,
      bank_account_removal: config.approvals.withdrawalExpiryMs,
      trade: config.approvals.tradeExpiryMs,
    },
  };
  // One engine path: the variables' "N of this list" is a policy of one group and one rule.
  if (config.policyFile) return createPolicy({ ...config.policyFile, ...common });
  return createPolicy({
    requesters: config.users.requesters,
    approvers: config.users.approvers,
    requiredApprovals: config.approvals.required,
    ...common,
  });
}
