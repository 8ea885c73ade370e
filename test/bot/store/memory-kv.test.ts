/** The in-memory key-value store the engine tests use: its compare-and-delete, like the durable stores' (contract/kv.ts). */
import { describe, expect, it } from 'vitest';
import { memoryKv } from '../../../src/bot/store/memory.js';

describe('memoryKv deleteIf', () => {
  it('deletes only the value expected (JSON, key order aside), in call order with sets; one of 10 releases deletes', async () => {
    const kv = memoryKv();
    await kv.set('claim', { by: 'R', n: 1 });
    expect(await kv.deleteIf('claim', { by: 'T', n: 1 })).toBe(false);
    expect(await kv.deleteIf('nothing', 'R')).toBe(false);
    expect(await kv.deleteIf('claim', { n: 1, by: 'R' })).toBe(true);
    expect(await kv.get('claim')).toBeUndefined();
    await kv.set('terms', 'R');
    const [, deleted] = await Promise.all([kv.set('terms', 'T'), kv.deleteIf('terms', 'R')]);
    expect(deleted).toBe(false);
    expect(await kv.get('terms')).toBe('T');
    const releases = await Promise.all(Array.from({ length: 10 }, () => kv.deleteIf('terms', 'T')));
    expect(releases.filter(Boolean)).toHaveLength(1);
    expect(await kv.setIfAbsent('terms', 'U')).toBe(true);
  });
});
