/**
 * A sandbox on a frozen clock for in-process fault trials, and the exchange client on that same
 * clock: one time line for the exchange, its signature check, the client and the engine, as in
 * production (where all read the system clock), so the exchange's Date header measures a true offset.
 */
import { createExchangeClient, type ExchangeClientOptions } from '../../../src/exchange/client.js';
import { createSigner, parsePrivateKey } from '../../../src/exchange/signer.js';
import { createSandboxClock, startSandbox, type FaultRule, type Sandbox } from '../../../src/sandbox/index.js';
import type { KeySpec } from '../../../src/sandbox/keys.js';
import type { FaultKey } from './keys.js';

/** Starts a sandbox whose clock stands at `startMs` until advanced. */
export function frozenSandbox(o: { seed: string; startMs: number; keys: KeySpec[]; faults?: FaultRule[] }): Promise<Sandbox> {
  const clock = createSandboxClock({ startMs: o.startMs, followRealTime: false });
  return startSandbox({ seed: o.seed, clock, authNow: () => clock.now(), keys: o.keys, ...(o.faults ? { faults: o.faults } : {}) });
}

/** The real client for `key`, on the sandbox's clock; sleeps are cut short, writes never retried. */
export function sandboxClient(sandbox: Sandbox, key: FaultKey, o: { timeoutMs: number; logger?: ExchangeClientOptions['logger'] }) {
  return createExchangeClient({
    baseUrl: sandbox.url,
    signer: createSigner(parsePrivateKey(key.hex)),
    clock: { now: () => sandbox.clock.now(), sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 2))) },
    timeoutMs: o.timeoutMs,
    rateLimit: false,
    retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
    ...(o.logger ? { logger: o.logger } : {}),
  });
}
