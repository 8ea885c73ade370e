/**
 * Builds the Bolt app: HTTP mode (HTTPReceiver, one endpoint /slack/events for commands,
 * interactivity, options and events) unless an app token is configured, then Socket Mode.
 * `processBeforeResponse: false`: an ack() answers Slack at once and the listener goes on.
 */
import { onlyThisWorkspace } from './workspace-binding.js';
import { refusingFutureRequests } from './request-freshness.js';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, SocketModeReceiver, type Logger, type webApi } from '@slack/bolt';
import { EDGE_SERVER_OPTIONS, limitServer } from '../../ports/http-edge.js';
import type { Config } from '../../config/config.js';
import { rolesOf, type SlackContext, type SlackDeps } from '../kit/slack-context.js';
import { registerListeners } from './registrations.js';
import { AckGate } from './ack-gate.js';
import { bodyBudget } from './body-budget.js';
import { consoleSlackLogger, guardSlackLogger } from './library-log.js';
import { slackTransport, type SlackTransport } from './slack-transport.js';

export const EVENTS_PATH = '/slack/events';

/**
 * The largest request body read before the signature is checked (Bolt's default: 4 MB). Slack's
 * largest payloads echo a view (at most 100 blocks, each text at most 3,000 characters) or a message
 * (at most 50 blocks, 40,000 characters of text): about 300 KB of text, up to three times that once
 * JSON-escaped and form-encoded. A larger body is answered 413 unread.
 */
export const SLACK_BODY_LIMIT_BYTES = 1024 * 1024;

export interface SlackReceiverOptions {
  /** Overrides config.slack.port (tests pass 0 for a free port). */
  port?: number;
  /** Interface to listen on; default every interface (behind a load balancer). The local preview listens on 127.0.0.1 only. */
  host?: string;
  /** Bolt answers 404 when no listener acks within this time (default 3001 ms). */
  unhandledRequestTimeoutMillis?: number;
  /** Web API client retries; tests pass { retries: 0 } so a failing fake fails fast. */
  retryConfig?: webApi.RetryOptions;
  /** Where Bolt, Socket Mode and the WebClient log (through guardSlackLogger); default: the console at LOG_LEVEL. */
  logger?: Logger;
}

export interface CreateSlackAppOptions {
  config: Config;
  deps: SlackDeps;
  receiverOptions?: SlackReceiverOptions;
  /** Told each acknowledgement's latency in seconds (see start() and observeSocketAcks). */
  observeAck?: (seconds: number) => void;
  /** How Slack is reached (HTTPS_PROXY), shared with the notifiers' clients; default: built here. */
  transport?: SlackTransport;
}

export interface SlackApp {
  app: App;
  context: SlackContext;
  /** Acknowledgements before work (ack-gate.ts); the listeners never see it, only their registration. */
  ackGate: AckGate;
  mode: 'http' | 'socket';
  /** Starts listening (HTTP) or connecting (Socket Mode). Resolves with the bound port in HTTP mode. */
  start(): Promise<{ port?: number; host?: string }>;
  /** Stops listening, then waits for the listeners still at work after their ack. */
  stop(): Promise<void>;
  /** Whether Slack accepted the bot token: auth.test succeeded (start() waits for it). */
  authChecked(): boolean;
  /** Whether Slack can reach this replica: listening (HTTP), or its socket connected (Socket Mode). */
  connected(): boolean;
  /** Whether the last Web API call got an answer (undefined before the first): how /readyz explains a start waiting for Slack. */
  reached(): boolean | undefined;
  /** Resolves once no listener is at work (tests: a delivery waiting for another one's answer is work). */
  idle(): Promise<void>;
}

/** Create the Slack app over the ports in `deps`; nothing listens until start(). */
export function createSlackApp({
  config,
  deps,
  receiverOptions = {},
  observeAck = () => {},
  transport: given,
}: CreateSlackAppOptions): SlackApp {
  const botToken = config.slack.botToken.reveal();
  // Every Slack library gets this logger, never a logLevel: given only a level, Bolt, the receivers
  // and Socket Mode each build a console logger of their own, which would print the envelopes and
  // tickets the guard withholds (library-log.ts). The WebClients share the App's logger.
  const logger = guardSlackLogger(receiverOptions.logger ?? consoleSlackLogger(config.logLevel));
  const transport = given ?? slackTransport(config.slack, logger);
  const clientOptions = {
    slackApiUrl: config.slack.apiUrl,
    fetch: transport.fetch,
    ...(receiverOptions.retryConfig ? { retryConfig: receiverOptions.retryConfig } : {}),
  };
  // convoStore false: Bolt's conversation store (a per-request lookup middleware) is unused here.
  // deferInitialization: Bolt checks the bot token (auth.test) in init(), which start() awaits. Left
  // to the constructor, the check runs unawaited: a refused token (or Slack unreachable through
  // the retries) rejects with nobody listening, which ends the process with a stack trace.
  const common = { token: botToken, clientOptions, convoStore: false as const, logger, deferInitialization: true };

  const ackGate = new AckGate();
  let socketUp = false;
  let app: App;
  let httpReceiver: HTTPReceiver | undefined;
  const appToken = config.slack.appToken?.reveal();
  if (appToken !== undefined) {
    const receiver = new SocketModeReceiver({
      appToken,
      logger,
      ...(transport.dispatcher ? { dispatcher: transport.dispatcher } : {}),
    });
    observeSocketAcks(receiver, observeAck);
    // Slack's hello says the socket is up; a closed socket is down until the next hello (the client
    // reconnects on its own), so readiness says when Slack has no way to hand this replica an event.
    receiver.client.on('connected', () => (socketUp = true));
    for (const down of ['close', 'reconnecting', 'disconnecting', 'disconnected'])
      receiver.client.on(down, () => (socketUp = false));
    app = new App({ ...common, receiver });
  } else {
    const signingSecret = config.slack.signingSecret?.reveal();
    // loadConfig refuses HTTP mode without a signing secret; this guards hand-built configs.
    if (!signingSecret) throw new Error('SLACK_SIGNING_SECRET is required in HTTP mode');
    const arrivals = new WeakMap<IncomingMessage, { res: ServerResponse; at: number }>();
    httpReceiver = new HTTPReceiver({
      signingSecret,
      endpoints: EVENTS_PATH,
      processBeforeResponse: false,
      bodyLimit: SLACK_BODY_LIMIT_BYTES,
      ...(receiverOptions.unhandledRequestTimeoutMillis !== undefined
        ? { unhandledRequestTimeoutMillis: receiverOptions.unhandledRequestTimeoutMillis }
        : {}),
      logger,
      // Bolt calls this once the signature is verified, before the listeners: from here the request
      // waits for its ack (ack-gate.ts). An unsigned request, however slowly it is sent, never holds work back.
      customPropertiesExtractor: (req) => {
        const arrival = arrivals.get(req);
        if (arrival) awaitAck(ackGate, arrival, observeAck);
        return {};
      },
    });
    const listener = refusingFutureRequests(httpReceiver.requestListener);
    const budget = bodyBudget();
    httpReceiver.requestListener = (req, res) => {
      // Bolt counts the bytes as they come; a body declared too large is refused before any is read.
      const declared =
        req.headers['content-length'] === undefined ? SLACK_BODY_LIMIT_BYTES : Number(req.headers['content-length']);
      if (declared > SLACK_BODY_LIMIT_BYTES) return refuse(req, res, 413);
      const release = budget.take(declared);
      if (!release) return refuse(req, res, 503);
      res.once('finish', release).once('close', release);
      arrivals.set(req, { res, at: performance.now() });
      listener(req, res);
    };
    app = new App({ ...common, receiver: httpReceiver });
  }

  const context: SlackContext = {
    config,
    deps,
    roles: rolesOf(deps.policy),
    sandbox: config.exchange.kind === 'sandbox',
    logger: app.logger,
  };
  // Listeners go on after their ack; stop() waits for them so nothing they do meets closed stores.
  const inFlight = new Set<Promise<unknown>>();
  app.use(async ({ next }) => {
    const work = next();
    inFlight.add(work);
    try {
      await work;
    } finally {
      inFlight.delete(work);
    }
  });
  app.use(
    onlyThisWorkspace(
      () => app.client.auth.test(),
      (m) => app.logger.warn(m),
    ),
  );
  registerListeners(app, context, ackGate);
  app.error(async (error) => {
    // Bolt's errors can carry the request; log the kind and message only.
    app.logger.error(`listener failed: ${error.name}: ${error.message}`);
  });

  let authChecked = false;
  let listening = false;
  return {
    app,
    context,
    ackGate,
    mode: httpReceiver ? 'http' : 'socket',
    async start() {
      // A refused token stops the start here, with Slack's reason (invalid_auth, account_inactive).
      await app.init();
      authChecked = true;
      if (!httpReceiver) {
        await app.start();
        return {};
      }
      const port = receiverOptions.port ?? config.slack.port;
      const server = (await app.start(
        receiverOptions.host === undefined ? port : { port, host: receiverOptions.host },
        EDGE_SERVER_OPTIONS,
      )) as Server;
      limitServer(server);
      listening = true;
      const bound = server.address() as AddressInfo;
      return { port: bound.port, host: bound.address };
    },
    async stop() {
      listening = false;
      await app.stop();
      await Promise.allSettled([...inFlight]);
    },
    authChecked: () => authChecked,
    connected: () => (httpReceiver ? listening : socketUp),
    reached: () => transport.reached(),
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/** Answers at once without reading the body, and closes the connection once the answer is out. */
function refuse(req: IncomingMessage, res: ServerResponse, status: 413 | 503): void {
  res.writeHead(status, { connection: 'close', ...(status === 503 ? { 'retry-after': '1' } : {}) });
  res.end(() => req.destroy());
}

/** A verified request waits for its ack until its response is sent; its latency counts from its arrival. */
function awaitAck(
  gate: AckGate,
  arrival: { res: ServerResponse; at: number },
  observe: (seconds: number) => void,
): void {
  const release = gate.enter();
  arrival.res.once('finish', () => observe((performance.now() - arrival.at) / 1000));
  arrival.res.once('finish', release);
  arrival.res.once('close', release);
}

/**
 * Socket Mode acks go back over the socket: the time from an envelope's arrival (the socket
 * client's `slack_event`) to its ack leaving (`outgoing_message`, which every ack is sent as), by
 * envelope id. An envelope never acked is forgotten once many newer ones arrived.
 */
function observeSocketAcks(receiver: SocketModeReceiver, observe: (seconds: number) => void): void {
  const arrived = new Map<string, number>();
  receiver.client.on('slack_event', ({ envelope_id: id }: { envelope_id?: string }) => {
    if (id === undefined) return;
    arrived.set(id, performance.now());
    if (arrived.size > 1_000) arrived.delete(arrived.keys().next().value!);
  });
  receiver.client.on('outgoing_message', ({ envelope_id: id }: { envelope_id?: string }) => {
    const at = id === undefined ? undefined : arrived.get(id);
    if (at === undefined) return;
    arrived.delete(id!);
    observe((performance.now() - at) / 1000);
  });
}
