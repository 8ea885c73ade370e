// A persisted transition with 100, 10,000 and 100,000 finished requests in history, plus an audit append;
// the three interleaved so disk noise falls on all alike. Alone: `npx tsx bench/store.ts`.
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { openAuditLog } from '../src/bot/store/audit-log.js';
import { openRepository, repositoryFiles, type DurableRepository } from '../src/bot/store/repository.js';
import type { Repository } from '../src/bot/ports/store.js';
import { percentile, type BenchRow } from './row.js';
import { sized, type Scale } from './scale.js';

const SIZES = [100, 10_000, 100_000] as const;
const SMOKE_SIZES = [10, 20, 30] as const;
const LIVE = 5;
export const CYCLES = 300; // request lifecycles per size, 6 transitions each: 1,800 samples, so a p99 is not two stray fsyncs
export const WARMUP = 5;
/** Lifecycles measured and warm-up lifecycles at `scale` (the PostgreSQL bench runs the same). */
export const cyclesAt = (scale: Scale) => ({ cycles: sized(scale, CYCLES, 2), warmup: sized(scale, WARMUP, 1) });
const TARGET_MS = 5;
const MAX_RATIO = 1.5;

const STATES = ['pending', 'approved', 'executing', 'submitted', 'completed', 'failed', 'rejected'] as const;
export const FINAL = new Set<string>(['completed', 'failed', 'rejected']);

/** A realistic crypto withdrawal request, about 1 KB of JSON once approved and submitted. */
export const BenchRequestSchema = z.object({
  id: z.string(),
  kind: z.literal('crypto_withdrawal'),
  state: z.enum(STATES),
  requester: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  expiresAt: z.string(),
  snapshot: z.object({
    currency: z.string(),
    network: z.string(),
    amount: z.string(),
    fee: z.string(),
    address: z.string(),
    addressLabel: z.string(),
    memo: z.string().nullable(),
  }),
  snapshotHash: z.string(),
  approvals: z.array(z.object({ user: z.string(), at: z.string(), snapshotHash: z.string() })),
  execution: z
    .object({
      idempotencyKey: z.string(),
      attemptedAt: z.string(),
      exchangeId: z.string().nullable(),
      status: z.string().nullable(),
      txHash: z.string().nullable(),
    })
    .nullable(),
  slack: z.object({ channel: z.string(), ts: z.string() }),
  reason: z.string().nullable(),
});
export type BenchRequest = z.infer<typeof BenchRequestSchema>;

const HASH = 'c4ad19f4b68fc8b0f311ea5d63baffc39dbfe8c0c7475032b1d4454a8a4d3859';
const AT = '2025-06-01T10:00:00.000Z';

export function request(id: string, state: BenchRequest['state']): BenchRequest {
  const approved = state !== 'pending';
  const executed = ['executing', 'submitted', 'completed', 'failed'].includes(state);
  return {
    id,
    kind: 'crypto_withdrawal',
    state,
    requester: 'U01REQUESTER',
    createdAt: AT,
    updatedAt: AT,
    expiresAt: '2025-06-02T10:00:00.000Z',
    snapshot: {
      currency: 'USDC',
      network: 'ethereum',
      amount: '125000.000000',
      fee: '2.500000',
      address: '0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063',
      addressLabel: 'Treasury cold wallet (Fireblocks vault 3)',
      memo: null,
    },
    snapshotHash: HASH,
    approvals: approved
      ? [
          { user: 'U02APPROVERA', at: AT, snapshotHash: HASH },
          { user: 'U03APPROVERB', at: AT, snapshotHash: HASH },
        ]
      : [],
    execution: executed
      ? {
          idempotencyKey: '0b6c1f0e-8d0a-4d8e-9a53-6f1c7e2f4b11',
          attemptedAt: AT,
          exchangeId: 'wd_01HZX8R5Q3',
          status: state,
          txHash: state === 'completed' ? `0x${HASH}` : null,
        }
      : null,
    slack: { channel: 'C0TREASURY', ts: '1717236000.000100' },
    reason: null,
  };
}

/** The lifecycle a request goes through: six persisted transitions, the last one to history. */
const LIFECYCLE: Array<BenchRequest['state']> = [
  'pending',
  'pending',
  'approved',
  'executing',
  'submitted',
  'completed',
];

/** Writes `count` finished requests straight into the history file, in big chunks. */
function seedHistory(file: string, count: number): void {
  const fd = openSync(file, 'w', 0o600);
  try {
    const template = JSON.stringify(request('HXXXXXXX', 'completed'));
    for (let start = 0; start < count; start += 10_000) {
      const lines: string[] = [];
      for (let i = start; i < Math.min(count, start + 10_000); i++)
        lines.push(template.replace('HXXXXXXX', `H${String(i).padStart(7, '0')}`));
      writeSync(fd, lines.join('\n') + '\n');
    }
    // Flushed now, in setup: otherwise ext4 writes these 100 MB back during the measured fsyncs.
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

async function setUp(size: number): Promise<{ dir: string; repo: DurableRepository<BenchRequest>; openMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), `bench-store-${size}-`));
  const files = repositoryFiles(dir, 'requests');
  seedHistory(files.history, size);
  const live = Array.from({ length: LIVE }, (_, i) => request(`L${i}`, i % 2 ? 'submitted' : 'pending'));
  writeFileSync(files.live, JSON.stringify({ version: 1, records: live }));
  const started = performance.now();
  const repo = await openRepository({
    dir,
    name: 'requests',
    schema: BenchRequestSchema,
    isFinished: (r) => FINAL.has(r.state),
    version: 1,
  });
  return { dir, repo, openMs: performance.now() - started };
}

/** Runs one request through its lifecycle, returning the time of each persisted transition. */
export async function lifecycle(repo: Repository<BenchRequest>, id: string): Promise<number[]> {
  const times: number[] = [];
  for (const state of LIFECYCLE) {
    const started = performance.now();
    await repo.mutate(id, (current) => ({
      next: { ...(current ?? request(id, state)), ...request(id, state) },
      result: undefined,
    }));
    times.push(performance.now() - started);
  }
  return times;
}

async function benchTransitions(scale: Scale): Promise<BenchRow[]> {
  const { cycles, warmup } = cyclesAt(scale);
  const setups = [];
  for (const size of scale === 'full' ? SIZES : SMOKE_SIZES)
    setups.push({ size, ...(await setUp(size)), samples: [] as number[] });
  try {
    for (let cycle = 0; cycle < warmup + cycles; cycle++) {
      for (const s of setups) {
        const times = await lifecycle(s.repo, `B${cycle}`);
        if (cycle >= warmup) s.samples.push(...times);
      }
    }
    const rows: BenchRow[] = [];
    for (const s of setups) {
      const value = percentile(s.samples, 0.99);
      rows.push({
        name: `persisted transition p99, ${s.size.toLocaleString('en')} finished behind`,
        value,
        unit: 'ms',
        target: `< ${TARGET_MS} ms`,
        pass: value < TARGET_MS,
      });
    }
    const ratio = rows[2]!.value / rows[0]!.value;
    rows.push({
      name: 'transition p99 at 100,000 / at 100',
      value: ratio,
      unit: 'x',
      target: `<= ${MAX_RATIO}`,
      pass: ratio <= MAX_RATIO,
    });
    const biggest = setups[2]!;
    rows.push({
      name: 'open with 100,000 finished (stream, validate, index)',
      value: biggest.openMs,
      unit: 'ms',
      target: '< 10000 ms',
      pass: biggest.openMs < 10_000,
    });
    return rows;
  } finally {
    for (const s of setups) {
      await s.repo.close();
      rmSync(s.dir, { recursive: true, force: true });
    }
  }
}

async function benchAudit(scale: Scale): Promise<BenchRow> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-audit-'));
  try {
    const log = await openAuditLog({
      file: join(dir, 'audit.jsonl'),
      clock: { now: () => Date.now() },
      redact: ['ab'.repeat(32), 'xoxb-0000000000-benchtoken'],
    });
    const samples: number[] = [];
    for (let i = 0; i < sized(scale, 500, 25); i++) {
      const started = performance.now();
      await log.append({
        type: 'approval.counted',
        actor: 'U02APPROVERA',
        requestId: `R${i}`,
        data: { approvals: 2, required: 2, snapshotHash: HASH },
      });
      if (i >= 20) samples.push(performance.now() - started);
    }
    await log.close();
    const value = percentile(samples, 0.99);
    return {
      name: 'audit append p99 (fdatasync each)',
      value,
      unit: 'ms',
      target: `< ${TARGET_MS} ms`,
      pass: value < TARGET_MS,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchStore(scale: Scale = 'full'): Promise<BenchRow[]> {
  return [...(await benchTransitions(scale)), await benchAudit(scale)];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchStore();
  for (const r of rows)
    console.log(`${r.pass ? 'pass' : 'FAIL'}  ${r.name}: ${r.value.toFixed(3)} ${r.unit} (target ${r.target})`);
  process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
}
