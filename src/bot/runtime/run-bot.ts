/**
 * The whole bot, assembled: configuration in, a running desk out. main.ts calls it with the
 * process environment; the demo calls it with a local one. Order matters and is the point of this
 * file: the exchange and the stores first (a corrupt or locked file stops everything before Slack
 * hears of us), stored values migrated, then the desk composed (compose.ts), recovery of in-flight
 * executions, listening, then the loops. The operations side (src/bot/ops/) comes first of all: the
 * exchange client reports every call to it, and HEALTH_PORT answers while the rest starts.
 *
 * Background work is one scheduler (engine/run-loop.ts): the engine's ticks, the deposit watch and
 * the pruning of Slack keys run only while this replica leads (the stores say which: with files,
 * always) and start at once when it becomes leader (the engine recovering first); the exchange
 * probe runs on every replica, since each one's readiness needs a recent answer.
 */
import type { Engine } from '../engine/engine.js';
import type { EngineConfigInput } from '../engine/engine-config.js';
import type { Clock } from '../ports/clock.js';
import type { Leadership } from '../ports/leadership.js';
import type { Config } from '../config/config.js';
import { databaseUrlSecrets } from '../config/database-url.js';
import { systemClock } from '../exchange/client.js';
import { expiredSlackKey, PRUNE_INTERVAL_MS } from '../slack/shell/retention.js';
import type { SlackReceiverOptions } from '../slack/shell/slack-app.js';
import { composeBot, type ComposedBot } from './compose.js';
import { connectExchange, type ConnectOptions, type SandboxExchange } from './connect-exchange.js';
import { createLogger, type ProcessLogger } from './logger.js';
import { runScheduled, type Job } from '../engine/run-loop.js';
import { upgradeStoredValues } from './stored-value-upgrades.js';
import { createBotOps } from '../ops/bot-ops.js';
import { EXCHANGE_PROBE_MS, probeWhenQuiet } from '../ops/exchange-probe.js';
import { startHealthServer, type HealthServer } from '../ops/health-server.js';
import { openStores, storeLocation } from './stores.js';

export interface RunOptions<S extends SandboxExchange = SandboxExchange> {
  /** The stand-in exchange to start when EXCHANGE_BASE_URL is unset (main.ts hands in the sandbox). */
  startSandbox?: ConnectOptions<S>['startSandbox'];
  /** Overrides for tests and the demo. */
  clock?: Clock;
  logWrite?: (line: string) => void;
  receiverOptions?: SlackReceiverOptions;
  sandboxPort?: number;
  /** Sandbox only: quote lifetime (default 2.5 s). */
  sandboxQuoteLifetimeMs?: number;
  /** Sandbox only: continue from a saved sandbox and save it on every change (the preview: preview-files.ts). */
  sandboxFiles?: ConnectOptions['sandboxFiles'];
  /** Sandbox only: told of the sandbox as soon as it runs, before the stores open and the engine recovers (the preview's clock follows it from then). */
  onSandbox?: (sandbox: S) => void;
  /** Engine tick interval (expiries, scheduled executions, polling checks). */
  tickMs?: number;
  /** How long stop() waits for work in flight (default SHUTDOWN_GRACE_MS). */
  shutdownGraceMs?: number;
  /** Tests: a leadership to use instead of the stores' (one they can flip). */
  leadership?: Leadership;
  /** Tests: other engine timings (a fault suite's shorter settle windows and polling backoff). */
  engineConfig?: EngineConfigInput;
}

/**
 * How long a stop waits for work in flight (listeners after their ack, executions, queued
 * notices, the polling loops) before it closes the files anyway. With a slow exchange that work
 * can take minutes (reads queued behind the rate cap, 5 s each), longer than any process manager
 * waits (Kubernetes 30 s, systemd 90 s) before it kills. Cutting it off is safe: every exchange
 * write was persisted with its idempotency key before it was sent, and the next start looks for
 * it; a listener cut off only loses a modal fill or a reply.
 */
export const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningBot<S extends SandboxExchange = SandboxExchange> {
  config: Config;
  engine: Engine;
  desk: ComposedBot;
  sandbox: S | undefined;
  logger: ProcessLogger;
  /** Whether this replica does the background work now (for /readyz and the metrics too). */
  leadership: Leadership;
  /** HTTP mode: the bound port, and the interface it listens on. */
  port: number | undefined;
  host: string | undefined;
  /** Where /healthz, /readyz and /metrics are served (HEALTH_PORT set, on HEALTH_HOST): the bound port. */
  healthPort: number | undefined;
  /** Stop the loops, stop listening, let queued notices finish, close the files. */
  stop(): Promise<void>;
}

/** Start the bot described by `config`. */
export async function runBot<S extends SandboxExchange = SandboxExchange>(
  config: Config,
  options: RunOptions<S> = {},
): Promise<RunningBot<S>> {
  const clock = options.clock ?? systemClock;
  const secrets = configSecrets(config);
  const logger = createLogger({
    level: config.logLevel,
    secrets,
    ...(options.logWrite ? { write: options.logWrite } : {}),
  });
  // Who leads is known once the stores are open: compose.ts adds that side (watch-bot.ts).
  const ops = createBotOps({ clock, processMetrics: true });

  const connected = await connectExchange<S>(config.exchange, logger, {
    ...(options.startSandbox ? { startSandbox: options.startSandbox } : {}),
    onRequest: (entry) => ops.exchange.observe(entry),
    ...(options.sandboxPort !== undefined ? { sandboxPort: options.sandboxPort } : {}),
    ...(options.sandboxQuoteLifetimeMs !== undefined ? { sandboxQuoteLifetimeMs: options.sandboxQuoteLifetimeMs } : {}),
    ...(options.sandboxFiles ? { sandboxFiles: options.sandboxFiles } : {}),
  });
  if (connected.secretHex) secrets.push(connected.secretHex);
  if (connected.sandbox) options.onSandbox?.(connected.sandbox);

  const stores = await openStores(storeLocation(config), clock, secrets, logger).catch(async (err: unknown) => {
    await connected.close();
    throw err;
  });
  const { requests, kv, audit, stepUp } = stores;
  const leadership = options.leadership ?? stores.leadership;
  const pruneSlackKeys = async () => {
    const open = new Set((await requests.listLive()).map((r) => r.id));
    const pruned = await kv.prune(expiredSlackKey(clock.now(), open));
    if (pruned > 0) logger.info('pruned Slack references past their retention', { keys: pruned });
  };
  await upgradeStoredValues(kv, logger.child('store'));

  const desk = composeBot({
    config,
    clock,
    exchange: connected.exchange,
    listings: connected.listings,
    requests,
    kv,
    audit,
    stepUp,
    ops,
    leadership,
    logger: (part) => logger.child(part),
    // The Slack libraries log through the process logger even when a caller (tests) tunes the receiver.
    receiverOptions: { logger: logger.bolt(), ...options.receiverOptions },
    ...(options.engineConfig ? { engineConfig: options.engineConfig } : {}),
  });
  const { engine } = desk;
  const health = await serveHealth(config, desk.ops.routes, logger);
  const { port, host } = await desk.start().catch(async (err: unknown) => {
    // Slack refused the token, say, or PORT is taken: let go of the port, the files' lease and the exchange.
    await health?.close();
    await engine.idle();
    await stores.close();
    await connected.close();
    throw err;
  });

  const abort = new AbortController();
  const jobs: Job[] = [
    // Each tick tracked: a tick polls what is submitted.
    engine.job(options.tickMs ?? 1_000, (tick) => desk.ops.polling.track('status', tick)),
    { what: 'pruning Slack references', everyMs: PRUNE_INTERVAL_MS, on: 'leader', round: pruneSlackKeys },
    {
      what: 'exchange probe',
      everyMs: EXCHANGE_PROBE_MS,
      on: 'every replica',
      round: probeWhenQuiet({ calls: ops.exchange, clock, read: () => connected.exchange.balances() }),
    },
  ];
  const watch = desk.depositWatch;
  if (watch)
    jobs.push({
      what: 'deposit poll',
      everyMs: config.pollIntervalMs,
      on: 'leader',
      logger: logger.child('compliance'),
      round: desk.ops.polling.track(
        'deposits',
        () => watch.poll(),
        (summary) => summary.caughtUp,
      ),
    });
  const background = runScheduled({ leadership, clock, logger: logger.child('engine') }, abort.signal, jobs);
  const roleChanges = leadership.onChange((role) => {
    logger.info(
      role === 'leader'
        ? 'this replica is now the leader: background work starts'
        : 'this replica is now a follower: background work stops',
      { role },
    );
  });

  logger.info('desk bot started', {
    mode: config.slack.mode,
    port,
    healthPort: health?.port,
    healthHost: health ? config.healthHost : undefined,
    exchange: connected.sandbox ? `SANDBOX ${connected.sandbox.url}` : 'remote',
    store: stores.where,
    requiredApprovals: config.approvals.required,
    role: leadership.role(),
  });

  let stopping: Promise<void> | undefined;
  return {
    config,
    engine,
    desk,
    sandbox: connected.sandbox,
    logger,
    leadership,
    port,
    host,
    healthPort: health?.port,
    stop: () =>
      (stopping ??= (async () => {
        // Not ready from the first moment, so a load balancer drains this replica while it stops.
        ops.stopping();
        abort.abort();
        roleChanges();
        const graceMs = options.shutdownGraceMs ?? SHUTDOWN_GRACE_MS;
        const inFlight = Promise.allSettled([desk.stop(), background]);
        if (!(await settlesWithin(inFlight, graceMs))) {
          logger.warn(
            'stopping without waiting longer for work in flight (a slow exchange or Slack); a restart reconciles whatever was cut off',
            { graceMs },
          );
        }
        await stores.close();
        await connected.close();
        await health?.close();
        logger.info('desk bot stopped');
      })()),
  };
}

/**
 * HEALTH_PORT, when set: the operations endpoints on their own port and address (HEALTH_HOST),
 * never on PORT, listening before the desk starts so liveness answers during recovery and the
 * Socket Mode connection. Without it they are served nowhere, which is said once.
 */
async function serveHealth(
  config: Config,
  routes: ComposedBot['ops']['routes'],
  logger: ProcessLogger,
): Promise<HealthServer | undefined> {
  if (config.healthPort === undefined) {
    logger.warn('HEALTH_PORT is unset: /healthz, /readyz and /metrics are served nowhere');
    return undefined;
  }
  return startHealthServer({ port: config.healthPort, host: config.healthHost, routes });
}

/** Every secret value the configuration holds, for the redactors. */
function configSecrets(config: Config): string[] {
  const out = [
    config.slack.botToken.reveal(),
    config.slack.signingSecret?.reveal() ?? '',
    config.slack.appToken?.reveal() ?? '',
  ];
  if (config.exchange.kind === 'remote') out.push(Buffer.from(config.exchange.privateKey.reveal()).toString('hex'));
  if (config.database) out.push(...databaseUrlSecrets(config.database.url.reveal()));
  const proxyPassword = config.slack.proxy ? new URL(config.slack.proxy.url.reveal()).password : '';
  if (proxyPassword) out.push(decodeURIComponent(proxyPassword));
  // The step-up key in both ways it may be written (hex, base64).
  const stepUpKey = config.stepUp.key ? Buffer.from(config.stepUp.key.reveal()) : undefined;
  if (stepUpKey) out.push(stepUpKey.toString('hex'), stepUpKey.toString('base64'));
  return out.filter((s) => s.length > 0);
}

/** True if `work` settles within `ms` (a real timer: shutdown follows the wall clock). */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
