/**
 * Defect B: polling more withdrawals than one cycle's budget of pages can list. The list walk
 * continues next cycle where it stopped, so a full sweep costs about ceil(inFlight / pageSize)
 * pages and no single reads; single reads are only for the few the lists cannot reach; the
 * budget (the rate cap) is never exceeded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineConfigInput } from '../../../src/bot/engine/engine-config.js';
import { requestAndApprove } from './support/flow.js';
import { sandboxWorld, type SandboxForEngine } from './support/sandbox-requests.js';
import type { World } from './support/world.js';

// The sandbox through the real client: its withdrawals held at processing by its control surface,
// shorter pages by its short_pages fault; pages and single reads counted in its access log.
let sandbox: SandboxForEngine | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function onSandbox(config: EngineConfigInput): Promise<World> {
  const made = await sandboxWorld('engine-poll-sweep', { config });
  sandbox = made.sandbox;
  return made.world;
}

const gets = (pattern: RegExp) => {
  const log = sandbox!.sandbox.control.requests();
  // The log is bounded; these tests stay well inside it.
  expect(log.length).toBeLessThan(5_000);
  return log.filter((r) => r.method === 'GET' && pattern.test(r.path)).length;
};
/** List pages of crypto withdrawals served, and single withdrawal reads. */
const pages = () => gets(/\/crypto\/withdrawals$/);
const singleReads = () => gets(/\/crypto\/withdrawals\/[^/]+$/);

async function inFlight(world: World, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = await requestAndApprove(world, sandbox!.cryptoInput(String(20 + i)));
    ids.push(r.id);
    sandbox!.sandbox.control.setWithdrawalStatus(r.execution!.exchangeId!, 'processing');
  }
  return ids;
}

describe('polling more than one cycle can list', () => {
  it('continues the list walk next cycle: one sweep costs ceil(inFlight / pageSize) pages, no single reads', async () => {
    // 50 in flight, pages of 10: 5 pages to list them all; the budget allows 2 a cycle.
    const world = await onSandbox({ poll: { pageSize: 10, ratePerSecond: 2, burst: 2 } });
    const ids = await inFlight(world, 50);
    world.clock.advance(10_000);
    const pagesBefore = pages();
    const cycles: { calls: number; polled: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const summary = await world.engine.tick();
      cycles.push({ calls: summary.calls, polled: summary.polled });
      world.clock.advance(1_000);
    }
    // Never more calls in a cycle than the budget holds.
    expect(cycles.map((c) => c.calls)).toEqual([2, 2, 1]);
    expect(cycles.map((c) => c.polled)).toEqual([20, 20, 10]);
    expect(pages() - pagesBefore).toBe(5);
    expect(singleReads()).toBe(0);
    const live = await world.engine.listLive();
    expect(live.filter((r) => ids.includes(r.id) && r.remote?.status === 'processing')).toHaveLength(50);
  });

  it('keeps to the budget when the exchange serves shorter pages than asked for', async () => {
    // Pages of 10 asked, 6 served: 9 pages to list 50, never more than the 2 a second allowed.
    const world = await onSandbox({ poll: { pageSize: 10, ratePerSecond: 2, burst: 2 } });
    const ids = await inFlight(world, 50);
    sandbox!.sandbox.control.setFaults([
      { kind: 'short_pages', method: 'GET', path: '/crypto/withdrawals', pageSize: 6 },
    ]);
    world.clock.advance(10_000);
    const fetched: number[] = [];
    for (let i = 0; i < 6; i++) {
      const before = pages();
      await world.engine.tick();
      fetched.push(pages() - before);
      world.clock.advance(1_000);
    }
    // By the end of cycle k (k seconds in), at most the burst plus 2 a second, plus the one page
    // a sweep may pay for ahead of fetching it.
    let sum = 0;
    const cumulative = fetched.map((n) => (sum += n));
    cumulative.forEach((pages, k) => expect(pages).toBeLessThanOrEqual(2 + 2 * k + 1));
    expect(sum).toBe(9);
    expect(singleReads()).toBe(0);
    const live = await world.engine.listLive();
    expect(live.filter((r) => ids.includes(r.id) && r.remote?.status === 'processing')).toHaveLength(50);
  });

  it('keeps sweeping at that cost, cycle after cycle, while they stay in flight', async () => {
    const world = await onSandbox({
      poll: { pageSize: 10, ratePerSecond: 2, burst: 2, intervalMs: 5_000, backoffFactor: 1 },
    });
    await inFlight(world, 50);
    const pagesBefore = pages();
    const reads = new Map<string, number>();
    for (let s = 0; s < 30; s++) {
      world.clock.advance(1_000);
      const summary = await world.engine.tick();
      expect(summary.calls).toBeLessThanOrEqual(2);
    }
    for (const e of world.auditOf('status.changed')) reads.set(e.requestId!, (reads.get(e.requestId!) ?? 0) + 1);
    // 30 s, each withdrawal due every 5 s: about 5 sweeps of 5 pages; no withdrawal is left out.
    const swept = pages() - pagesBefore;
    expect(swept).toBeGreaterThanOrEqual(20);
    expect(swept).toBeLessThanOrEqual(30);
    expect(singleReads()).toBe(0);
    expect(reads.size).toBe(50);
  });

  it('a withdrawal the list cannot reach (outside the time window) is read on its own, and only it', async () => {
    const world = await onSandbox({ poll: { pageSize: 10, ratePerSecond: 10, burst: 10 } });
    const ids = await inFlight(world, 12);
    // The exchange dates this one far outside the window the engine lists (its clock, or a bad record).
    const lost = { id: (await world.record(ids[0]!)).execution!.exchangeId! };
    const control = sandbox!.sandbox.control;
    control.redateWithdrawal(lost.id, control.withdrawals().find((w) => w.id === lost.id)!.created_at - 3_600_000);
    world.clock.advance(10_000);
    await world.engine.tick();
    world.clock.advance(1_000);
    await world.engine.tick();
    expect(singleReads()).toBe(1);
    const live = await world.engine.listLive();
    expect(live.filter((r) => ids.includes(r.id) && r.remote?.status === 'processing')).toHaveLength(12);
    // Next time it is due it is read on its own again, without walking the whole window for it.
    const pagesBefore = pages();
    control.setWithdrawalStatus(lost.id, 'broadcasted');
    for (let s = 0; s < 16; s++) {
      world.clock.advance(1_000);
      await world.engine.tick();
    }
    expect(singleReads()).toBe(2);
    expect(pages() - pagesBefore).toBe(2);
    expect((await world.engine.listLive()).find((r) => r.execution?.exchangeId === lost.id)?.remote?.status).toBe(
      'broadcasted',
    );
  });
});
