/**
 * The engine on in-memory stores against a sandbox on one time line (the exchange, its signature
 * check, the client and the engine all read the sandbox's clock, which moves only when a test
 * advances it), with a client that gives up fast and counts the first try of every money-moving
 * POST. What the late-commit, fresh-look, trade-doubt and attribution trials share.
 */
import { afterAll } from 'vitest';
import type { Engine } from '../../../src/bot/engine/engine.js';
import type { ExchangeClientOptions } from '../../../src/bot/exchange/client.js';
import type { FaultRule } from '../../../src/stand-ins/sandbox/faults.js';
import { createSandboxClock, startSandbox, type KeySpec, type Sandbox } from '../../../src/stand-ins/sandbox/index.js';
import type { MemoryAuditLog } from '../../../src/bot/store/memory.js';
import { testClient } from '../../support/bot-exchange.js';
import { makeFaultKey, type FaultKey } from './keys.js';
import { memoryEngine } from './memory-desk.js';

export interface SlowExchangeBot {
  sandbox: Sandbox;
  engine: Engine;
  audit: MemoryAuditLog;
  /** First tries of POSTs by operation (createCryptoWithdrawal, createFiatWithdrawal, createOrder). */
  sends: Map<string, number>;
}

const key = makeFaultKey();
const sandboxes: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});

/** A sandbox whose clock stands at `startMs` until a test advances it; closed after the file's tests. */
export async function frozenSandbox(o: {
  seed: string;
  startMs: number;
  keys: KeySpec[];
  faults?: FaultRule[];
}): Promise<Sandbox> {
  const clock = createSandboxClock({ startMs: o.startMs, followRealTime: false });
  const sandbox = await startSandbox({
    seed: o.seed,
    clock,
    authNow: () => clock.now(),
    keys: o.keys,
    ...(o.faults ? { faults: o.faults } : {}),
  });
  sandboxes.push(sandbox);
  return sandbox;
}

/** The real client for `key` on the sandbox's clock: sleeps cut short, a read tried twice, writes never retried. */
export function sandboxClient(
  sandbox: Sandbox,
  clientKey: FaultKey,
  o: { timeoutMs: number; logger?: ExchangeClientOptions['logger'] },
) {
  return testClient(sandbox.url, clientKey.hex, {
    clock: { now: () => sandbox.clock.now(), sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 2))) },
    timeoutMs: o.timeoutMs,
    retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
    ...(o.logger ? { logger: o.logger } : {}),
  });
}

/** A started engine against a sandbox seeded with `seed`, starting at `startMs` with `faults`. */
export async function slowExchangeBot(o: {
  seed: string;
  startMs: number;
  faults: FaultRule[];
}): Promise<SlowExchangeBot> {
  const sandbox = await frozenSandbox({
    ...o,
    keys: [{ publicKeyHex: key.publicKeyHex, scopes: ['read', 'transfer', 'trade'] }],
  });
  const sends = new Map<string, number>();
  const exchange = sandboxClient(sandbox, key, {
    timeoutMs: 150,
    logger: (e) => {
      if (e.method === 'POST' && e.attempt === 1) sends.set(e.operation, (sends.get(e.operation) ?? 0) + 1);
    },
  });
  const clock = { now: () => sandbox.clock.now(), sleep: async () => {} };
  const { engine, audit } = memoryEngine({
    exchange,
    clock,
    config: { poll: { intervalMs: 10_000, maxIntervalMs: 60_000 } },
  });
  await engine.start();
  return { sandbox, engine, audit, sends };
}
