/** Group commit: a burst of mutations shares writes, yet each stays serial, isolated and durable. */
import { describe, expect, it } from 'vitest';
import { openRepository } from '../../../src/bot/store/repository.js';
import { openKeyValueStore } from '../../../src/bot/store/kv.js';
import { rec, tempDir, testRepoOptions } from './support/temp.js';

describe('group commit', () => {
  it('commits a burst of 50 read-modify-writes in fewer writes, each counted once and on disk', async () => {
    const dir = tempDir();
    const repo = await openRepository(testRepoOptions(dir));
    await repo.mutate('A', () => ({ next: rec('A'), result: undefined }));
    const before = repo.liveWrites;
    const seen = await Promise.all(
      Array.from({ length: 50 }, () =>
        repo.mutate('A', (cur) => ({ next: { ...cur!, count: cur!.count + 1 }, result: cur!.count })),
      ),
    );
    // Serial: every mutation saw the one before it, none saw the same count.
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    const writes = repo.liveWrites - before;
    expect(writes).toBeGreaterThanOrEqual(1);
    expect(writes).toBeLessThan(50);
    await repo.close();
    const again = await openRepository(testRepoOptions(dir));
    expect((await again.get('A'))?.count).toBe(50);
    await again.close();
  });

  it('refuses one bad mutation of a group without touching the others', async () => {
    const dir = tempDir();
    const repo = await openRepository(testRepoOptions(dir));
    const results = await Promise.allSettled([
      repo.mutate('A', () => ({ next: rec('A', 'pending', 1), result: 'a' })),
      repo.mutate('B', () => ({ next: { id: 'B', state: 'nonsense' } as never, result: 'b' })),
      repo.mutate('C', () => ({ next: rec('C', 'pending', 3), result: 'c' })),
      repo.mutate('D', () => {
        throw new Error('refused by the caller');
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect((await repo.listLive()).map((r) => r.id)).toEqual(['A', 'C']);
    await repo.close();
  });

  it('moves a record finished inside a group to history, with later members seeing it there', async () => {
    const dir = tempDir();
    const repo = await openRepository(testRepoOptions(dir));
    await repo.mutate('A', () => ({ next: rec('A'), result: undefined }));
    const [, seenAfter] = await Promise.all([
      repo.mutate('A', (cur) => ({ next: { ...cur!, state: 'completed' }, result: undefined })),
      repo.mutate('A', (cur) => ({ result: cur?.state })),
    ]);
    expect(seenAfter).toBe('completed');
    expect(await repo.listLive()).toEqual([]);
    await repo.close();
    const again = await openRepository(testRepoOptions(dir));
    expect((await again.get('A'))?.state).toBe('completed');
    expect(await again.listLive()).toEqual([]);
    await again.close();
  });

  it('key-value sets that arrive together are all durable, the last one of a key winning', async () => {
    const dir = tempDir();
    const kv = await openKeyValueStore({ dir });
    await Promise.all([
      kv.set('x', 1),
      kv.set('y', { a: 1 }),
      kv.set('x', 2),
      kv.set('z', 'gone'),
      kv.set('z', undefined),
    ]);
    await kv.close();
    const again = await openKeyValueStore({ dir });
    expect([await again.get('x'), await again.get('y'), await again.get('z')]).toEqual([2, { a: 1 }, undefined]);
    await again.close();
  });
});
