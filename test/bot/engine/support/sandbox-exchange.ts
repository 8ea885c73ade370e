/** The sandbox on loopback with a manual clock, and the real client signed for it: the ExchangePort the engine gets in production. */
import type { Clock } from '../../../../src/bot/ports/clock.js';
import type { ExchangePort } from '../../../../src/bot/ports/exchange-port.js';
import type { ExchangeApi } from '../../../../src/bot/exchange/wire-api.js';
import { createExchangePort } from '../../../../src/bot/exchange/adapter/index.js';
import { createExchangeClient } from '../../../../src/bot/exchange/client.js';
import { createSigner, parsePrivateKey } from '../../../../src/bot/exchange/signer.js';
import { createSandboxClock } from '../../../../src/stand-ins/sandbox/sandbox-clock.js';
import { startSandbox, type Sandbox } from '../../../../src/stand-ins/sandbox/server.js';
import { makeKey } from '../../../stand-ins/sandbox/support/sign.js';
import { T0 } from '../../../stand-ins/sandbox/support/sandbox.js';

export interface SandboxExchange {
  sandbox: Sandbox;
  /** The engine's port over `api`. */
  exchange: ExchangePort;
  /** The client itself, for a test's own reads and writes on the exchange. */
  api: ExchangeApi;
  /** The engine's clock is the exchange's: quote expiry and cooldowns are compared on one time line. */
  clock: Clock;
}

export async function startSandboxExchange(seed: string): Promise<SandboxExchange> {
  const key = makeKey();
  const sandbox = await startSandbox({
    seed,
    clock: createSandboxClock({ startMs: T0, followRealTime: false }),
    keys: [{ publicKeyHex: key.compressedHex, scopes: ['read', 'transfer', 'trade'] }],
  });
  const api = createExchangeClient({
    baseUrl: sandbox.url,
    signer: createSigner(parsePrivateKey(key.privateKeyHex)),
    rateLimit: false,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    timeoutMs: 5_000,
  });
  // Sleeps wait in real time (the exchange's time moves only when a test advances it): a loop on the
  // engine's clock (a lease renewal) must not spin, and a few real milliseconds are all a test needs.
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
  return { sandbox, exchange: createExchangePort(api), api, clock: { now: () => sandbox.clock.now(), sleep } };
}
