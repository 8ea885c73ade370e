// Child of bench/memory.ts (--expose-gc; compiled and under tsx): opens the stores, builds the engine, runs
// recovery, a tick and an App Home query, prints resident memory after a full GC.
import { performance } from 'node:perf_hooks';
import { createEngine } from '../src/bot/engine/engine.js';
import { createRandomIds } from '../src/bot/engine/ids.js';
import { createPolicy } from '../src/bot/domain/policy.js';
import { systemClock } from '../src/bot/exchange/client.js';
import { createExchangePort } from '../src/bot/exchange/adapter/index.js';
import type { ExchangeApi } from '../src/bot/exchange/wire-api.js';
import { createLogger } from '../src/bot/runtime/logger.js';
import { openStores } from '../src/bot/runtime/stores.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const settle = () => {
  for (let i = 0; i < 3; i++) gc();
};
const dir = process.argv[2]!;
settle();
const base = process.memoryUsage();

// Open requests need no exchange call to load, recover or tick: any call is a bench bug. The port
// is the bot's own (its limits set the polling budget); only the wire under it refuses every call.
const wire = new Proxy({} as ExchangeApi, {
  get: (_t, prop) =>
    prop === 'then'
      ? undefined
      : () => Promise.reject(new Error(`memory bench: unexpected exchange call ${String(prop)}`)),
});
const exchange = createExchangePort(wire);
const started = performance.now();
// The same stores, opened the same way, as the running bot (src/bot/runtime/stores.ts).
const stores = await openStores(dir, systemClock, [], createLogger({ level: 'error', secrets: [] }));
const { requests, kv, audit } = stores;
const engine = createEngine({
  exchange,
  requests,
  kv,
  audit,
  notifier: { notify: () => {} },
  clock: systemClock,
  ids: createRandomIds(),
  policy: createPolicy({ requesters: ['U0REQ0001'], approvers: ['U0APP0001', 'U0APP0002', 'U0APP0003'] }),
  logger: {
    info: () => {},
    warn: () => {},
    error: (m, d) => process.stderr.write(`${m} ${JSON.stringify(d ?? {})}\n`),
  },
});
await engine.start();
const loadMs = performance.now() - started;
const live = await engine.listLive();
await engine.tick();
const waiting = await engine.waitingFor('U0APP0003');
settle();
const after = process.memoryUsage();
process.stdout.write(JSON.stringify({ open: live.length, waiting: waiting.length, loadMs, base, after }) + '\n');
// The tick's follow-up work (message refreshes) finishes before the stores close under it.
await engine.idle();
await stores.close();
