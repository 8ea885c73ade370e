/**
 * Every group of `npm run bench` still runs: each on tiny sizes (bench/scale.ts `smoke`), checked
 * only for running through and giving rows. No figure is judged here: figures come from
 * `npm run bench` on a quiet machine. And the runner refuses a group it does not have.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BENCH_GROUPS } from '../../bench/groups.js';
import { noBrowserReason } from '../browser/support/chromium.js';
import { noPostgresReason } from '../support/postgres-cluster.js';

const RUN = fileURLToPath(new URL('../../bench/run.ts', import.meta.url));
/** What a group needs that a machine may lack; without it the bench says so in a row instead of measuring. */
const NEEDS: Record<string, string | undefined> = {
  postgres: noPostgresReason,
  replicas: noPostgresReason,
  'local-desk': noBrowserReason,
};

describe('npm run bench -- --smoke', () => {
  for (const [group, load] of BENCH_GROUPS) {
    it.skipIf(NEEDS[group] !== undefined)(
      `${group} runs through (skipped when: ${NEEDS[group] ?? 'never here'})`,
      async () => {
        const rows = await (await load())('smoke');
        expect(rows.length).toBeGreaterThan(0);
        for (const row of rows) {
          expect(row.name).not.toMatch(/failed to run|not measured/);
          expect(typeof row.value, row.name).toBe('number');
        }
      },
      180_000,
    );
  }
});

describe('npm run bench arguments', () => {
  const bench = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', RUN, ...args], { encoding: 'utf8', timeout: 60_000 });

  it('--only with a group it does not have: a clear message naming the groups, exit 2, nothing run', () => {
    const result = bench('--only=nope');
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('npm run bench: no bench group "nope"; the groups are exchange, store, postgres');
  });

  it('an argument it does not know: the usage, exit 2', () => {
    const result = bench('--olny=store');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown argument --olny=store');
  });
});
