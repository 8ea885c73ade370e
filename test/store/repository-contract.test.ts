/**
 * What every Repository port implementation promises the engine, run against the file version
 * and the in-memory one alike, so engine tests on memory mean the same as production on files.
 */
import { describe, expect, it } from 'vitest';
import type { DeskEvent, Repository } from '../../src/app/ports.js';
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

/** An event as the outbox stores it (the store keeps it as it is; only requestId matters here). */
const ev = (requestId: string, type: string) => ({ type, at: 1, requestId, request: {} }) as unknown as DeskEvent;

describe.each(implementations)('Outbox contract: %s', (_name, make) => {
  it('events of a mutation are written with it, in order, numbered; update and remove are kept', async () => {
    const { repo, close } = await make();
    await repo.mutate('A', () => ({ next: rec('A'), result: null, outbox: [ev('A', 'one'), ev('A', 'two')] }));
    await repo.outbox.append([ev('B', 'three')]);
    const pending = await repo.outbox.pending();
    expect(pending.map((e) => [e.requestId, e.event.type])).toEqual([['A', 'one'], ['A', 'two'], ['B', 'three']]);
    expect(pending.map((e) => e.seq)).toEqual([1, 2, 3]);
    await repo.outbox.update(1, { attempts: 2, done: ['message'], lastError: 'boom', failingSince: 5, nextAt: 9, permanent: true });
    await repo.outbox.remove(2);
    expect(await repo.outbox.pending()).toEqual([
      expect.objectContaining({ seq: 1, attempts: 2, done: ['message'], permanent: true }),
      expect.objectContaining({ seq: 3 }),
    ]);
    await repo.outbox.remove(1);
    await repo.outbox.remove(3);
    await repo.outbox.append([ev('C', 'four')]);
    // Numbers are never reused, even once the outbox was empty.
    expect((await repo.outbox.pending()).map((e) => e.seq)).toEqual([4]);
    await close();
  });

  it('a refused mutation writes none of its events; a mutation that finishes its record keeps them', async () => {
    const { repo, close } = await make();
    await repo.mutate('A', () => ({ next: rec('A'), result: null }));
    await expect(repo.mutate('A', () => ({ next: { ...rec('A'), id: 'Z' }, result: null, outbox: [ev('A', 'lost')] }))).rejects.toThrow();
    await repo.mutate('A', () => ({ next: rec('A', 'completed'), result: null, outbox: [ev('A', 'finished')] }));
    expect((await repo.outbox.pending()).map((e) => e.event.type)).toEqual(['finished']);
    expect(await repo.listLive()).toEqual([]);
    await close();
  });
});

describe('Outbox on files', () => {
  it('survives a reopen, with its numbering', async () => {
    const dir = tempDir();
    const repo = await openRepository(testRepoOptions(dir));
    await repo.mutate('A', () => ({ next: rec('A'), result: null, outbox: [ev('A', 'one')] }));
    await repo.outbox.update(1, { attempts: 1, done: ['message'] });
    await repo.close();
    const again = await openRepository(testRepoOptions(dir));
    expect(await again.outbox.pending()).toEqual([expect.objectContaining({ seq: 1, attempts: 1, done: ['message'], event: expect.objectContaining({ type: 'one' }) })]);
    await again.outbox.append([ev('A', 'two')]);
    expect((await again.outbox.pending()).map((e) => e.seq)).toEqual([1, 2]);
    await again.close();
  });
});
