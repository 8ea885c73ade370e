import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KeyValueStore } from '../../../src/bot/ports/store.js';
import { StoreCorruptError } from '../../../src/bot/store/errors.js';
import { openKeyValueStore } from '../../../src/bot/store/kv.js';
import { memoryKv } from '../../../src/bot/store/memory.js';
import { tempDir } from './support/temp.js';

describe.each([
  ['file', async () => openKeyValueStore({ dir: tempDir() })],
  ['memory', async () => Object.assign(memoryKv(), { close: async () => {} })],
] as Array<[string, () => Promise<KeyValueStore & { close(): Promise<void> }>]>)(
  'KeyValueStore contract: %s',
  (_name, make) => {
    it('sets, gets JSON copies, deletes with undefined', async () => {
      const kv = await make();
      const cursor = { after: 'abc', at: 5 };
      await kv.set('poll.orders', cursor);
      cursor.at = 6;
      const got = await kv.get<typeof cursor>('poll.orders');
      expect(got).toEqual({ after: 'abc', at: 5 });
      got!.at = 7;
      expect(await kv.get('poll.orders')).toEqual({ after: 'abc', at: 5 });
      await kv.set('poll.orders', undefined);
      expect(await kv.get('poll.orders')).toBeUndefined();
      await kv.close();
    });

    it('concurrent sets land in call order (one queue)', async () => {
      const kv = await make();
      await Promise.all(Array.from({ length: 20 }, (_, i) => kv.set('n', i)));
      expect(await kv.get('n')).toBe(19);
      await kv.close();
    });

    it('setIfAbsent: of 20 concurrent claims exactly one stores its value, the first in call order', async () => {
      const kv = await make();
      const stored = await Promise.all(Array.from({ length: 20 }, (_, i) => kv.setIfAbsent('claim', { by: i })));
      expect(stored.filter(Boolean)).toHaveLength(1);
      expect(stored[0]).toBe(true);
      expect(await kv.get('claim')).toEqual({ by: 0 });
      await kv.close();
    });

    it('setIfAbsent judges a set queued just before it, and a deleted key is free again', async () => {
      const kv = await make();
      const [, first] = await Promise.all([kv.set('k', 'set'), kv.setIfAbsent('k', 'claimed')]);
      expect(first).toBe(false);
      expect(await kv.get('k')).toBe('set');
      await kv.set('k', undefined);
      expect(await kv.setIfAbsent('k', 'claimed')).toBe(true);
      expect(await kv.get('k')).toBe('claimed');
      await kv.close();
    });
  },
);

describe('openKeyValueStore (file)', () => {
  it('keeps values across a reopen, in {version, values}', async () => {
    const dir = tempDir();
    const kv = await openKeyValueStore({ dir });
    await kv.set('a', { b: [1, 2] });
    await kv.close();
    expect(JSON.parse(readFileSync(join(dir, 'kv.json'), 'utf8'))).toEqual({
      version: 1,
      values: { a: { b: [1, 2] } },
    });
    const again = await openKeyValueStore({ dir });
    expect(await again.get('a')).toEqual({ b: [1, 2] });
    await again.close();
  });

  it.each([
    ['bad JSON', '{"version":1,'],
    ['an unknown version', JSON.stringify({ version: 9, values: {} })],
    ['values not an object', JSON.stringify({ version: 1, values: [] })],
  ])('refuses %s and leaves the file as it was', async (_what, content) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'kv.json'), content);
    await expect(openKeyValueStore({ dir })).rejects.toBeInstanceOf(StoreCorruptError);
    expect(readFileSync(join(dir, 'kv.json'), 'utf8')).toBe(content);
    // and the failed open released its lock
    writeFileSync(join(dir, 'kv.json'), JSON.stringify({ version: 1, values: {} }));
    await (await openKeyValueStore({ dir })).close();
  });

  it('prunes the keys a predicate drops, durably, judging values set just before in call order', async () => {
    const dir = tempDir();
    const kv = await openKeyValueStore({ dir });
    await Promise.all([kv.set('old:1', { at: 1 }), kv.set('old:2', { at: 2 }), kv.set('keep', { at: 3 })]);
    // Set in the same turn as the prune, before it: the new value is the one judged, and kept.
    const [, pruned] = await Promise.all([
      kv.set('old:2', { at: 99 }),
      kv.prune((key, value) => key.startsWith('old:') && (value as { at: number }).at < 50),
    ]);
    expect(pruned).toBe(1);
    await kv.close();
    const again = await openKeyValueStore({ dir });
    expect([await again.get('old:1'), await again.get('old:2'), await again.get('keep')]).toEqual([
      undefined,
      { at: 99 },
      { at: 3 },
    ]);
    await again.close();
  });

  it('one instance per file', async () => {
    const dir = tempDir();
    const kv = await openKeyValueStore({ dir });
    await expect(openKeyValueStore({ dir })).rejects.toThrow(/already open/);
    await kv.close();
  });
});
