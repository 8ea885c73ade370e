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

const refusals: string[] = [];

function refuse(what: string): never {
  const message = `${relative(process.cwd(), expect.getState().testPath ?? '')} ${what}: a unit test runs in-process; name the file *.int.test.ts (an integration test)`;
  refusals.push(message);
  throw new Error(message);
}

// Once per worker: with isolation off, this file runs again before each test file.
const PATCHED = Symbol.for('desk-bot/test/unit-tier');
const worker = globalThis as { [PATCHED]?: true };
if (!worker[PATCHED]) {
  worker[PATCHED] = true;
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
  if (refusals.length > 0) throw new Error(refusals.splice(0).join('\n'));
});
