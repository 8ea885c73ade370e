/**
 * The exchange of a test bot (test/support/bot.ts): the sandbox on loopback and the real signed
 * client production builds (runtime/connect-exchange.ts), with the port and listings over it.
 */
import { createExchangePort } from '../../src/bot/exchange/adapter/index.js';
import { createExchangeListings } from '../../src/bot/exchange/adapter/listings.js';
import {
  createExchangeClient,
  type ExchangeClient,
  type ExchangeClientOptions,
} from '../../src/bot/exchange/client.js';
import { createSigner, parsePrivateKey } from '../../src/bot/exchange/signer.js';
import type { ExchangeApi } from '../../src/bot/exchange/wire-api.js';
import type { Clock } from '../../src/bot/ports/clock.js';
import type { ExchangeListings } from '../../src/bot/ports/exchange-listings.js';
import type { ExchangePort } from '../../src/bot/ports/exchange-port.js';
import { createSandboxClock, startSandbox, type FaultRule, type Sandbox } from '../../src/stand-ins/sandbox/index.js';
import { makeKey, type TestKey } from '../stand-ins/sandbox/support/sign.js';
import { T0 } from '../stand-ins/sandbox/support/sandbox.js';

/** The client production builds (runtime/connect-exchange.ts), signed with `privateKey`, tuned for tests: no rate cap, quick read retries. */
export function testClient(
  baseUrl: string,
  privateKey: string,
  o: Partial<Omit<ExchangeClientOptions, 'baseUrl' | 'signer'>> = {},
): ExchangeClient {
  return createExchangeClient({
    baseUrl,
    signer: createSigner(parsePrivateKey(privateKey)),
    rateLimit: false,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    timeoutMs: 5_000,
    ...o,
  });
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
    clock: createSandboxClock({
      startMs: o.startMs ?? T0,
      followRealTime: o.followRealTime ?? false,
      ...(o.wallNow ? { wallNow: o.wallNow } : {}),
    }),
    keys: [{ publicKeyHex: key.compressedHex, scopes: ['read', 'transfer', 'trade'] }],
    ...(o.faults ? { faults: o.faults } : {}),
    ...(o.quoteLifetimeMs === undefined ? {} : { quoteLifetimeMs: o.quoteLifetimeMs }),
  });
  const client = testClient(sandbox.url, key.privateKeyHex, o.client);
  const api = o.wrap ? o.wrap(client) : client;
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
  return {
    sandbox,
    key,
    client,
    api,
    exchange: createExchangePort(api),
    listings: createExchangeListings(api),
    clock: { now: () => sandbox.clock.now(), sleep },
    close: () => sandbox.close(),
  };
}
