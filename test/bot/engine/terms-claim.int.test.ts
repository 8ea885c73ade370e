/**
 * The terms claim across replicas, on the real engine and the sandbox over real HTTP: two
 * replicas over one store each send one of two look-alike withdrawals (same entry, amount, destination);
 * a barrier holds each replica's first write after its checks until both have checked, so both
 * pass their checks together. The claim lets one be in doubt at a time; each is sent once. A
 * claim left by a finished request (its release lost) is removed by the leader's tick.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../../../src/bot/engine/engine-config.js';
import type { Repository } from '../../../src/bot/ports/store.js';
import { termsClaimKey } from '../../../src/bot/engine/execution/look-alikes.js';
import { isFinishedRequest, type RequestRecord } from '../../../src/bot/domain/record.js';
import { memoryAuditLog, memoryKv, memoryRepository, type MemoryKeyValueStore } from '../../../src/bot/store/memory.js';
import { startLeaseWorld, type LeaseWorld } from './support/lease-replicas.js';

let w: LeaseWorld;
let requests: Repository<RequestRecord>;
let kv: MemoryKeyValueStore;

async function world(seed: string): Promise<LeaseWorld> {
  requests = memoryRepository<RequestRecord>(isFinishedRequest);
  kv = memoryKv();
  w = await startLeaseWorld({ seed, stores: { requests, kv, audit: memoryAuditLog() } });
  return w;
}
afterEach(async () => {
  await w?.close();
});

const withdrawalsOf = (amount: string) => w.sandbox.control.withdrawals().filter((x) => x.amount === amount);
const inDoubt = async (amount: string) =>
  (await requests.listLive())
    .filter(
      (r) =>
        (r.state === 'executing' || r.state === 'unknown') &&
        r.snapshot.kind === 'crypto_withdrawal' &&
        r.snapshot.amount === amount,
    )
    .map((r) => r.id);

/**
 * Both replicas' first write from `approved` (a send's or a wait's) waits until both have arrived
 * (at most 2 s: a replica that never writes does not hang the test). Every write is watched: the
 * most look-alikes in doubt at once after any write.
 */
function raceGate(amount: string) {
  const arrived = new Set<string>();
  let open!: () => void;
  const barrier = new Promise<void>((resolve) => (open = resolve));
  const watch = { most: 0 };
  const wrap =
    (name: string) =>
    (inner: Repository<RequestRecord>): Repository<RequestRecord> => ({
      ...inner,
      async mutate(id, fn) {
        const current = await inner.get(id);
        if (current?.state === 'approved' && !arrived.has(name)) {
          arrived.add(name);
          if (arrived.size === 2) open();
          await Promise.race([barrier, new Promise((resolve) => setTimeout(resolve, 2_000))]);
        }
        const result = await inner.mutate(id, fn);
        watch.most = Math.max(watch.most, (await inDoubt(amount)).length);
        return result;
      },
    });
  return { wrap, watch, arrived };
}

describe('the terms claim across replicas', () => {
  it('look-alike withdrawals sent from two replicas at once, both past their checks together: never both in doubt, each sent once, the claim released', async () => {
    await world('terms-claim-race');
    const amount = '0.01240001';
    const gate = raceGate(amount);
    const a = w.replica('replica-a', { requests: gate.wrap('a') });
    const b = w.replica('replica-b', { requests: gate.wrap('b') });
    // R's execution starts on A and waits at the barrier after its checks; T's starts on B.
    const r = await w.approve(a, amount);
    const t = await w.approve(b, amount);
    await Promise.all([a.engine.idle(), b.engine.idle()]);
    expect(gate.arrived.size).toBe(2);
    expect(gate.watch.most).toBe(1);
    expect(withdrawalsOf(amount)).toHaveLength(1);
    const first = (await requests.get(r.id))!;
    const second = (await requests.get(t.id))!;
    const [sent, waiting] = first.state === 'submitted' ? [first, second] : [second, first];
    expect(sent.state).toBe('submitted');
    expect(waiting).toMatchObject({ state: 'approved', execution: { retry: { nextAt: expect.any(Number) } } });
    expect([...a.logs, ...b.logs]).toContainEqual(
      expect.objectContaining({
        message: 'waiting for a look-alike request in doubt to settle',
        data: { requestId: waiting.id, lookAlike: sent.id },
      }),
    );
    // The first is out of doubt: its claim is gone, and the look-alike goes at its next try.
    expect(await kv.get(termsClaimKey(sent))).toBeUndefined();
    await w.advance(DEFAULT_ENGINE_CONFIG.firstLookAfterMs);
    await Promise.all([a.engine.tick(), b.engine.tick()]);
    await Promise.all([a.engine.idle(), b.engine.idle()]);
    expect((await requests.get(waiting.id))!.state).toBe('submitted');
    expect(gate.watch.most).toBe(1);
    const withdrawals = withdrawalsOf(amount);
    expect(withdrawals).toHaveLength(2);
    expect(
      new Set([(await requests.get(r.id))!.execution!.exchangeId, (await requests.get(t.id))!.execution!.exchangeId]),
    ).toEqual(new Set(withdrawals.map((x) => x.id)));
    expect(await kv.get(termsClaimKey(sent))).toBeUndefined();
  });

  it("a claim left by a finished request (the release lost in a crash) is removed by the leader's tick, and the look-alike is sent once", async () => {
    await world('terms-claim-stale');
    const amount = '0.01240002';
    const leader = w.replica('replica-a');
    const follower = w.replica('replica-b', { role: 'follower' });
    const done = await w.approve(leader, amount);
    await leader.engine.idle();
    expect((await requests.get(done.id))!.state).toBe('submitted');
    // As if the process died between the outcome write and the release.
    await kv.set(termsClaimKey(done), done.id);
    const lookAlike = await w.approve(follower, amount);
    expect((await requests.get(lookAlike.id))!.state).toBe('approved');
    await follower.engine.tick();
    expect((await requests.get(lookAlike.id))!.state).toBe('approved');
    await leader.engine.tick();
    await leader.engine.idle();
    expect((await requests.get(lookAlike.id))!.state).toBe('submitted');
    expect(leader.logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: expect.stringMatching(/^removed a stale terms claim/),
        data: { key: termsClaimKey(lookAlike), holder: done.id, state: 'submitted' },
      }),
    );
    expect(withdrawalsOf(amount)).toHaveLength(2);
    expect(await kv.get(termsClaimKey(lookAlike))).toBeUndefined();
  });

  it('a claim held by a live twin not sent yet (approved, waiting for its retry) is not stale: the other waits for it', async () => {
    await world('terms-claim-live');
    const amount = '0.01240003';
    const leader = w.replica('replica-a');
    const follower = w.replica('replica-b', { role: 'follower' });
    const first = await w.approve(follower, amount);
    const second = await w.approve(follower, amount);
    // The first claimed its terms and is waiting for a retry (an unreadable check, say).
    await kv.set(termsClaimKey(first), first.id);
    await requests.mutate(first.id, (current) => ({
      result: null,
      next: {
        ...current!,
        execution: { ...current!.execution!, retry: { nextAt: w.clock.now() + 10_000, failures: 1 } },
      },
    }));
    await leader.engine.tick();
    await leader.engine.idle();
    expect(withdrawalsOf(amount)).toHaveLength(0);
    expect(await kv.get(termsClaimKey(first))).toBe(first.id);
    expect(leader.logs).toContainEqual(
      expect.objectContaining({
        message: 'waiting for a look-alike request in doubt to settle',
        data: { requestId: second.id, lookAlike: first.id },
      }),
    );
    // Once the first is due it goes (its claim held by itself), then the second, each once.
    await w.advance(Math.max(10_000, DEFAULT_ENGINE_CONFIG.firstLookAfterMs));
    await leader.engine.tick();
    await leader.engine.idle();
    expect((await requests.get(first.id))!.state).toBe('submitted');
    if ((await requests.get(second.id))!.state !== 'submitted') {
      await w.advance(DEFAULT_ENGINE_CONFIG.firstLookAfterMs);
      await leader.engine.tick();
      await leader.engine.idle();
    }
    expect((await requests.get(second.id))!.state).toBe('submitted');
    expect(withdrawalsOf(amount)).toHaveLength(2);
  });
});
