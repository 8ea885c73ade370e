/**
 * setupFiles of the unit project (vitest.config.ts): a unit test runs in-process, so a listening
 * socket or a child process fails it, naming the file to rename. A test that needs either is an
 * integration test: `*.int.test.ts`.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { relative } from 'node:path';
import { afterAll, expect } from 'vitest';

// Once per worker: without isolation this file runs again before each test file, and the patched
// functions keep the first run's closure, so the refusals live on the worker's global.
const GUARD = Symbol.for('desk-bot/test/unit-tier');
const worker = globalThis as { [GUARD]?: { refusals: string[] } };

if (!worker[GUARD]) {
  const guard = (worker[GUARD] = { refusals: [] as string[] });
  const refuse = (what: string): never => {
    const message = `${relative(process.cwd(), expect.getState().testPath ?? '')} ${what}: a unit test runs in-process; name the file *.int.test.ts (an integration test)`;
    guard.refusals.push(message);
    throw new Error(message);
  };
  net.Server.prototype.listen = function listen() {
    refuse('opened a listening socket');
  } as typeof net.Server.prototype.listen;
  // spawn, exec, execFile and fork all start through ChildProcess#spawn (not in the types); the *Sync ones do not.
  Object.assign(childProcess.ChildProcess.prototype, { spawn: () => refuse('started a child process') });
  for (const name of ['spawnSync', 'execSync', 'execFileSync'] as const) {
    Object.assign(childProcess, { [name]: () => refuse(`started a child process (${name})`) });
  }
  syncBuiltinESMExports();
}

// A refusal the code under test caught still fails the file.
afterAll(() => {
  const refusals = worker[GUARD]!.refusals.splice(0);
  if (refusals.length > 0) throw new Error(refusals.join('\n'));
});
