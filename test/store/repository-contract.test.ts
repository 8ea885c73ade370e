/**
 * What every Repository port implementation promises the engine, run against the file version
 * and the in-memory one alike, so engine tests on memory mean the same as production on files.
 */
import { describe, expect, it } from 'vitest';
import type { Repository } from '../../src/app/ports.js';
import { memoryRepository } from '../../src/store/memory.js';
import { openRepository } from '../../src/store/repository.js';
import { isFinished, rec, tempDir, testRepoOptions, type TestRecord } from './support/temp.js';

type Make = () => Promise<{ repo: Repository<TestRecord>; close: () => Promise<void> }>;

const implementations: Array<[string, Make]> = [
  [
    'file',
    async () => {
      const repo = await openRepository(testRepoOptions(tempDir()));
      return { repo, close: () => repo.close() };
    },
  ],
  ['memory', async () => ({ repo: memoryRepository<TestRecord>(isFinished), close: async () => {} })],
];

describe.each(implementations)('Repository contract: %s', (_name, make) => {
  it('serialises 100 concurrent read-modify-writes: every increment counts', async () => {
    const { repo, close } = await make();
    await repo.mutate('A', () => ({ next: rec('A'), result: null }));
    const seen = await Promise.all(
      Array.from({ length: 100 }, () => repo.mutate('A', (cur) => ({ next: { ...cur!, count: cur!.count + 1 }, result: cur!.count }))),
    );
    expect(new Set(seen).size).toBe(100);
    expect((await repo.get('A'))?.count).toBe(100);
    await close();
  });

  it('hands out copies: changing what fn got, returned or get() returned changes nothing stored', async () => {
    const { repo, close } = await make();
    const next = rec('A');
    await repo.mutate('A', () => ({ next, result: null }));
    next.count = 99;
    await repo.mutate('A', (cur) => {
      cur!.count = 42;
      return { result: null };
    });
    (await repo.get('A'))!.count = 7;
    (await repo.listLive())[0]!.count = 8;
    expect((await repo.get('A'))?.count).toBe(0);
    await close();
  });

  it('a throwing fn rejects its own call only; undefined next leaves the record as it is', async () => {
    const { repo, close } = await make();
    const bad = repo.mutate('A', () => {
      throw new Error('boom');
    });
    const good = repo.mutate('A', () => ({ next: rec('A', 'pending', 5), result: 'ok' }));
    const untouched = repo.mutate('A', (cur) => ({ result: cur?.count }));
    await expect(bad).rejects.toThrow('boom');
    await expect(good).resolves.toBe('ok');
    await expect(untouched).resolves.toBe(5);
    await close();
  });

  it('finished records leave listLive, stay readable by get, and cannot be reopened', async () => {
    const { repo, close } = await make();
    await repo.mutate('A', () => ({ next: rec('A'), result: null }));
    await repo.mutate('B', () => ({ next: rec('B'), result: null }));
    await repo.mutate('A', (cur) => ({ next: { ...cur!, state: 'completed' }, result: null }));
    expect((await repo.listLive()).map((r) => r.id)).toEqual(['B']);
    expect(await repo.get('A')).toEqual(rec('A', 'completed'));
    await expect(repo.mutate('A', (cur) => ({ next: { ...cur!, state: 'pending' }, result: null }))).rejects.toThrow(/reopen/);
    await expect(repo.mutate('B', () => ({ next: rec('C'), result: null }))).rejects.toThrow(/has id C/);
    expect(await repo.get('C')).toBeUndefined();
    await close();
  });

  it('recentHistory: newest first, bounded, each id once at its latest version', async () => {
    const { repo, close } = await make();
    for (const id of ['A', 'B', 'C', 'D']) await repo.mutate(id, () => ({ next: rec(id, 'rejected'), result: null }));
    await repo.mutate('B', (cur) => ({ next: { ...cur!, note: 'late' }, result: null }));
    expect((await repo.recentHistory(3)).map((r) => r.id)).toEqual(['B', 'D', 'C']);
    expect((await repo.recentHistory(10)).map((r) => r.id)).toEqual(['B', 'D', 'C', 'A']);
    expect((await repo.get('B'))?.note).toBe('late');
    expect(await repo.recentHistory(0)).toEqual([]);
    await close();
  });
});
