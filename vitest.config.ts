import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import LongPolesFirst from './test/support/long-poles-first.js';

/** test/ mirrors src/ (and bench/); inside it, a test that starts a server, a database or a process is `*.int.test.ts`. */
const MIRRORED = ['test/bot', 'test/stand-ins', 'test/architecture', 'test/bench'].map((dir) => `${dir}/**/*`);
const INTEGRATION = '**/*.int.test.ts';
/**
 * The projects that reach PostgreSQL and start bundled child processes: the run's one cluster
 * starts only when one of them has tests to run, and each child's entry is bundled once per run.
 */
const SHARED = ['test/support/postgres-global.ts', 'test/support/bundles-global.ts'];

const project = (test: NonNullable<TestProjectInlineConfiguration['test']>): TestProjectInlineConfiguration => ({
  extends: true,
  test,
});

/**
 * The unit project runs first on both cores (it is CPU-bound); then integration and browser, more
 * files at once than cores because their tests mostly wait on loopback; then the faults, one file at
 * a time, as vitest's default on two cores: their timings are real (leases, hangs, kill deadlines)
 * and three at once on a loaded machine missed them.
 */
const UNIT = { sequence: { groupOrder: 0 }, maxWorkers: 2 };
const WAITING = { sequence: { groupOrder: 1 }, maxWorkers: 3 };
const REAL_TIMINGS = { sequence: { groupOrder: 2 }, maxWorkers: 1 };

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    sequence: { sequencer: LongPolesFirst },
    projects: [
      // In-process only: no listening socket, database or child process (unit-tier.ts refuses them).
      // Threads without isolation: one module graph per worker instead of one per file.
      project({
        name: 'unit',
        include: MIRRORED.map((dir) => `${dir}.test.ts`),
        exclude: [INTEGRATION],
        setupFiles: ['test/support/unit-tier.ts'],
        pool: 'threads',
        isolate: false,
        ...UNIT,
      }),
      // Real loopback servers, PostgreSQL, child processes: the mirrored *.int.test.ts and the whole product end to end.
      project({
        name: 'integration',
        include: [...MIRRORED.map((dir) => `${dir}.int.test.ts`), 'test/e2e/**/*.test.ts'],
        globalSetup: SHARED,
        ...WAITING,
      }),
      // The product under crashes, kills, cut connections and storms (child processes, real leases).
      project({ name: 'faults', include: ['test/faults/**/*.test.ts'], globalSetup: SHARED, ...REAL_TIMINGS }),
      // The local desk in Chromium.
      project({ name: 'browser', include: ['test/browser/**/*.test.ts'], ...WAITING }),
    ],
  },
});
