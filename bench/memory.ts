// Resident memory with 10,000 open requests on the file stores, measured in a child after full GCs against
// its own baseline. Requests come from the domain builders, written as one live file (through the engine
// would rewrite it 10,000 times: minutes, not memory).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REQUEST_STORE_NAME, REQUEST_RECORD_VERSION } from '../src/bot/domain/record-schema.js';
import { createPolicy } from '../src/bot/domain/policy.js';
import { newRequest, type RequestRecord } from '../src/bot/domain/record.js';
import { buildCryptoWithdrawal, buildFiatWithdrawal, buildTrade, type Snapshot } from '../src/bot/domain/request.js';
import { repositoryFiles } from '../src/bot/store/repository.js';
import { bundleEntry } from '../test/faults/support/child-process.js';
import type { BenchRow } from './row.js';
import { sized, type Scale } from './scale.js';

const OPEN = 10_000;
const TARGET_MB = 150;
const MB = 1024 * 1024;

export async function benchMemory(scale: Scale = 'full'): Promise<BenchRow[]> {
  const count = sized(scale, OPEN, 20);
  const dir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
  try {
    const files = repositoryFiles(dir, REQUEST_STORE_NAME);
    writeFileSync(files.live, JSON.stringify({ version: REQUEST_RECORD_VERSION, records: openRequests(count) }));
    writeFileSync(files.history, '');
    // Compiled JavaScript (what `npm start` runs, after `npm run build`), then under tsx (`npm run dev`).
    const bundle = await bundleEntry('../../../bench/memory-child.ts');
    let compiled: ChildResult;
    try {
      compiled = run([bundle.file, dir]);
    } finally {
      bundle.dispose();
    }
    const tsx = run(['--import', 'tsx', fileURLToPath(new URL('./memory-child.ts', import.meta.url)), dir]);
    const rows: BenchRow[] = [];
    for (const [how, r, held] of [
      ['node, compiled (npm start)', compiled, true],
      ['tsx (npm run dev)', tsx, false],
    ] as const) {
      const rss = r.after.rss / MB;
      // The target holds for what production runs; the tsx figure shows the loader's own cost.
      rows.push(
        {
          name: `resident memory, ${count.toLocaleString('en')} open requests loaded, ${how}`,
          value: rss,
          unit: 'MB',
          target: held ? `< ${TARGET_MB} MB` : 'info (development loader)',
          pass: r.open === count && (!held || rss < TARGET_MB),
        },
        {
          name: `  the same process before opening the stores, ${how}`,
          value: r.base.rss / MB,
          unit: 'MB',
          target: 'info (runtime + modules)',
          pass: true,
        },
      );
    }
    rows.push(
      {
        name: `JS heap used with ${count.toLocaleString('en')} open requests`,
        value: compiled.after.heapUsed / MB,
        unit: 'MB',
        target: 'info',
        pass: true,
      },
      { name: 'live file size', value: statSync(files.live).size / MB, unit: 'MB', target: 'info', pass: true },
      {
        name: 'open, validate and recover the live file',
        value: compiled.loadMs,
        unit: 'ms',
        target: 'info',
        pass: true,
      },
    );
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface ChildResult {
  open: number;
  waiting: number;
  loadMs: number;
  base: NodeJS.MemoryUsage;
  after: NodeJS.MemoryUsage;
}

function run(args: string[]): ChildResult {
  const out = execFileSync(process.execPath, ['--expose-gc', ...args], { encoding: 'utf8', timeout: 120_000 });
  return JSON.parse(out.trim().split('\n').at(-1)!) as ChildResult;
}

/** `n` open requests as the engine stores them: mostly waiting for approvals, a few with one approval. */
function openRequests(n: number): RequestRecord[] {
  const policy = createPolicy({ requesters: ['U0REQ0001'], approvers: ['U0APP0001', 'U0APP0002', 'U0APP0003'] });
  const now = Date.now();
  const out: RequestRecord[] = [];
  for (let i = 0; i < n; i++) {
    const snapshot = snapshotFor(i);
    const r = newRequest({
      id: `R${String(i).padStart(6, '0')}`,
      requester: 'U0REQ0001',
      snapshot,
      now: now - (i % 600) * 1_000,
      policy,
    });
    out.push(
      i % 3 === 0
        ? { ...r, approvals: [{ userId: 'U0APP0001', at: r.createdAt + 1_000, snapshotHash: r.snapshotHash }] }
        : r,
    );
  }
  return out;
}

function snapshotFor(i: number): Snapshot {
  const note = `OTC settlement for counterparty #${i} — desk ref ${(i * 7919).toString(36).toUpperCase()}`;
  const built =
    i % 20 < 12
      ? buildCryptoWithdrawal(
          {
            id: 104,
            asset: 'USDT',
            network: 'Tron (TRC20)',
            networkId: '8d2f6c1a-4b5e-4c3d-9a7b-1e2f3a4b5c6d',
            precision: 2,
            withdrawalFee: '1',
            minimumWithdrawal: '10',
          },
          {
            id: `7f1c2e4a-0b3d-4e5f-8a6b-${String(i % 50).padStart(12, '0')}`,
            label: `Partner wallet ${i % 50}`,
            address: `TQn9Y2khEsLJW1ChVWFMSMeRDow5Kc${String(i % 50).padStart(4, '0')}`,
            addressTag: null,
            verified: true,
            networkIds: ['8d2f6c1a-4b5e-4c3d-9a7b-1e2f3a4b5c6d'],
          },
          { amount: `${100 + i}.25`, note, purpose: 'settlement' },
        )
      : i % 20 < 17
        ? buildTrade(
            {
              symbol: 'BTC-USD',
              side: i % 2 ? 'buy' : 'sell',
              quantity: `0.${String(1 + (i % 999)).padStart(3, '0')}`,
              quantityCurrency: 'BTC',
              paymentMethod: 'user_balance',
              limit: { slippageBps: 50 },
              note,
            },
            { quoteId: `q-${i}-0b3d4e5f8a6b`, price: '65012.34', expiresAt: Date.now() + 2_500 },
          )
        : buildFiatWithdrawal(
            {
              currency: 'USD',
              fee: '25',
              minimum: '50',
              maximum: '250000',
              bankAccount: {
                id: 1001 + (i % 3),
                currency: 'USD',
                display: 'DBS Bank Ltd USD ••••4321 (Sandbox Trading Pte. Ltd.)',
              },
            },
            { amount: `${1_000 + i}`, note },
          );
  if (!built.ok) throw new Error(`memory bench set-up: ${'message' in built ? built.message : 'refused'}`);
  return built.value;
}
