/**
 * The unit tier stays in-process: test/support/unit-tier.ts (a setup file of the unit project)
 * refuses a listening socket and a child process, naming the file to rename *.int.test.ts.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';

const refused =
  /test\/architecture\/unit-tier\.test\.ts .*a unit test runs in-process; name the file \*\.int\.test\.ts/;
// The guard also fails the file after its tests for a refusal the code under test caught; these are meant.
const guard = (globalThis as { [key: symbol]: { refusals: string[] } | undefined })[
  Symbol.for('desk-bot/test/unit-tier')
];
afterEach(() => void guard?.refusals.splice(0));

describe('the unit tier', () => {
  it('is guarded in this project', () => {
    expect(guard).toBeDefined();
  });

  it('refuses a listening socket', () => {
    expect(() => createServer().listen(0, '127.0.0.1')).toThrow(refused);
  });

  it('refuses a child process, started or run to its end', () => {
    expect(() => spawn(process.execPath, ['--version'])).toThrow(refused);
    expect(() => execFileSync(process.execPath, ['--version'])).toThrow(refused);
  });
});
