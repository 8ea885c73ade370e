/**
 * Replicas of the bot as an operator runs them: each replica a process of its own (bot-child.ts:
 * runBot configured by its environment) in HTTP mode on its own loopback port, all on ONE
 * PostgreSQL database and ONE sandbox exchange process (sandbox-process.ts), with the fake Slack
 * Web API in the test's process. Requests are signed Slack requests sent to whichever replica the
 * test picks, as a load balancer would.
 *
 * Each replica reaches the exchange through a TCP proxy of its own (test/support/tcp-proxy.ts), so
 * the test knows which process sent each exchange call (the holder of an execution), and may reach
 * PostgreSQL through one (to cut it off from the database). The test reads the shared store with
 * the store's own repository (records.ts).
 */
import { API_PREFIX } from '../../../../src/bot/exchange/protocol.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../../../src/stand-ins/fake-slack/fake-slack-api.js';
import { SlackRequester } from '../../../../src/stand-ins/fake-slack/slack-requests.js';
import { EVENTS_PATH } from '../../../../src/bot/slack/shell/slack-app.js';
import type { PgCluster } from '../../../support/postgres-cluster.js';
import { startTcpProxy, type TcpProxy } from '../../../support/tcp-proxy.js';
import { APPROVAL_CHANNEL, BOT_TOKEN, SIGNING_SECRET } from '../../../bot/slack/support/harness.js';
import { bundleEntry, isBotStarted, startChild, type Bundle, type RunningChild } from '../../support/child-process.js';
import { DESK_PEOPLE } from '../../support/desk.js';
import { makeFaultKey } from '../../support/keys.js';
import type { ReplicaRunOptions } from './bot-child.js';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process.js';

export { APPROVAL_CHANNEL, DESK_PEOPLE };

/** What /readyz answers (src/bot/ops/readiness.ts), as far as the tests read it. */
export interface ReadyAnswer {
  ready: boolean;
  role: 'leader' | 'follower';
  failing: string[];
}

/** An HTTP call the replica made to the exchange, as its proxy saw it leave. */
export interface ExchangeCall {
  at: number;
  /** `POST /public_api/v1/crypto/withdrawals`: method and path, without the query. */
  line: string;
}

const WITHDRAWALS_PATH = `${API_PREFIX}/crypto/withdrawals`;
/** The call that sends a crypto withdrawal (moves money). */
export const sendsWithdrawal = (c: ExchangeCall): boolean => c.line === `POST ${WITHDRAWALS_PATH}`;
/** A read of the withdrawals: polling, or a look for one whose answer was lost. */
export const readsWithdrawals = (c: ExchangeCall): boolean => c.line.startsWith(`GET ${WITHDRAWALS_PATH}`);

export interface Replica {
  /** A, B, … */
  readonly name: string;
  /** The running process; undefined before start and after it exited. */
  readonly child: RunningChild | undefined;
  /** Signed requests to this replica's /slack/events (valid while it runs). */
  readonly slack: SlackRequester;
  readonly origin: string;
  /** The calls this replica made to the exchange, in order, over all its lives. */
  readonly exchangeCalls: ExchangeCall[];
  /** Between this replica and PostgreSQL, when the set was started with `databaseProxy`. */
  readonly databaseProxy: TcpProxy | undefined;
  /** Its JSON log lines (this life). */
  logs(): Array<Record<string, unknown>>;
  /** GET /readyz; undefined when it does not answer within 2.5 s. */
  readyz(): Promise<ReadyAnswer | undefined>;
  start(): Promise<void>;
  /** SIGKILL, resolved once reaped: no handler runs, the leader's session just ends. */
  kill(): Promise<void>;
  /** SIGTERM and a clean stop (killed if it takes more than 8 s). */
  stop(): Promise<void>;
}

export interface ReplicaSet {
  readonly databaseUrl: string;
  readonly sandbox: SandboxProcess;
  readonly fake: FakeSlackApi;
  readonly replicas: readonly Replica[];
  /** The USDT (TRC20) entry and the verified TRC20 partner address of the seeded account. */
  readonly target: { cryptoCurrencyId: number; addressBookId: string };
  stop(): Promise<void>;
}

export interface ReplicaSetOptions {
  cluster: PgCluster;
  seed: string;
  /** How many replicas (default 2); started in order, so the first leads. */
  count?: number;
  /** Put a TCP proxy between each replica and PostgreSQL. */
  databaseProxy?: boolean;
  run?: ReplicaRunOptions;
  env?: Record<string, string>;
}

/**
 * Timings of the fault suite: the first look after a lost answer 1 s after the send (5 s in
 * production), an execution's lease of 2.4 s renewed every 0.8 s (15 s and 5 s: the same three
 * renewals per lease), polling that backs off to 2 s at most, ticks of 250 ms. Leadership keeps
 * its production timing (a poll every 2 s): the takeover measured is the real one.
 */
export const SUITE_RUN_OPTIONS: ReplicaRunOptions = {
  tickMs: 250,
  shutdownGraceMs: 3_000,
  engineConfig: {
    firstLookAfterMs: 1_000,
    unreadableLookIntervalMs: 500,
    lookIntervalMs: 500,
    leaseTtlMs: 2_400,
    leaseRenewMs: 800,
    poll: { maxIntervalMs: 2_000 },
  },
};

/** The two bundles a set runs (a child starts in ~0.3 s from one, against ~1 s with tsx). */
export interface ReplicaBundles {
  bot: Bundle;
  sandbox: Bundle;
  dispose(): void;
}

export async function bundleReplicas(): Promise<ReplicaBundles> {
  const [bot, sandbox] = await Promise.all([
    bundleEntry('../replicas/support/bot-child.ts'),
    bundleEntry('../../../src/stand-ins/sandbox/cli.ts'),
  ]);
  return { bot, sandbox, dispose: () => (bot.dispose(), sandbox.dispose()) };
}

export async function startReplicaSet(bundles: ReplicaBundles, o: ReplicaSetOptions): Promise<ReplicaSet> {
  const key = makeFaultKey();
  const sandbox = await startSandboxProcess({ bundle: bundles.sandbox, publicKeyHex: key.publicKeyHex, seed: o.seed });
  const fake = await startFakeSlackApi({ expectedToken: BOT_TOKEN });
  const databaseUrl = await o.cluster.createDatabase();
  const address = (await sandbox.addresses()).find((a) => a.label === 'OTC partner (TRC20)');
  if (!address) throw new Error('fixture: the sandbox has no OTC partner (TRC20) address');

  const env = (exchangeUrl: string, dbUrl: string): Record<string, string> => ({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
    PORT: '0',
    // The operations endpoints are never on PORT: each replica's on a free port of its own.
    HEALTH_PORT: '0',
    APPROVAL_CHANNEL_ID: APPROVAL_CHANNEL,
    REQUESTER_USER_IDS: DESK_PEOPLE.requester,
    APPROVER_USER_IDS: DESK_PEOPLE.approvers.join(','),
    EXCHANGE_BASE_URL: exchangeUrl,
    EXCHANGE_PRIVATE_KEY: key.hex,
    // The sandbox has no rate limit; the replicas' shared cap is not what these tests are about.
    EXCHANGE_RATE_LIMIT_PER_SECOND: '200',
    DATABASE_URL: dbUrl,
    POLL_INTERVAL_MS: '1000',
    UNKNOWN_OUTCOME_SETTLE_MINUTES: '1',
    LOG_LEVEL: 'info',
    REPLICA_RUN_OPTIONS: JSON.stringify(o.run ?? SUITE_RUN_OPTIONS),
    ...o.env,
  });

  const replicas: ReplicaInternals[] = [];
  for (let i = 0; i < (o.count ?? 2); i++) {
    const exchangeProxy = await startTcpProxy({ host: '127.0.0.1', port: sandbox.port });
    const databaseProxy = o.databaseProxy
      ? await startTcpProxy({ host: '127.0.0.1', port: o.cluster.port })
      : undefined;
    const dbUrl = databaseProxy ? databaseUrl.replace(`:${o.cluster.port}/`, `:${databaseProxy.port}/`) : databaseUrl;
    replicas.push(
      replica(
        String.fromCharCode(65 + i),
        bundles.bot,
        env(`http://127.0.0.1:${exchangeProxy.port}`, dbUrl),
        exchangeProxy,
        databaseProxy,
      ),
    );
  }
  for (const r of replicas) await r.start();

  return {
    databaseUrl,
    sandbox,
    fake,
    replicas,
    target: { cryptoCurrencyId: 104, addressBookId: address.id },
    async stop() {
      await Promise.all(replicas.map((r) => r.stop()));
      await Promise.all(
        replicas.flatMap((r) => [r.exchangeProxy.close(), r.databaseProxy?.close() ?? Promise.resolve()]),
      );
      await sandbox.stop();
      await fake.stop();
    },
  };
}

interface ReplicaInternals extends Replica {
  exchangeProxy: TcpProxy;
}

function replica(
  name: string,
  bundle: Bundle,
  env: Record<string, string>,
  exchangeProxy: TcpProxy,
  databaseProxy: TcpProxy | undefined,
): ReplicaInternals {
  let child: RunningChild | undefined;
  let port = 0;
  let healthPort = 0;
  const exchangeCalls: ExchangeCall[] = [];
  // Every chunk that starts an HTTP request names it on its first line.
  exchangeProxy.cutWhen = (chunk) => {
    const line = /^(GET|POST|PUT|PATCH|DELETE) (\S+?)(?:\?\S*)? HTTP\/1\.1\r\n/.exec(chunk.toString('latin1', 0, 300));
    if (line) exchangeCalls.push({ at: Date.now(), line: `${line[1]} ${line[2]}` });
    return false;
  };
  const origin = () => `http://127.0.0.1:${port}`;
  let slack = new SlackRequester(`${origin()}${EVENTS_PATH}`, SIGNING_SECRET);
  const self: ReplicaInternals = {
    name,
    get child() {
      return child;
    },
    get slack() {
      return slack;
    },
    get origin() {
      return origin();
    },
    exchangeCalls,
    exchangeProxy,
    databaseProxy,
    logs: () => child?.events ?? [],
    async readyz() {
      try {
        const res = await fetch(`http://127.0.0.1:${healthPort}/readyz`, { signal: AbortSignal.timeout(2_500) });
        return (await res.json()) as ReadyAnswer;
      } catch {
        return undefined;
      }
    },
    async start() {
      if (child && child.proc.exitCode === null && child.proc.signalCode === null)
        throw new Error(`replica ${name} is running`);
      const started = startChild(bundle, env);
      child = started;
      const line = await started.waitFor(isBotStarted);
      if (!line)
        throw new Error(
          `replica ${name} did not start: ${started.stderr().slice(-1_500)} ${JSON.stringify(started.events.slice(-5))}`,
        );
      port = Number(line.port);
      healthPort = Number(line.healthPort);
      slack = new SlackRequester(`${origin()}${EVENTS_PATH}`, SIGNING_SECRET);
    },
    async kill() {
      if (!child) return;
      child.kill();
      await child.exited;
    },
    async stop() {
      if (child && child.proc.exitCode === null && child.proc.signalCode === null) {
        child.proc.kill('SIGTERM');
        // A replica cut off from its database may not finish a clean stop: it is killed after 8 s.
        const timer = setTimeout(() => child?.kill(), 8_000);
        await child.exited;
        clearTimeout(timer);
      }
    },
  };
  return self;
}
