// Signatures per second on one core, and the client's own overhead per request (raw-fetch baseline to the
// same loopback server subtracted). Alone: `npx tsx bench/exchange.ts`.
import { createServer, type Server } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createExchangeClient } from '../src/bot/exchange/client.js';
import { API_PREFIX } from '../src/bot/exchange/protocol.js';
import { createSigner, parsePrivateKey, type Signer } from '../src/bot/exchange/signer.js';
import type { BenchRow } from './row.js';
import { sized, type Scale } from './scale.js';

const BENCH_KEY = 'c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721';
const SIGNATURES_TARGET = 2_000;
const OVERHEAD_TARGET_MS = 1;

/** A realistic balances answer: a dozen assets. */
const BALANCES = JSON.stringify(
  ['BTC', 'ETH', 'USDT', 'USDC', 'SGD', 'USD', 'SOL', 'XRP', 'ADA', 'DOT', 'MATIC', 'XSGD'].map((currency, i) => ({
    currency,
    regular: `${1000 + i}.12345678`,
    locked: '0.5',
    locked_balance: { orders: '0.25', alternative_products: '0.25' },
  })),
);

/** Milliseconds of CPU this process used (user + system) since `from`. */
function cpuMsSince(from: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1000;
}

/** One thread, so one core; also per CPU second, which counts the GC's helper threads (BigInt makes garbage). */
function signaturesPerSecond(ms = 2_000): { perCpuSecond: number; perWallSecond: number } {
  const signer = createSigner(parsePrivateKey(BENCH_KEY));
  const parts = {
    method: 'GET',
    targetUri: 'https://exchange.example/public_api/v1/accounts/balances',
    body: undefined,
    timestampMs: Date.now(),
  };
  // Warm up until the JIT has compiled noble's BigInt paths: steady state is what a busy bot sees.
  for (let i = 0; i < 600; i++) signer.headers({ ...parts, timestampMs: parts.timestampMs - 1 - i });
  let count = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 20; i++) signer.headers({ ...parts, timestampMs: parts.timestampMs + count++ });
    elapsed = performance.now() - start;
  }
  return { perCpuSecond: (count / cpuMsSince(cpu)) * 1000, perWallSecond: (count / elapsed) * 1000 };
}

async function startServer(): Promise<{ server: Server; base: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BALANCES) });
    res.end(BALANCES);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, base: `http://127.0.0.1:${port}` };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

interface Sample {
  wallMs: number;
  cpuMs: number;
}

/** The server is in this process, so the difference is the client's work; batches alternate so machine drift hits both; median kept. */
async function overheadPerRequest(
  signer: Signer,
  batches = 30,
  perBatch = 50,
): Promise<{ cpuOverheadMs: number; wallOverheadMs: number; rawMs: number; clientMs: number }> {
  const { server, base } = await startServer();
  try {
    const client = createExchangeClient({ baseUrl: base, signer, rateLimit: false, retry: false });
    const url = `${base}${API_PREFIX}/accounts/balances`;
    const raw = async () => {
      const res = await fetch(url, { headers: { accept: 'application/json' } });
      await res.text();
    };
    const viaClient = async () => {
      await client.listBalances();
    };
    const time = async (fn: () => Promise<void>): Promise<Sample> => {
      const cpu = process.cpuUsage();
      const start = performance.now();
      for (let i = 0; i < perBatch; i++) await fn();
      return { wallMs: (performance.now() - start) / perBatch, cpuMs: cpuMsSince(cpu) / perBatch };
    };
    // Warm up both paths (JIT, connection pool) before anything counts.
    for (let i = 0; i < 4; i++) {
      await time(raw);
      await time(viaClient);
    }
    const raws: Sample[] = [];
    const clients: Sample[] = [];
    for (let b = 0; b < batches; b++) {
      raws.push(await time(raw));
      clients.push(await time(viaClient));
    }
    const diff = (k: keyof Sample) => Math.max(0, median(clients.map((c, i) => c[k] - raws[i]![k])));
    return {
      cpuOverheadMs: diff('cpuMs'),
      wallOverheadMs: diff('wallMs'),
      rawMs: median(raws.map((r) => r.wallMs)),
      clientMs: median(clients.map((c) => c.wallMs)),
    };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export async function benchExchange(scale: Scale = 'full'): Promise<BenchRow[]> {
  const sps = signaturesPerSecond(sized(scale, 2_000, 20));
  const signer = createSigner(parsePrivateKey(BENCH_KEY));
  const [batches, perBatch] = [sized(scale, 30, 2), sized(scale, 50, 3)];
  const o = await overheadPerRequest(signer, batches, perBatch);
  // The same client with signing taken out (fixed headers): shows how much of the overhead is the signature.
  const fixed = signer.headers({
    method: 'GET',
    targetUri: 'http://127.0.0.1/',
    body: undefined,
    timestampMs: Date.now(),
  });
  const unsigned = await overheadPerRequest({ apiKey: signer.apiKey, headers: () => fixed }, batches, perBatch);
  return [
    {
      name: 'signatures per second (one core, sync loop)',
      value: sps.perWallSecond,
      unit: 'sig/s',
      target: `>= ${SIGNATURES_TARGET}`,
      pass: sps.perWallSecond >= SIGNATURES_TARGET,
    },
    {
      name: 'signatures per CPU second (GC threads included)',
      value: sps.perCpuSecond,
      unit: 'sig/s',
      target: 'info',
      pass: true,
    },
    {
      name: 'client overhead per request (sign, serialise, parse, schema)',
      value: o.wallOverheadMs,
      unit: 'ms',
      target: `< ${OVERHEAD_TARGET_MS}`,
      pass: o.wallOverheadMs < OVERHEAD_TARGET_MS,
    },
    { name: 'client overhead per request in CPU time', value: o.cpuOverheadMs, unit: 'ms', target: 'info', pass: true },
    {
      name: 'client overhead per request without signing',
      value: unsigned.wallOverheadMs,
      unit: 'ms',
      target: 'info',
      pass: true,
    },
    { name: 'loopback GET balances via client', value: o.clientMs, unit: 'ms', target: 'info', pass: true },
    { name: 'loopback GET balances via raw fetch (baseline)', value: o.rawMs, unit: 'ms', target: 'info', pass: true },
    // Context for the figures above: on a shared machine they move with the load.
    {
      name: `machine load average, 1 min (${availableParallelism()} cores)`,
      value: loadavg()[0]!,
      unit: 'load',
      target: 'info',
      pass: true,
    },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await benchExchange()) {
    console.log(
      `${row.name.padEnd(66)} ${row.value.toFixed(row.unit === 'ms' ? 3 : 0).padStart(10)} ${row.unit.padEnd(6)} ${row.target.padEnd(8)} ${row.pass ? 'pass' : 'FAIL'}`,
    );
  }
}
