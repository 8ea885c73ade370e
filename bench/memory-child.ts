/**
 * Run by bench/memory.ts in its own process (node --expose-gc --import tsx, as `npm start` runs
 * the bot under tsx): opens the file stores in argv[2], builds the engine over them, runs
 * recovery, a tick and an App Home query, and prints resident memory after a full GC as JSON.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEngine } from '../src/app/engine.js';
import { createRandomIds } from '../src/app/ids.js';
import type { ExchangePort } from '../src/app/ports.js';
import { DESK_REQUEST_SCHEMA, DESK_REQUEST_STORE_NAME, DESK_REQUEST_VERSION } from '../src/app/record-schema.js';
import { createPolicy } from '../src/domain/policy.js';
import { isFinishedRequest } from '../src/domain/record.js';
import { systemClock } from '../src/exchange/client.js';
import { AUDIT_FILE_NAME, openAuditLog } from '../src/store/audit-log.js';
import { openKeyValueStore } from '../src/store/kv.js';
import { openRepository } from '../src/store/repository.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const settle = () => {
  for (let i = 0; i < 3; i++) gc();
};
const dir = process.argv[2]!;
settle();
const base = process.memoryUsage();

// Open requests need no exchange call to load, recover or tick: any call is a bench bug.
const exchange = new Proxy({} as ExchangePort, {
  get: (_t, prop) => (prop === 'then' ? undefined : () => Promise.reject(new Error(`memory bench: unexpected exchange call ${String(prop)}`))),
});
const started = performance.now();
const requests = await openRepository({ dir, name: DESK_REQUEST_STORE_NAME, schema: DESK_REQUEST_SCHEMA, isFinished: isFinishedRequest, version: DESK_REQUEST_VERSION });
const kv = await openKeyValueStore({ dir });
const audit = await openAuditLog({ file: join(dir, AUDIT_FILE_NAME), clock: systemClock });
const engine = createEngine({
  exchange,
  requests,
  kv,
  audit,
  notifier: { notify: () => {} },
  clock: systemClock,
  ids: createRandomIds(),
  policy: createPolicy({ requesters: ['U0REQ0001'], approvers: ['U0APP0001', 'U0APP0002', 'U0APP0003'] }),
  logger: { info: () => {}, warn: () => {}, error: (m, d) => process.stderr.write(`${m} ${JSON.stringify(d ?? {})}\n`) },
});
await engine.start();
const loadMs = performance.now() - started;
const live = await engine.listLive();
await engine.tick();
const waiting = await engine.waitingFor('U0APP0003');
settle();
const after = process.memoryUsage();
process.stdout.write(JSON.stringify({ open: live.length, waiting: waiting.length, loadMs, base, after }) + '\n');
await Promise.all([requests.close(), kv.close(), audit.close()]);
