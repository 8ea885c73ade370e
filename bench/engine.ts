// Last approval to order sent on the durable store (to the order's arrival at the sandbox in process: the
// client's signing counted, no network), with a fresh and an expired quote; and the exchange reads of
// one polling cycle with 1,000 withdrawals.
import { createExchangePort } from '../src/bot/exchange/adapter/index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEngine, type Engine } from '../src/bot/engine/engine.js';
import { FakeClock } from '../test/support/fake-clock.js';
import { SequentialIds } from '../test/support/sequential-ids.js';
import { createPolicy } from '../src/bot/domain/policy.js';
import { isFinishedRequest } from '../src/bot/domain/record.js';
import { createLogger } from '../src/bot/runtime/logger.js';
import { openStores } from '../src/bot/runtime/stores.js';
import { memoryAuditLog, memoryKv, memoryRepository } from '../src/bot/store/memory.js';
import type { RequestRecord } from '../src/bot/domain/record.js';
import { DEFAULT_RATE_LIMIT_PER_SECOND, MAX_PAGE_SIZE } from '../src/bot/exchange/assumptions.js';
import { EngineExchange, PATH } from '../test/bot/engine/support/engine-exchange.js';
import { ADDR_OK, tradeInput, USDT_TRON } from '../test/bot/engine/support/seeded.js';
import { percentile, type BenchRow } from './row.js';
import { sized, type Scale } from './scale.js';

const WARMUP = 20;
const SAMPLES = 300;
const TARGET_P99_MS = 25;

export async function benchEngine(scale: Scale = 'full'): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-engine-'));
  try {
    const world = await openWorld(dir);
    const rows: BenchRow[] = [];
    for (const path of ['fresh quote', 're-quote'] as const) {
      const samples = await measure(world, path, sized(scale, WARMUP, 1), sized(scale, SAMPLES, 2));
      rows.push(row(`last approval → order sent, ${path}, p99`, percentile(samples, 0.99), `< ${TARGET_P99_MS} ms`));
      rows.push({
        name: `last approval → order sent, ${path}, p50`,
        value: percentile(samples, 0.5),
        unit: 'ms',
        target: 'info',
        pass: true,
      });
    }
    await world.close();
    rows.push(...(await benchPolling(sized(scale, IN_FLIGHT, 5))));
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface BenchWorld {
  engine: Engine;
  clock: FakeClock;
  exchange: EngineExchange;
  orderSentAt: () => number | undefined;
  resetSent: () => void;
  close: () => Promise<void>;
}

async function openWorld(dir: string): Promise<BenchWorld> {
  const clock = new FakeClock();
  const exchange = new EngineExchange(clock);
  exchange.sandbox.control.setPrice({ symbol: 'BTC-USD', price: '60000', driftBps: 0, volatilityBps: 0 });
  let sentAt: number | undefined;
  exchange.onArrival = (a) => {
    if (a.method === 'POST' && PATH.orders.test(a.path) && sentAt === undefined) sentAt = performance.now();
  };
  // The same stores, opened the same way, as the running bot (src/bot/runtime/stores.ts).
  const stores = await openStores(dir, clock, [], createLogger({ level: 'error', secrets: [] }));
  const { requests, kv, audit } = stores;
  const engine = createEngine({
    exchange: createExchangePort(exchange.client),
    requests,
    kv,
    audit,
    notifier: { notify: () => {} },
    clock,
    ids: new SequentialIds(),
    policy: createPolicy({ requesters: ['U_REQ'], approvers: ['U_A1', 'U_A2'] }),
  });
  return {
    engine,
    clock,
    exchange,
    orderSentAt: () => sentAt,
    resetSent: () => (sentAt = undefined),
    close: async () => {
      await engine.idle();
      await stores.close();
      await exchange.sandbox.close();
    },
  };
}

async function measure(
  world: BenchWorld,
  path: 'fresh quote' | 're-quote',
  warmup: number,
  count: number,
): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < warmup + count; i++) {
    const created = await world.engine.request('U_REQ', tradeInput());
    if (!created.ok) throw new Error(`bench request refused: ${created.message}`);
    const { id, snapshotHash } = created.request;
    await world.engine.approve(id, 'U_A1', snapshotHash);
    if (path === 're-quote') world.clock.advance(3_000);
    world.resetSent();
    const start = performance.now();
    const last = await world.engine.approve(id, 'U_A2', snapshotHash);
    if (!last.ok || last.execution === undefined)
      throw new Error('bench: the last approval did not start an execution');
    await last.execution;
    const sent = world.orderSentAt();
    if (sent === undefined) throw new Error(`bench: no order was sent on the ${path} path`);
    if (i >= warmup) samples.push(sent - start);
    await finish(world, id);
  }
  return samples;
}

/** Completes the order so the live file stays the size of a working desk's, not of the benchmark's. */
async function finish(world: BenchWorld, id: string): Promise<void> {
  const record = await world.engine.get(id);
  const orderId = record?.execution?.exchangeId;
  if (orderId) world.exchange.sandbox.control.setOrderStatus(orderId, 'completed');
  world.clock.advance(10_000);
  await world.engine.tick();
  await world.engine.idle();
}

function row(name: string, value: number, target: string): BenchRow {
  return { name, value, unit: 'ms', target, pass: value < TARGET_P99_MS };
}

const IN_FLIGHT = 1_000;

/** One polling cycle over `inFlight` (1,000) submitted withdrawals: with room in the budget, and under the default cap. */
async function benchPolling(inFlight: number): Promise<BenchRow[]> {
  const pagesNeeded = Math.ceil(inFlight / MAX_PAGE_SIZE);
  const roomy = await pollCycle({ ratePerSecond: 1_000, burst: 1_000 }, inFlight);
  const capped = await pollCycle({}, inFlight);
  return [
    {
      name: `poll cycle, ${inFlight} withdrawals in flight: exchange reads`,
      value: roomy.calls,
      unit: 'calls',
      target: `<= ${pagesNeeded} (pages to list them)`,
      pass: roomy.calls <= pagesNeeded && roomy.polled === inFlight,
    },
    {
      name: `poll cycle under the default cap (${DEFAULT_RATE_LIMIT_PER_SECOND}/s): exchange reads`,
      value: capped.calls,
      unit: 'calls',
      target: `<= ${DEFAULT_RATE_LIMIT_PER_SECOND}`,
      pass: capped.calls <= DEFAULT_RATE_LIMIT_PER_SECOND,
    },
  ];
}

async function pollCycle(
  poll: { ratePerSecond?: number; burst?: number },
  inFlight: number,
): Promise<{ calls: number; polled: number }> {
  const clock = new FakeClock();
  const exchange = new EngineExchange(clock);
  exchange.sandbox.control.setBalance({ currency: 'USDT', regular: '100000000' });
  const engine = createEngine({
    exchange: createExchangePort(exchange.client),
    requests: memoryRepository<RequestRecord>(isFinishedRequest),
    kv: memoryKv(),
    audit: memoryAuditLog(),
    notifier: { notify: () => {} },
    clock,
    ids: new SequentialIds(),
    policy: createPolicy({ requesters: ['U_REQ'], approvers: ['U_A1', 'U_A2'] }),
    config: { poll },
  });
  for (let i = 0; i < inFlight; i++) {
    const created = await engine.request('U_REQ', {
      kind: 'crypto_withdrawal',
      cryptoCurrencyId: USDT_TRON,
      addressBookId: ADDR_OK,
      amount: String(20 + i),
    });
    if (!created.ok) throw new Error(`bench request refused: ${created.message}`);
    await engine.approve(created.request.id, 'U_A1', created.request.snapshotHash);
    const last = await engine.approve(created.request.id, 'U_A2', created.request.snapshotHash);
    if (last.ok) await last.execution;
    clock.advance(10);
  }
  await engine.idle();
  const control = exchange.sandbox.control;
  for (const w of control.withdrawals()) if (w.request_id !== null) control.setWithdrawalStatus(w.id, 'processing');
  clock.advance(60_000);
  // Reads the exchange actually served (the budget may count one more per list: see poll.ts).
  const before = exchange.arrivals.length;
  const summary = await engine.tick();
  const reads = exchange.arrivals.slice(before).filter((a) => a.method === 'GET').length;
  await exchange.sandbox.close();
  return { calls: reads, polled: summary.polled };
}
