import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Low } from 'lowdb';
import { describe, expect, it } from 'vitest';
import { DurableJsonFile } from '../../../src/bot/store/durable-adapter.js';
import { replaceFileDurably, tempFileName } from '../../../src/bot/store/durable-io.js';
import { StoreCorruptError } from '../../../src/bot/store/errors.js';
import { tempDir } from './support/temp.js';

describe('DurableJsonFile (lowdb adapter)', () => {
  it('round-trips data through lowdb and leaves no temporary file behind', async () => {
    const file = join(tempDir(), 'db.json');
    const db = new Low(new DurableJsonFile<{ n: number[] }>(file), { n: [] });
    db.data.n.push(1, 2);
    await db.write();
    const again = new Low(new DurableJsonFile<{ n: number[] }>(file), { n: [] });
    await again.read();
    expect(again.data).toEqual({ n: [1, 2] });
    expect(readdirSync(join(file, '..'))).toEqual(['db.json']);
  });

  it('replaces the file by rename (a new inode), never by writing into it', async () => {
    const file = join(tempDir(), 'db.json');
    const adapter = new DurableJsonFile<{ v: number }>(file);
    await adapter.write({ v: 1 });
    const before = statSync(file).ino;
    await adapter.write({ v: 2 });
    expect(statSync(file).ino).not.toBe(before);
    expect(await adapter.read()).toEqual({ v: 2 });
  });

  it('ignores a temporary file a crash left before its rename', async () => {
    const dir = tempDir();
    const file = join(dir, 'db.json');
    const adapter = new DurableJsonFile<{ v: number }>(file);
    await adapter.write({ v: 1 });
    writeFileSync(tempFileName(file), '{"v": 2, "trunc'); // the crash: half a temp file, no rename
    expect(await adapter.read()).toEqual({ v: 1 });
    await adapter.write({ v: 3 });
    expect(await adapter.read()).toEqual({ v: 3 });
  });

  it('returns null for a missing file and throws StoreCorruptError naming the file for bad JSON', async () => {
    const dir = tempDir();
    expect(await new DurableJsonFile(join(dir, 'none.json')).read()).toBeNull();
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"version": 1, "records": [');
    const err = await new DurableJsonFile(bad).read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect((err as Error).message).toContain(bad);
    expect((err as Error).message).toContain('not valid JSON');
    writeFileSync(bad, '');
    await expect(new DurableJsonFile(bad).read()).rejects.toThrow(/the file is empty/);
  });

  it('a reader in another thread never sees a partial file during 100 rewrites', async () => {
    const file = join(tempDir(), 'big.json');
    const payload = (i: number) => JSON.stringify({ i, pad: 'x'.repeat(256 * 1024) });
    await replaceFileDurably(file, payload(0));
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const { readFileSync } = require('node:fs');
       let stop = false, reads = 0, bad = 0;
       parentPort.on('message', () => { stop = true; });
       parentPort.postMessage('ready');
       (function loop() {
         for (let k = 0; k < 20; k++) {
           try { JSON.parse(readFileSync(workerData, 'utf8')); } catch { bad++; }
           reads++;
         }
         if (stop) parentPort.postMessage({ reads, bad }); else setImmediate(loop);
       })();`,
      { eval: true, workerData: file },
    );
    const messages: unknown[] = [];
    const next = () => new Promise((resolve) => worker.once('message', resolve));
    messages.push(await next());
    for (let i = 1; i <= 100; i++) await replaceFileDurably(file, payload(i));
    const done = next();
    worker.postMessage('stop');
    const result = (await done) as { reads: number; bad: number };
    await worker.terminate();
    expect(messages[0]).toBe('ready');
    expect(result.reads).toBeGreaterThan(0);
    expect(result.bad).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).i).toBe(100);
  });
});
