/** What the key-value store (DurableKeyValueStore) promises, on files and PostgreSQL alike. */
import { afterEach, describe, expect, it } from 'vitest';
import type { Place, StoreKind } from './kinds.js';

export function kvContract(kind: StoreKind): void {
  let place: Place;
  const open = async () => {
    place = await kind.place();
    return place.kv();
  };
  afterEach(async () => {
    await place?.close();
  });

  describe(`KeyValueStore contract: ${kind.name}`, () => {
    it('sets, gets JSON copies, deletes with undefined', async () => {
      const kv = await open();
      const cursor = { after: 'abc', at: 5, deep: { list: [1, 'two', null, true] } };
      await kv.set('poll.orders', cursor);
      cursor.at = 6;
      const got = await kv.get<typeof cursor>('poll.orders');
      expect(got).toEqual({ after: 'abc', at: 5, deep: { list: [1, 'two', null, true] } });
      got!.at = 7;
      expect(await kv.get('poll.orders')).toEqual({ after: 'abc', at: 5, deep: { list: [1, 'two', null, true] } });
      await kv.set('null', null);
      expect(await kv.get('null')).toBeNull();
      await kv.set('poll.orders', undefined);
      expect(await kv.get('poll.orders')).toBeUndefined();
      expect(await kv.get('never')).toBeUndefined();
    });

    it('concurrent sets land in call order', async () => {
      const kv = await open();
      await Promise.all(Array.from({ length: 20 }, (_, i) => kv.set('n', i)));
      expect(await kv.get('n')).toBe(19);
    });

    it('keys lists the keys with a prefix', async () => {
      const kv = await open();
      for (const key of ['slack.msg.R1', 'slack.msg.R2', 'slack.form.X', 'poll']) await kv.set(key, 1);
      expect((await kv.keys('slack.msg.')).sort()).toEqual(['slack.msg.R1', 'slack.msg.R2']);
      expect((await kv.keys('')).sort()).toEqual(['poll', 'slack.form.X', 'slack.msg.R1', 'slack.msg.R2']);
      expect(await kv.keys('nothing')).toEqual([]);
    });

    it('prunes what the predicate drops, judging a value set just before it in call order', async () => {
      const kv = await open();
      await kv.set('old.1', { at: 1 });
      await kv.set('old.2', { at: 2 });
      await kv.set('keep', { at: 9 });
      const [, pruned] = await Promise.all([
        kv.set('old.2', { at: 50 }),
        kv.prune((_key, value) => (value as { at: number }).at < 10),
      ]);
      expect(pruned).toBe(2);
      expect((await kv.keys('')).sort()).toEqual(['old.2']);
      expect(await kv.get('old.2')).toEqual({ at: 50 });
      expect(await kv.prune(() => false)).toBe(0);
    });

    it('setIfAbsent stores only where nothing is, one winner among 20 at once, in call order with sets', async () => {
      const kv = await open();
      const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => kv.setIfAbsent('claim', { by: i })));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await kv.get('claim')).toEqual({ by: claims.indexOf(true) });
      const [, afterSet] = await Promise.all([kv.set('other', 1), kv.setIfAbsent('other', 2)]);
      expect(afterSet).toBe(false);
      expect(await kv.get('other')).toBe(1);
      await kv.set('claim', undefined);
      expect(await kv.setIfAbsent('claim', { by: 'again' })).toBe(true);
    });

    it('deleteIf deletes only the value expected (JSON, key order aside), in call order with sets', async () => {
      const kv = await open();
      await kv.set('claim', { by: 'R', n: 1 });
      expect(await kv.deleteIf('claim', { by: 'T', n: 1 })).toBe(false);
      expect(await kv.get('claim')).toEqual({ by: 'R', n: 1 });
      expect(await kv.deleteIf('nothing', 'R')).toBe(false);
      expect(await kv.deleteIf('claim', { n: 1, by: 'R' })).toBe(true);
      expect(await kv.get('claim')).toBeUndefined();
      // A claim taken again just before the release is judged, and stays.
      await kv.set('terms', 'R');
      const [, deleted] = await Promise.all([kv.set('terms', 'T'), kv.deleteIf('terms', 'R')]);
      expect(deleted).toBe(false);
      expect(await kv.get('terms')).toBe('T');
      // Of 10 releases of one claim at once, one deletes it.
      const releases = await Promise.all(Array.from({ length: 10 }, () => kv.deleteIf('terms', 'T')));
      expect(releases.filter(Boolean)).toHaveLength(1);
      expect(await kv.setIfAbsent('terms', 'U')).toBe(true);
    });

    it('keeps values across a close and an open', async (t) => {
      if (!kind.durable) t.skip('the memory version keeps nothing across a close');
      const kv = await open();
      await kv.set('a', { b: [1, 2] });
      await kv.close();
      const again = await place.kv();
      expect(await again.get('a')).toEqual({ b: [1, 2] });
    });
  });
}
