/**
 * Defect B: polling more withdrawals than one cycle's budget of pages can list. The list walk
 * continues next cycle where it stopped, so a full sweep costs about ceil(inFlight / pageSize)
 * pages and no single reads; single reads are only for the few the lists cannot reach; the
 * budget (the rate cap) is never exceeded.
 */
import { describe, expect, it } from 'vitest';
import { requestAndApprove } from './support/flow.js';
import { cryptoInput } from './support/requests.js';
import { World } from './support/world.js';

const singleReads = (world: World) => world.exchange.calls.filter((c) => c.op === 'getCryptoWithdrawal').length;

async function inFlight(world: World, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await requestAndApprove(world, cryptoInput(String(20 + i)))).id);
  for (const w of world.exchange.withdrawals) world.exchange.setWithdrawal(w.id, { status: 'processing' });
  return ids;
}

describe('polling more than one cycle can list', () => {
  it('continues the list walk next cycle: one sweep costs ceil(inFlight / pageSize) pages, no single reads', async () => {
    // 50 in flight, pages of 10: 5 pages to list them all; the budget allows 2 a cycle.
    const world = new World({ config: { poll: { pageSize: 10, ratePerSecond: 2, burst: 2 } } });
    const ids = await inFlight(world, 50);
    world.clock.advance(10_000);
    const pagesBefore = world.exchange.pages;
    const cycles: { calls: number; polled: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const summary = await world.engine.tick();
      cycles.push({ calls: summary.calls, polled: summary.polled });
      world.clock.advance(1_000);
    }
    // Never more calls in a cycle than the budget holds.
    expect(cycles.map((c) => c.calls)).toEqual([2, 2, 1]);
    expect(cycles.map((c) => c.polled)).toEqual([20, 20, 10]);
    expect(world.exchange.pages - pagesBefore).toBe(5);
    expect(singleReads(world)).toBe(0);
    const live = await world.engine.listLive();
    expect(live.filter((r) => ids.includes(r.id) && r.remote?.status === 'processing')).toHaveLength(50);
  });

  it('keeps to the budget when the exchange serves shorter pages than asked for', async () => {
    // Pages of 10 asked, 6 served: 9 pages to list 50, never more than the 2 a second allowed.
    const world = new World({ config: { poll: { pageSize: 10, ratePerSecond: 2, burst: 2 } } });
    const ids = await inFlight(world, 50);
    world.exchange.servePageSize = 6;
    world.clock.advance(10_000);
    const fetched: number[] = [];
    for (let i = 0; i < 6; i++) {
      const before = world.exchange.pages;
      await world.engine.tick();
      fetched.push(world.exchange.pages - before);
      world.clock.advance(1_000);
    }
    // By the end of cycle k (k seconds in), at most the burst plus 2 a second, plus the one page
    // a sweep may pay for ahead of fetching it.
    let sum = 0;
    const cumulative = fetched.map((n) => (sum += n));
    cumulative.forEach((pages, k) => expect(pages).toBeLessThanOrEqual(2 + 2 * k + 1));
    expect(sum).toBe(9);
    expect(singleReads(world)).toBe(0);
    const live = await world.engine.listLive();
    expect(live.filter((r) => ids.includes(r.id) && r.remote?.status === 'processing')).toHaveLength(50);
  });

  it('keeps sweeping at that cost, cycle after cycle, while they stay in flight', async () => {
    const world = new World({ config: { poll: { pageSize: 10, ratePerSecond: 2, burst: 2, intervalMs: 5_000, backoffFactor: 1 } } });
    await inFlight(world, 50);
    const pagesBefore = world.exchange.pages;
    const reads = new Map<string, number>();
    for (let s = 0; s < 30; s++) {
      world.clock.advance(1_000);
      const summary = await world.engine.tick();
      expect(summary.calls).toBeLessThanOrEqual(2);
    }
    for (const e of world.auditOf('status.changed')) reads.set(e.requestId!, (reads.get(e.requestId!) ?? 0) + 1);
    // 30 s, each withdrawal due every 5 s: about 5 sweeps of 5 pages; no withdrawal is left out.
    const pages = world.exchange.pages - pagesBefore;
    expect(pages).toBeGreaterThanOrEqual(20);
    expect(pages).toBeLessThanOrEqual(30);
    expect(singleReads(world)).toBe(0);
    expect(reads.size).toBe(50);
  });

  it('a withdrawal the list cannot reach (outside the time window) is read on its own, and only it', async () => {
    const world = new World({ config: { poll: { pageSize: 10, ratePerSecond: 10, burst: 10 } } });
    const ids = await inFlight(world, 12);
    // The exchange dates this one far outside the window the engine lists (its clock, or a bad record).
    const lost = world.exchange.withdrawals[0]!;
    world.exchange.setWithdrawal(lost.id, { created_at: lost.created_at - 3_600_000 });
    world.clock.advance(10_000);
    await world.engine.tick();
    world.clock.advance(1_000);
    await world.engine.tick();
    expect(singleReads(world)).toBe(1);
    const live = await world.engine.listLive();
    expect(live.filter((r) => ids.includes(r.id) && r.remote?.status === 'processing')).toHaveLength(12);
    // Next time it is due it is read on its own again, without walking the whole window for it.
    const pagesBefore = world.exchange.pages;
    world.exchange.setWithdrawal(lost.id, { status: 'broadcasted' });
    for (let s = 0; s < 16; s++) {
      world.clock.advance(1_000);
      await world.engine.tick();
    }
    expect(singleReads(world)).toBe(2);
    expect(world.exchange.pages - pagesBefore).toBe(2);
    expect((await world.engine.listLive()).find((r) => r.execution?.exchangeId === lost.id)?.remote?.status).toBe('broadcasted');
  });
});
