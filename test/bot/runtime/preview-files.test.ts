/**
 * The preview's own files (stand-ins/preview/preview-files.ts): a file that cannot be read stops the start
 * naming it and the way to start over; `--fresh` erases the preview's files and nothing else, and
 * never under a run that holds the folder.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  openPreviewFiles,
  SANDBOX_FILE_NAME,
  SLACK_FILE_NAME,
  startOver,
} from '../../../src/stand-ins/preview/preview-files.js';
import { StoreCorruptError, StoreLockedError } from '../../../src/bot/store/errors.js';
import { acquireLock } from '../../../src/bot/store/lock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const folder = () => {
  const d = mkdtempSync(join(tmpdir(), 'preview-files-'));
  dirs.push(d);
  return d;
};

describe("the preview's files", () => {
  it('a first run finds nothing saved and creates the folder', () => {
    const dir = join(folder(), 'data', 'preview');
    const files = openPreviewFiles(dir);
    expect(files.sandbox).toBeUndefined();
    expect(files.slack).toBeUndefined();
    expect(existsSync(dir)).toBe(true);
  });

  it('requests without a saved sandbox (a folder an earlier build wrote) are said once, with --fresh', () => {
    const dir = folder();
    writeFileSync(join(dir, 'requests.json'), '{}');
    expect(openPreviewFiles(dir).warning).toMatch(/holds requests but no saved sandbox[\s\S]*npm start -- --fresh/);
    writeFileSync(join(dir, SANDBOX_FILE_NAME), 'x');
    expect(() => openPreviewFiles(dir)).toThrow(StoreCorruptError);
  });

  it('a sandbox file that cannot be read stops the start, naming it and --fresh', () => {
    const dir = folder();
    writeFileSync(join(dir, SANDBOX_FILE_NAME), '{"version":1,"clock":');
    expect(() => openPreviewFiles(dir)).toThrow(StoreCorruptError);
    expect(() => openPreviewFiles(dir)).toThrow(/sandbox\.json[\s\S]*npm start -- --fresh/);
  });

  it('a workspace file of another version stops the start, naming it and --fresh', () => {
    const dir = folder();
    writeFileSync(join(dir, SLACK_FILE_NAME), JSON.stringify({ version: 99, slack: {}, workspace: {} }));
    expect(() => openPreviewFiles(dir)).toThrow(/slack-workspace\.json[\s\S]*version 99[\s\S]*--fresh/);
  });

  it('--fresh erases the preview files (and the debris of an interrupted write), nothing else', async () => {
    const dir = folder();
    const preview = [
      'requests.json',
      'requests.history.jsonl',
      'kv.json',
      'audit.jsonl',
      SANDBOX_FILE_NAME,
      SLACK_FILE_NAME,
      '.sandbox.json.123.ab12cd34.tmp',
    ];
    for (const name of [...preview, 'notes.txt']) writeFileSync(join(dir, name), '{}');
    expect((await startOver(dir)).sort()).toEqual([...preview].sort());
    expect(readdirSync(dir).filter((n) => !n.startsWith('requests.lock'))).toEqual(['notes.txt']);
  });

  it('--fresh is refused while a run holds the folder', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'requests.json'), '{}');
    const lock = await acquireLock(join(dir, 'requests.lock'));
    try {
      await expect(startOver(dir)).rejects.toThrow(StoreLockedError);
      expect(existsSync(join(dir, 'requests.json'))).toBe(true);
    } finally {
      lock.release();
    }
  });
});
