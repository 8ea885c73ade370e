/**
 * vitest globalSetup: one folder for the run's child-process bundles (bundleEntry in
 * test/faults/support/child-process.ts), so each entry is bundled once per run instead of once per
 * file (the bot's bundle takes seconds). Workers find it in TEST_BUNDLES_DIR; removed after the run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const BUNDLES_DIR_ENV = 'TEST_BUNDLES_DIR';

// Each project loads this file on its own; the run's one folder lives on the main process.
const SHARED = Symbol.for('desk-bot/test/bundles');
type Shared = { projects: number; dir: string };
const run = globalThis as { [SHARED]?: Shared };

export default function setup(): () => void {
  const shared = (run[SHARED] ??= { projects: 0, dir: mkdtempSync(join(tmpdir(), 'test-bundles-')) });
  shared.projects += 1;
  process.env[BUNDLES_DIR_ENV] = shared.dir;
  return () => {
    shared.projects -= 1;
    if (shared.projects > 0) return;
    delete run[SHARED];
    delete process.env[BUNDLES_DIR_ENV];
    rmSync(shared.dir, { recursive: true, force: true });
  };
}
