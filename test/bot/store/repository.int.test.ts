import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { StoreCorruptError, StoreFailedError } from '../../../src/bot/store/errors.js';
import { openRepository, repositoryFiles } from '../../../src/bot/store/repository.js';
import { rec, tempDir, testRepoOptions, type TestRecord } from './support/temp.js';

const liveIds = (file: string) =>
  (JSON.parse(readFileSync(file, 'utf8')) as { records: TestRecord[] }).records.map((r) => r.id);
const historyLines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TestRecord);

describe('openRepository: reading and writing', () => {
  it('stores, reads back after reopen, and resolves mutate with its result', async () => {
    const dir = tempDir();
    const repo = await openRepository(testRepoOptions(dir));
    expect(await repo.mutate('A', (cur) => ({ next: rec('A'), result: cur === undefined }))).toBe(true);
    expect(await repo.mutate('A', (cur) => ({ result: cur?.state }))).toBe('pending');
    await repo.close();
    const again = await openRepository(testRepoOptions(dir));
    expect(await again.get('A')).toEqual(rec('A'));
    expect(await again.listLive()).toEqual([rec('A')]);
    await again.close();
  });

  it('refuses a record failing the schema, another id, or reopening a finished one, writing nothing', async () => {
    const dir = tempDir();
    const files = repositoryFiles(dir, 'requests');
    const repo = await openRepository(testRepoOptions(dir));
    await repo.mutate('A', () => ({ next: rec('A', 'completed'), result: null }));
    const liveBefore = readFileSync(files.live);
    const historyBefore = readFileSync(files.history);
    await expect(
      repo.mutate('B', () => ({ next: { ...rec('B'), count: 'one' } as never, result: null })),
    ).rejects.toThrow(/refusing to store record B: .*count/);
    await expect(repo.mutate('B', () => ({ next: rec('C'), result: null }))).rejects.toThrow(/has id C/);
    await expect(repo.mutate('A', (cur) => ({ next: { ...cur!, state: 'pending' }, result: null }))).rejects.toThrow(
      /reopen/,
    );
    expect(readFileSync(files.live).equals(liveBefore)).toBe(true);
    expect(readFileSync(files.history).equals(historyBefore)).toBe(true);
    await repo.close();
  });
});

describe('openRepository: history', () => {
  it('moves a finished record out of the live file into one history line; get finds it there', async () => {
    const dir = tempDir();
    const files = repositoryFiles(dir, 'requests');
    const repo = await openRepository(testRepoOptions(dir));
    await repo.mutate('A', () => ({ next: rec('A'), result: null }));
    await repo.mutate('B', () => ({ next: rec('B'), result: null }));
    await repo.mutate('A', (cur) => ({ next: { ...cur!, state: 'completed' }, result: null }));
    expect(liveIds(files.live)).toEqual(['B']);
    expect(historyLines(files.history)).toEqual([rec('A', 'completed')]);
    expect(await repo.get('A')).toEqual(rec('A', 'completed'));
    expect((await repo.listLive()).map((r) => r.id)).toEqual(['B']);
    await repo.close();
    const again = await openRepository(testRepoOptions(dir));
    expect(await again.get('A')).toEqual(rec('A', 'completed'));
    expect(await again.mutate('A', (cur) => ({ result: cur?.state }))).toBe('completed');
    await again.close();
  });

  it('recentHistory and get read history back after a reopen (the index is rebuilt from the file)', async () => {
    const dir = tempDir();
    const repo = await openRepository(testRepoOptions(dir));
    for (const id of ['A', 'B', 'C', 'D']) await repo.mutate(id, () => ({ next: rec(id, 'rejected'), result: null }));
    await repo.mutate('B', (cur) => ({ next: { ...cur!, note: 'late' }, result: null }));
    await repo.close();
    const again = await openRepository(testRepoOptions(dir));
    expect((await again.recentHistory(2)).map((r) => [r.id, r.note])).toEqual([
      ['B', 'late'],
      ['D', undefined],
    ]);
    expect(await again.get('A')).toEqual(rec('A', 'rejected'));
    await again.close();
  });

  it('crash after the history append, before the live rewrite: history wins on open', async () => {
    const dir = tempDir();
    const files = repositoryFiles(dir, 'requests');
    const repo = await openRepository(testRepoOptions(dir));
    await repo.mutate('A', () => ({ next: rec('A', 'executing', 1), result: null }));
    await repo.mutate('B', () => ({ next: rec('B'), result: null }));
    await repo.close();
    appendFileSync(files.history, JSON.stringify(rec('A', 'completed', 2)) + '\n'); // the first half of a finish
    const warnings: string[] = [];
    const again = await openRepository(testRepoOptions(dir, (m) => warnings.push(m)));
    expect(await again.get('A')).toEqual(rec('A', 'completed', 2));
    expect(liveIds(files.live)).toEqual(['B']);
    expect(warnings.join()).toMatch(/dropped 1 record.*A/);
    await again.close();
  });

  it('a finished record found in the live file is moved to history on open', async () => {
    const dir = tempDir();
    const files = repositoryFiles(dir, 'requests');
    writeFileSync(files.history, '');
    writeFileSync(files.live, JSON.stringify({ version: 1, records: [rec('A', 'rejected'), rec('B')] }));
    const again = await openRepository(testRepoOptions(dir));
    expect(liveIds(files.live)).toEqual(['B']);
    expect(historyLines(files.history)).toEqual([rec('A', 'rejected')]);
    await again.close();
  });

  it('an incomplete last history line (append cut by a crash) is cut off, kept aside, and appends go on', async () => {
    const dir = tempDir();
    const files = repositoryFiles(dir, 'requests');
    const repo = await openRepository(testRepoOptions(dir));
    await repo.mutate('A', () => ({ next: rec('A', 'completed'), result: null }));
    await repo.mutate('B', () => ({ next: rec('B', 'executing'), result: null }));
    await repo.close();
    const torn = JSON.stringify(rec('B', 'completed')).slice(0, 20);
    appendFileSync(files.history, torn); // never acknowledged: live still has B executing
    const warnings: string[] = [];
    const again = await openRepository(testRepoOptions(dir, (m) => warnings.push(m)));
    expect(warnings.join()).toMatch(/incomplete last line of 20 bytes/);
    expect(readdirSync(dir).filter((f) => f.includes('.torn-'))).toHaveLength(1);
    expect(await again.get('B')).toEqual(rec('B', 'executing'));
    await again.mutate('B', (cur) => ({ next: { ...cur!, state: 'completed' }, result: null }));
    expect(historyLines(files.history)).toEqual([rec('A', 'completed'), rec('B', 'completed')]);
    await again.close();
  });
});

describe('openRepository: validation on load (files never touched)', () => {
  const cases: Array<[string, (files: ReturnType<typeof repositoryFiles>) => void, RegExp]> = [
    [
      'unparseable live JSON',
      (f) => writeFileSync(f.live, '{"version":1,"records":[{"id":'),
      /requests\.json: not valid JSON/,
    ],
    [
      'an unknown version',
      (f) => writeFileSync(f.live, JSON.stringify({ version: 2, records: [] })),
      /unknown version 2 \(this build reads version 1\)/,
    ],
    ['no version at all', (f) => writeFileSync(f.live, JSON.stringify({ records: [] })), /unknown version undefined/],
    [
      'a live record failing the schema',
      (f) =>
        writeFileSync(
          f.live,
          JSON.stringify({ version: 1, records: [rec('A'), { id: 'B', state: 'weird', count: 0 }] }),
        ),
      /record 1 does not match the schema: state/,
    ],
    [
      'a duplicated live id',
      (f) => writeFileSync(f.live, JSON.stringify({ version: 1, records: [rec('A'), rec('A')] })),
      /id A appears twice/,
    ],
    [
      'a history line that is not JSON',
      (f) =>
        writeFileSync(
          f.history,
          JSON.stringify(rec('A', 'completed')) + '\n{oops\n' + JSON.stringify(rec('B', 'completed')) + '\n',
        ),
      /requests\.history\.jsonl, line 2: not valid JSON/,
    ],
    [
      'a history line failing the schema',
      (f) => writeFileSync(f.history, JSON.stringify({ id: 'A', state: 'completed' }) + '\n'),
      /history\.jsonl, line 1: record does not match the schema: count/,
    ],
    ['a missing live file next to a non-empty history', (f) => rmSync(f.live), /live file is missing/],
    ['a missing history file next to a live file', (f) => rmSync(f.history), /history file is missing/],
  ];

  for (const [what, damage, message] of cases) {
    it(`refuses ${what} with StoreCorruptError and leaves every file byte for byte`, async () => {
      const dir = tempDir();
      const files = repositoryFiles(dir, 'requests');
      const repo = await openRepository(testRepoOptions(dir));
      await repo.mutate('H', () => ({ next: rec('H', 'completed'), result: null }));
      await repo.mutate('L', () => ({ next: rec('L'), result: null }));
      await repo.close();
      damage(files);
      const snapshot = () => readdirSync(dir).map((f) => [f, readFileSync(join(dir, f)).toString('base64')]);
      const before = snapshot();
      const err = await openRepository(testRepoOptions(dir)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreCorruptError);
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message).toContain(dir);
      expect(snapshot()).toEqual(before); // includes: no lock file left behind
    });
  }
});

describe('openRepository: one instance per file', () => {
  it('refuses a second open in the same process until the first is closed', async () => {
    const dir = tempDir();
    const repo = await openRepository(testRepoOptions(dir));
    await expect(openRepository(testRepoOptions(dir))).rejects.toThrow(/already open in this process/);
    await repo.close();
    const again = await openRepository(testRepoOptions(dir));
    await again.close();
  });

  it('refuses a second process while the first holds the store (a real child process)', async () => {
    const dir = tempDir();
    const repo = await openRepository(testRepoOptions(dir));
    // Not spawnSync: the child waits to see the lease renewed, and this process must keep renewing it.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./support/open-child.ts', import.meta.url)), dir],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    await new Promise((resolve) => child.on('exit', resolve));
    expect(stdout).toMatch(new RegExp(`StoreLockedError: .*held by pid ${process.pid} on .*so it is alive`));
    await repo.close();
  }, 15_000);

  it('takes over the lease of a holder that stopped renewing it (restart after a crash), and says so', async () => {
    const dir = tempDir();
    const files = repositoryFiles(dir, 'requests');
    mkdirSync(files.lock);
    writeFileSync(join(files.lock, 'owner.json'), JSON.stringify({ pid: 4242, host: 'old-host', since: 'then' }));
    const then = new Date(Date.now() - 10 * 60_000);
    utimesSync(files.lock, then, then);
    const warnings: string[] = [];
    const repo = await openRepository(testRepoOptions(dir, (m) => warnings.push(m)));
    expect(JSON.parse(readFileSync(join(files.lock, 'owner.json'), 'utf8')).pid).toBe(process.pid);
    expect(warnings.join('\n')).toMatch(/took over a lock whose holder \(pid 4242 on old-host/);
    await repo.close();
  });

  it('writes its pid into the lease and ends the lease on close', async () => {
    const dir = tempDir();
    const files = repositoryFiles(dir, 'requests');
    const repo = await openRepository(testRepoOptions(dir));
    expect(JSON.parse(readFileSync(join(files.lock, 'owner.json'), 'utf8')).pid).toBe(process.pid);
    await repo.close();
    expect(existsSync(files.lock)).toBe(false);
    await expect(repo.get('A')).rejects.toThrow(/closed/);
  });
});

describe('openRepository: failed writes', () => {
  it('a write that fails poisons the store: later writes are refused until reopened', async () => {
    const dir = tempDir();
    const files = repositoryFiles(dir, 'requests');
    const repo = await openRepository(testRepoOptions(dir));
    await repo.mutate('A', () => ({ next: rec('A'), result: null }));
    // The rename over the live file fails (a non-empty folder sits where the file was).
    rmSync(files.live);
    mkdirSync(files.live);
    writeFileSync(join(files.live, 'x'), '');
    await expect(repo.mutate('A', (c) => ({ next: { ...c!, count: 1 }, result: null }))).rejects.toBeInstanceOf(
      StoreFailedError,
    );
    rmSync(files.live, { recursive: true });
    await expect(repo.mutate('A', (c) => ({ next: { ...c!, count: 2 }, result: null }))).rejects.toThrow(
      /refuses further writes/,
    );
    await repo.close();
  });
});
