/**
 * The exchange the bot talks to: the real one at EXCHANGE_BASE_URL with the configured key, or,
 * when it is unset, the embedded sandbox started here on loopback with a key pair made for this
 * run (registered with every scope). The engine sees only its ExchangePort (in its own terms);
 * the Slack listings read the exchange's records as listed, through their own port (ExchangeListings).
 */
import { randomBytes } from 'node:crypto';
import type { ExchangePort } from '../ports/exchange-port.js';
import type { ExchangeListings } from '../ports/exchange-listings.js';
import { createExchangePort } from '../exchange/adapter/index.js';
import { createExchangeListings } from '../exchange/adapter/listings.js';
import type { ExchangeConfig } from '../config/config.js';
import { createExchangeClient, systemClock } from '../exchange/client.js';
import { Secret } from '../exchange/secret.js';
import { createSigner, publicKeyHex } from '../exchange/signer.js';
import type { RequestLogEntry } from '../exchange/transport.js';
import { SCOPES, type Scope } from '../exchange/assumptions.js';
import type { ProcessLogger } from './logger.js';

/** What the bot needs of a stand-in exchange; the sandbox (src/stand-ins/sandbox) is handed in by the composition root. */
export interface SandboxExchange {
  url: string;
  clock: { now(): number };
  close(): Promise<void>;
}

/** Starts the stand-in exchange with this run's key registered (the sandbox's startSandbox fits). */
export type StartSandbox<S extends SandboxExchange> = (options: {
  port: number;
  seed?: string;
  quoteLifetimeMs?: number;
  keys: { publicKeyHex: string; scopes: readonly Scope[] }[];
  save?: (text: string) => Promise<void>;
  restore?: string;
}) => Promise<S>;

export interface ConnectedExchange<S extends SandboxExchange = SandboxExchange> {
  exchange: ExchangePort;
  /** The same client, as the `/desk` listings read it (ports/exchange-listings.ts). */
  listings: ExchangeListings;
  /** Present when running on the embedded sandbox. */
  sandbox?: S;
  /** The private key hex of this run, for the log redactor (never printed). */
  secretHex?: string;
  close(): Promise<void>;
}

export interface ConnectOptions<S extends SandboxExchange = SandboxExchange> {
  /** Started when EXCHANGE_BASE_URL is unset; without it such a config is refused. */
  startSandbox?: StartSandbox<S>;
  /** Sandbox port: 0 picks a free one (SANDBOX_PORT, default 0 inside the bot). */
  sandboxPort?: number;
  sandboxSeed?: string;
  /** Sandbox quotes live this long (default 2.5 s): the demo's test shortens it to see a re-quote fast. */
  sandboxQuoteLifetimeMs?: number;
  fetch?: typeof fetch;
  /** Told of every request attempt, as the debug log is (the metrics: src/bot/ops/exchange-calls.ts). */
  onRequest?: (entry: RequestLogEntry) => void;
  /** The sandbox continues from `restore` (an earlier run's save) and hands `save` its text on every change. */
  sandboxFiles?: { restore?: string; save: (text: string) => Promise<void> };
}

/** Connect to the configured exchange (or start the sandbox). */
export async function connectExchange<S extends SandboxExchange>(
  config: ExchangeConfig,
  logger: ProcessLogger,
  options: ConnectOptions<S> = {},
): Promise<ConnectedExchange<S>> {
  const log = logger.child('exchange');
  const requestLog = (e: RequestLogEntry) => {
    options.onRequest?.(e);
    log.debug('exchange request', { ...e });
  };

  if (config.kind === 'remote') {
    const signer = createSigner(config.privateKey, config.apiKey);
    const client = createExchangeClient({
      baseUrl: config.baseUrl,
      signer,
      clock: systemClock,
      rateLimit: { perSecond: config.rateLimitPerSecond },
      logger: requestLog,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    log.info('exchange: remote', { baseUrl: config.baseUrl, apiKey: signer.apiKey });
    return { exchange: createExchangePort(client), listings: createExchangeListings(client), close: async () => {} };
  }

  if (!options.startSandbox)
    throw new Error(
      'EXCHANGE_BASE_URL is unset and this entry point runs no sandbox: set EXCHANGE_BASE_URL and the key',
    );
  const privateKey = new Secret(new Uint8Array(randomBytes(32)));
  const sandbox = await options.startSandbox({
    port: options.sandboxPort ?? 0,
    ...(options.sandboxSeed ? { seed: options.sandboxSeed } : {}),
    ...(options.sandboxQuoteLifetimeMs !== undefined ? { quoteLifetimeMs: options.sandboxQuoteLifetimeMs } : {}),
    keys: [{ publicKeyHex: publicKeyHex(privateKey), scopes: [...SCOPES] }],
    ...(options.sandboxFiles
      ? {
          save: options.sandboxFiles.save,
          ...(options.sandboxFiles.restore !== undefined ? { restore: options.sandboxFiles.restore } : {}),
        }
      : {}),
  });
  if (options.sandboxFiles?.restore !== undefined)
    log.info('sandbox: continuing where the last run stopped', { now: new Date(sandbox.clock.now()).toISOString() });
  const client = createExchangeClient({
    baseUrl: sandbox.url,
    signer: createSigner(privateKey),
    clock: systemClock,
    rateLimit: { perSecond: config.rateLimitPerSecond },
    logger: requestLog,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  log.warn('SANDBOX: no EXCHANGE_BASE_URL, running on the embedded sandbox exchange; no real funds move', {
    url: sandbox.url,
  });
  return {
    exchange: createExchangePort(client),
    listings: createExchangeListings(client),
    sandbox,
    secretHex: Buffer.from(privateKey.reveal()).toString('hex'),
    close: () => sandbox.close(),
  };
}
