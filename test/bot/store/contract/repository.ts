/**
 * What every Repository port implementation promises the engine (and the outbox written with it),
 * run against files, PostgreSQL and memory alike: engine tests on memory mean the same as
 * production on either store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestEvent } from '../../../../src/bot/ports/events.js';
import { rec } from '../support/temp.js';
import type { Place, StoreKind } from './kinds.js';

/** An event as the outbox stores it (the store keeps it as it is; only requestId matters here). */
export const ev = (requestId: string, type: string, data: Record<string, unknown> = {}) =>
  ({ type, at: 1, requestId, request: {}, ...data }) as unknown as RequestEvent;

export function repositoryContract(kind: StoreKind): void {
  let place: Place;
  const open = async () => {
    place = await kind.place();
    return place.repository();
  };
  afterEach(async () => {
    await place?.close();
  });

  describe(`Repository contract: ${kind.name}`, () => {
    it('serialises 100 concurrent read-modify-writes: every increment counts', async () => {
      const repo = await open();
      await repo.mutate('A', () => ({ next: rec('A'), result: null }));
      const seen = await Promise.all(
        Array.from({ length: 100 }, () =>
          repo.mutate('A', (cur) => ({ next: { ...cur!, count: cur!.count + 1 }, result: cur!.count })),
        ),
      );
      expect(new Set(seen).size).toBe(100);
      expect((await repo.get('A'))?.count).toBe(100);
    });

    it('mutateInScope: fn sees the other records, and 20 racing claims against a budget of 5 make exactly 5', async () => {
      const repo = await open();
      await repo.mutate('done', () => ({ next: rec('done', 'completed', 1), result: null }));
      await repo.mutate('live', () => ({ next: rec('live', 'executing', 1), result: null }));
      // Each claim is a new record: per-record locks alone would let them all read the same budget.
      const claimed = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          repo.mutateInScope({ since: 0 }, `C${i}`, (current, others) => {
            expect(current).toBeUndefined();
            expect(others.map((r) => r.id)).toEqual(expect.arrayContaining(['done', 'live']));
            const used = others.filter((r) => r.state !== 'pending').reduce((sum, r) => sum + r.count, 0);
            return used < 7 ? { next: rec(`C${i}`, 'executing', 1), result: true } : { result: false };
          }),
        ),
      );
      expect(claimed.filter(Boolean)).toHaveLength(5);
      expect((await repo.listLive()).filter((r) => r.id.startsWith('C'))).toHaveLength(5);
    });

    it('creates a new id once when 20 mutates race to create it', async () => {
      const repo = await open();
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          repo.mutate('N', (cur) => ({
            next: cur ? { ...cur, count: cur.count + 1 } : rec('N', 'pending', 1),
            result: cur === undefined,
          })),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await repo.get('N'))?.count).toBe(20);
    });

    it('hands out copies: changing what fn got, returned or get() returned changes nothing stored', async () => {
      const repo = await open();
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
    });

    it('a throwing fn rejects its own call only; undefined next leaves the record as it is', async () => {
      const repo = await open();
      const bad = repo.mutate('A', () => {
        throw new Error('boom');
      });
      const good = repo.mutate('A', () => ({ next: rec('A', 'pending', 5), result: 'ok' }));
      const untouched = repo.mutate('A', (cur) => ({ result: cur?.count }));
      await expect(bad).rejects.toThrow('boom');
      await expect(good).resolves.toBe('ok');
      await expect(untouched).resolves.toBe(5);
    });

    // The memory version trusts its callers (engine tests); the stores check every write.
    it('refuses a record failing the schema, writing nothing', async (t) => {
      if (!kind.durable) t.skip('the memory version trusts its callers (engine tests) and checks no schema');
      const repo = await open();
      await repo.mutate('A', () => ({ next: rec('A', 'pending', 1), result: null }));
      await expect(repo.mutate('A', () => ({ next: { ...rec('A'), count: 1.5 }, result: null }))).rejects.toThrow(
        /does not match the schema/,
      );
      await expect(
        repo.mutate('B', () => ({ next: { ...rec('B'), state: 'lost' } as never, result: null })),
      ).rejects.toThrow(/does not match the schema/);
      expect(await repo.get('A')).toEqual(rec('A', 'pending', 1));
      expect(await repo.get('B')).toBeUndefined();
    });

    it('finished records leave listLive, stay readable by get, and cannot be reopened', async () => {
      const repo = await open();
      await repo.mutate('A', () => ({ next: rec('A'), result: null }));
      await repo.mutate('B', () => ({ next: rec('B'), result: null }));
      await repo.mutate('A', (cur) => ({ next: { ...cur!, state: 'completed' }, result: null }));
      expect((await repo.listLive()).map((r) => r.id)).toEqual(['B']);
      expect(await repo.get('A')).toEqual(rec('A', 'completed'));
      await expect(repo.mutate('A', (cur) => ({ next: { ...cur!, state: 'pending' }, result: null }))).rejects.toThrow(
        /reopen/,
      );
      await expect(repo.mutate('B', () => ({ next: rec('C'), result: null }))).rejects.toThrow(/has id C/);
      expect(await repo.get('C')).toBeUndefined();
    });

    it('listLive keeps the order records were created in', async () => {
      const repo = await open();
      for (const id of ['C', 'A', 'B']) await repo.mutate(id, () => ({ next: rec(id), result: null }));
      await repo.mutate('C', (cur) => ({ next: { ...cur!, count: 1 }, result: null }));
      expect((await repo.listLive()).map((r) => r.id)).toEqual(['C', 'A', 'B']);
    });

    it('recentHistory: newest first, bounded, each id once at its latest version', async () => {
      const repo = await open();
      for (const id of ['A', 'B', 'C', 'D']) await repo.mutate(id, () => ({ next: rec(id, 'rejected'), result: null }));
      await repo.mutate('B', (cur) => ({ next: { ...cur!, note: 'late' }, result: null }));
      expect((await repo.recentHistory(3)).map((r) => r.id)).toEqual(['B', 'D', 'C']);
      expect((await repo.recentHistory(10)).map((r) => r.id)).toEqual(['B', 'D', 'C', 'A']);
      expect((await repo.get('B'))?.note).toBe('late');
      expect(await repo.recentHistory(0)).toEqual([]);
    });

    it('stores any text JSON can hold, as it was given', async () => {
      const repo = await open();
      const note = 'nul \u0000, quote ", backslash \\, emoji 🙂, rtl \u202e, newline \n';
      await repo.mutate('A', () => ({ next: { ...rec('A'), note }, result: null }));
      expect((await repo.get('A'))?.note).toBe(note);
    });

    it('live records, history and the history order survive a close and an open', async (t) => {
      if (!kind.durable) t.skip('the memory version keeps nothing across a close');
      const repo = await open();
      await repo.mutate('L', () => ({ next: rec('L', 'executing', 3), result: null }));
      for (const id of ['H1', 'H2']) await repo.mutate(id, () => ({ next: rec(id, 'completed'), result: null }));
      await repo.close();
      const again = await place.repository();
      expect(await again.listLive()).toEqual([rec('L', 'executing', 3)]);
      expect((await again.recentHistory(5)).map((r) => r.id)).toEqual(['H2', 'H1']);
      expect(await again.get('H1')).toEqual(rec('H1', 'completed'));
    });
  });

  describe(`Outbox contract: ${kind.name}`, () => {
    it('events of a mutation are written with it, in order, numbered; update and remove are kept', async () => {
      const repo = await open();
      await repo.mutate('A', () => ({ next: rec('A'), result: null, outbox: [ev('A', 'one'), ev('A', 'two')] }));
      await repo.outbox.append([ev('B', 'three')]);
      const pending = await repo.outbox.pending();
      expect(pending.map((e) => [e.requestId, e.event.type])).toEqual([
        ['A', 'one'],
        ['A', 'two'],
        ['B', 'three'],
      ]);
      expect(pending.map((e) => e.seq)).toEqual([1, 2, 3]);
      expect(pending[0]).toEqual({
        seq: 1,
        requestId: 'A',
        event: ev('A', 'one'),
        attempts: 0,
        nextAt: 0,
        lastError: null,
        permanent: false,
        failingSince: null,
        done: [],
      });
      await repo.outbox.update(1, {
        attempts: 2,
        done: ['message'],
        lastError: 'boom',
        failingSince: 5,
        nextAt: 9,
        permanent: true,
      });
      await repo.outbox.remove(2);
      expect(await repo.outbox.pending()).toEqual([
        expect.objectContaining({
          seq: 1,
          attempts: 2,
          done: ['message'],
          permanent: true,
          lastError: 'boom',
          failingSince: 5,
          nextAt: 9,
        }),
        expect.objectContaining({ seq: 3 }),
      ]);
      await repo.outbox.remove(1);
      await repo.outbox.remove(3);
      await repo.outbox.append([ev('C', 'four')]);
      // Numbers are never reused, even once the outbox was empty.
      expect((await repo.outbox.pending()).map((e) => e.seq)).toEqual([4]);
    });

    it('a refused mutation writes none of its events; a mutation that finishes its record keeps them', async () => {
      const repo = await open();
      await repo.mutate('A', () => ({ next: rec('A'), result: null }));
      await expect(
        repo.mutate('A', () => ({ next: { ...rec('A'), id: 'Z' }, result: null, outbox: [ev('A', 'lost')] })),
      ).rejects.toThrow();
      await repo.mutate('A', () => ({ next: rec('A', 'completed'), result: null, outbox: [ev('A', 'finished')] }));
      expect((await repo.outbox.pending()).map((e) => e.event.type)).toEqual(['finished']);
      expect(await repo.listLive()).toEqual([]);
    });

    it("one request's events stay in the order of its changes under 50 concurrent mutates and appends", async () => {
      const repo = await open();
      await repo.mutate('A', () => ({ next: rec('A'), result: null }));
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          i % 5 === 4
            ? repo.outbox.append([ev('B', 'side', { i })])
            : repo.mutate('A', (cur) => ({
                next: { ...cur!, count: cur!.count + 1 },
                result: null,
                outbox: [ev('A', 'count', { n: cur!.count + 1 })],
              })),
        ),
      );
      const counts = (await repo.outbox.pending())
        .filter((e) => e.requestId === 'A')
        .map((e) => (e.event as unknown as { n: number }).n);
      expect(counts).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    });

    it('survives a close and an open, with its numbering', async (t) => {
      if (!kind.durable) t.skip('the memory version keeps nothing across a close');
      const repo = await open();
      await repo.mutate('A', () => ({ next: rec('A'), result: null, outbox: [ev('A', 'one')] }));
      await repo.outbox.update(1, { attempts: 1, done: ['message'] });
      await repo.close();
      const again = await place.repository();
      expect(await again.outbox.pending()).toEqual([
        expect.objectContaining({
          seq: 1,
          attempts: 1,
          done: ['message'],
          event: expect.objectContaining({ type: 'one' }),
        }),
      ]);
      await again.outbox.append([ev('A', 'two')]);
      expect((await again.outbox.pending()).map((e) => e.seq)).toEqual([1, 2]);
    });
  });
}
