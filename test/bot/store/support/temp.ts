/** Temporary data folders for store tests, removed after each test. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh empty folder under the OS temp dir, removed after the current test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'store-test-'));
  made.push(dir);
  return dir;
}

export { isFinished, rec, TestRecordSchema, testRepoOptions, type TestRecord } from './records.js';
