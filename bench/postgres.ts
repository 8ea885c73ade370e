// A persisted transition on PostgreSQL (fsync on, 10,000 finished in history), the file store bench's
// lifecycle, over loopback TCP with the bot's pool settings. Alone: `npx tsx bench/postgres.ts`.
import { pathToFileURL } from 'node:url';
import { openDatabase } from '../src/bot/store/postgres/database.js';
import { openPgRepository } from '../src/bot/store/postgres/repository.js';
import { noPostgresReason, startPostgres } from '../test/support/postgres-cluster.js';
import { BenchRequestSchema, cyclesAt, FINAL, lifecycle, request } from './store.js';
import { sized, type Scale } from './scale.js';
import { percentile, type BenchRow } from './row.js';

const HISTORY = 10_000;
const LIVE = 5;
const TARGET_MS = 10;
const NAME = `transition p99 on PostgreSQL (fsync on, ${HISTORY.toLocaleString('en')} finished behind)`;

export async function benchPostgres(scale: Scale = 'full'): Promise<BenchRow[]> {
  const { cycles, warmup } = cyclesAt(scale);
  if (noPostgresReason)
    return [
      { name: NAME, value: Number.NaN, unit: 'ms', target: `< ${TARGET_MS} ms; ${noPostgresReason}`, pass: false },
    ];
  const cluster = await startPostgres({ fsync: true });
  try {
    const db = await openDatabase({ url: await cluster.createDatabase('bench'), warn: () => {} });
    try {
      const repo = await openPgRepository(db, {
        name: 'requests',
        schema: BenchRequestSchema,
        isFinished: (r) => FINAL.has(r.state),
        version: 1,
      });
      await db.pool.query(
        `INSERT INTO records (store, id, body, finished_seq)
         SELECT 'requests', 'H' || lpad(i::text, 7, '0'), replace($1, 'HXXXXXXX', 'H' || lpad(i::text, 7, '0'))::json, nextval('records_finished_seq')
         FROM generate_series(1, $2) AS i`,
        [JSON.stringify(request('HXXXXXXX', 'completed')), sized(scale, HISTORY, 20)],
      );
      for (let i = 0; i < LIVE; i++)
        await repo.mutate(`L${i}`, () => ({
          next: request(`L${i}`, i % 2 ? 'submitted' : 'pending'),
          result: undefined,
        }));
      await db.pool.query('VACUUM ANALYZE records');
      const samples: number[] = [];
      for (let cycle = 0; cycle < warmup + cycles; cycle++) {
        const times = await lifecycle(repo, `B${cycle}`);
        if (cycle >= warmup) samples.push(...times);
      }
      await repo.close();
      const value = percentile(samples, 0.99);
      return [{ name: NAME, value, unit: 'ms', target: `< ${TARGET_MS} ms`, pass: value < TARGET_MS }];
    } finally {
      await db.close();
    }
  } finally {
    await cluster.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchPostgres();
  for (const r of rows)
    console.log(`${r.pass ? 'pass' : 'FAIL'}  ${r.name}: ${r.value.toFixed(3)} ${r.unit} (target ${r.target})`);
  process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
}
