import { describe, expect, it } from 'vitest';
import type { RequestEvent } from '../../../src/bot/ports/events.js';
import { PATH } from './support/engine-exchange.js';
import { worldOnSandbox } from './support/world.js';
import { requestAndApprove } from './support/flow.js';
import { ADDR_OK, cryptoInput, fiatInput, tradeInput, USDT_TRON } from './support/seeded.js';
import type { World } from './support/world.js';

// The sandbox in process: withdrawals, orders and fiat withdrawals held at a status or moved on by
// its control surface (else its clock would move them), lists and reads counted as they arrive.

const statusEvents = (world: World, id: string) =>
  world.eventsOf('status.changed', id).map((e) => {
    const s = e as Extract<RequestEvent, { type: 'status.changed' }>;
    return {
      changed: s.changed,
      status: s.status,
      travelRuleStatus: s.travelRuleStatus,
      pendingReason: s.pendingReason,
      transactionHash: s.transactionHash,
    };
  });

describe('polling', () => {
  it('reports each change once, passes unknown statuses on verbatim, and stops at a final status', async () => {
    const { world, exchange } = worldOnSandbox();
    const control = exchange.sandbox.control;
    const r = await requestAndApprove(world, cryptoInput());
    const id = r.execution!.exchangeId!;
    control.setWithdrawalStatus(id, 'pending');
    await world.advanceAndTick(10_000);
    await world.advanceAndTick(15_000);
    control.holdWithdrawal(id, { travel_rule_status: 'approved', pending_reason: null });
    await world.advanceAndTick(30_000);
    await world.advanceAndTick(30_000);
    control.holdWithdrawal(id, { status: 'held_for_review' });
    await world.advanceAndTick(60_000);
    const { transaction_hash: hash, link_explorer: link } = control.setWithdrawalStatus(id, 'broadcasted');
    expect(hash).toEqual(expect.any(String));
    await world.advanceAndTick(300_000);
    control.setWithdrawalStatus(id, 'completed');
    await world.advanceAndTick(300_000);
    await world.advanceAndTick(300_000);
    expect(statusEvents(world, r.id)).toEqual([
      {
        changed: ['status', 'travelRuleStatus', 'pendingReason'],
        status: 'pending',
        travelRuleStatus: 'pending',
        pendingReason: 'travel_rule_check',
        transactionHash: null,
      },
      {
        changed: ['travelRuleStatus', 'pendingReason'],
        status: 'pending',
        travelRuleStatus: 'approved',
        pendingReason: null,
        transactionHash: null,
      },
      {
        changed: ['status'],
        status: 'held_for_review',
        travelRuleStatus: 'approved',
        pendingReason: null,
        transactionHash: null,
      },
      {
        changed: ['status', 'transactionHash', 'linkExplorer'],
        status: 'broadcasted',
        travelRuleStatus: 'approved',
        pendingReason: null,
        transactionHash: hash,
      },
      {
        changed: ['status'],
        status: 'completed',
        travelRuleStatus: 'approved',
        pendingReason: null,
        transactionHash: hash,
      },
    ]);
    expect(await world.record(r.id)).toMatchObject({ state: 'completed', remote: { linkExplorer: link } });
    expect(world.eventsOf('request.completed', r.id)).toHaveLength(1);
    expect(world.auditOf('status.changed', r.id)).toHaveLength(5);
  });

  it('never reports a change twice across a restart (persisted before notified)', async () => {
    const { world, exchange } = worldOnSandbox();
    const control = exchange.sandbox.control;
    const r = await requestAndApprove(world, cryptoInput());
    const id = r.execution!.exchangeId!;
    control.setWithdrawalStatus(id, 'processing');
    await world.advanceAndTick(10_000);
    expect(statusEvents(world, r.id).map((e) => e.status)).toEqual(['pending', 'processing']);
    await world.restart();
    await world.advanceAndTick(10_000);
    await world.advanceAndTick(10_000);
    expect(statusEvents(world, r.id).map((e) => e.status)).toEqual(['pending', 'processing']);
    control.setWithdrawalStatus(id, 'broadcasted');
    await world.advanceAndTick(60_000);
    expect(statusEvents(world, r.id).map((e) => e.status)).toEqual(['pending', 'processing', 'broadcasted']);
  });

  it('a crash between persisting a change and notifying drops that notice and never repeats it', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await requestAndApprove(world, cryptoInput());
    exchange.sandbox.control.setWithdrawalStatus(r.execution!.exchangeId!, 'processing');
    world.crashAfterWrites(1);
    world.clock.advance(10_000);
    await world.engine.tick().catch(() => undefined);
    await world.engine.idle();
    expect((await world.record(r.id)).remote?.status).toBe('processing');
    await world.restart();
    await world.advanceAndTick(10_000);
    expect(statusEvents(world, r.id).map((e) => e.status)).toEqual(['pending']);
  });

  it('batches: one list page covers many withdrawals in flight, instead of one read each', async () => {
    const { world, exchange } = worldOnSandbox({ config: { poll: { pageSize: 100, ratePerSecond: 100, burst: 100 } } });
    const sent: string[] = [];
    for (let i = 0; i < 30; i++)
      sent.push((await requestAndApprove(world, cryptoInput(String(20 + i)))).execution!.exchangeId!);
    for (const id of sent) exchange.sandbox.control.setWithdrawalStatus(id, 'processing');
    world.clock.advance(10_000);
    const before = exchange.arrivals.length;
    const summary = await world.engine.tick();
    expect(summary).toMatchObject({ polled: 30, changed: 30, calls: 1 });
    expect(exchange.arrivals.slice(before).map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /public_api/v1/crypto/withdrawals',
    ]);
  });

  it('never exceeds the rate cap: what the budget does not reach waits for the next cycle', async () => {
    const { world, exchange } = worldOnSandbox({
      config: { poll: { pageSize: 2, maxPages: 50, ratePerSecond: 1, burst: 3 } },
    });
    const sent: string[] = [];
    for (let i = 0; i < 10; i++)
      sent.push((await requestAndApprove(world, cryptoInput(String(20 + i)))).execution!.exchangeId!);
    for (const id of sent) exchange.sandbox.control.setWithdrawalStatus(id, 'processing');
    world.clock.advance(10_000);
    const first = await world.engine.tick();
    expect(first.calls).toBe(3);
    expect(first.polled).toBe(6);
    world.clock.advance(1_000);
    const second = await world.engine.tick();
    expect(second.calls).toBe(1);
    await world.advanceAndTick(2_000);
    await world.advanceAndTick(5_000);
    const live = await world.engine.listLive();
    expect(live.filter((r) => r.remote?.status === 'processing')).toHaveLength(10);
  });

  it('orders: followed through listOrders until Completed, with the result kept', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await requestAndApprove(world, tradeInput());
    const order = exchange.sandbox.control.setOrderStatus(r.execution!.exchangeId!, 'completed');
    await world.advanceAndTick(10_000);
    expect(await world.record(r.id)).toMatchObject({
      state: 'completed',
      remote: { status: order.status },
      result: { netAmount: order.net_amount, feeCurrency: order.fee_currency },
    });
    expect(String(order.status).toLowerCase()).toBe('completed');
    expect(exchange.received('GET', PATH.order)).toBe(0);
  });

  it('orders: a cancelled order fails the request with its reason; lowercase statuses are final too', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await requestAndApprove(world, tradeInput());
    exchange.sandbox.control.cancelOrder(r.execution!.exchangeId!, 'Insufficient balance');
    await world.advanceAndTick(10_000);
    expect(await world.record(r.id)).toMatchObject({
      state: 'failed',
      failure: { stage: 'final_status', exchangeMessage: 'Insufficient balance' },
    });
  });

  it('fiat: followed through the page-numbered list', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await requestAndApprove(world, fiatInput());
    exchange.sandbox.control.setFiatWithdrawalStatus(Number(r.execution!.exchangeId!), 'completed');
    await world.advanceAndTick(10_000);
    expect((await world.record(r.id)).state).toBe('completed');
  });

  it('backs off while nothing changes, and stops after the maximum age', async () => {
    const { world, exchange } = worldOnSandbox({
      config: { poll: { intervalMs: 1_000, backoffFactor: 2, maxIntervalMs: 8_000, maxAgeMs: 60_000 } },
    });
    const r = await requestAndApprove(world, cryptoInput());
    exchange.sandbox.control.setWithdrawalStatus(r.execution!.exchangeId!, 'pending');
    const reads = () => exchange.received('GET', PATH.cryptoWithdrawals);
    for (let t = 0; t < 30; t++) await world.advanceAndTick(1_000);
    // Due at +1, +3, +7, +15, +23: growing intervals, capped at 8 s.
    expect(reads()).toBe(5);
    for (let t = 0; t < 40; t++) await world.advanceAndTick(1_000);
    expect(await world.record(r.id)).toMatchObject({ state: 'submitted', pollingStoppedAt: expect.any(Number) });
    expect(world.eventsOf('polling.stopped', r.id)).toHaveLength(1);
    const after = reads();
    await world.advanceAndTick(100_000);
    expect(reads()).toBe(after);
  });

  it('a withdrawal a whole list walk does not reach is read on its own', async () => {
    // Pages of 1; a walk may read 1 page beyond its own 2 requests: 3 pages.
    const { world, exchange } = worldOnSandbox({
      config: { poll: { pageSize: 1, maxPages: 1, ratePerSecond: 10, burst: 10 } },
    });
    const a = await requestAndApprove(world, cryptoInput('20'));
    world.clock.advance(1_000);
    const b = await requestAndApprove(world, cryptoInput('21'));
    world.clock.advance(1_000);
    // Two withdrawals made outside the desk (the exchange's app), newer: the list serves them first.
    for (const amount of ['30', '31'])
      await exchange.client.createCryptoWithdrawal({
        crypto_currency_id: USDT_TRON,
        amount,
        address_book_address_id: ADDR_OK,
      });
    exchange.sandbox.control.setWithdrawalStatus(a.execution!.exchangeId!, 'processing');
    exchange.sandbox.control.setWithdrawalStatus(b.execution!.exchangeId!, 'processing');
    const pages = exchange.received('GET', PATH.cryptoWithdrawals);
    await world.advanceAndTick(10_000);
    expect(exchange.received('GET', PATH.cryptoWithdrawals) - pages).toBe(3);
    expect(exchange.received('GET', PATH.cryptoWithdrawal)).toBe(0);
    expect((await world.record(b.id)).remote?.status).toBe('processing');
    await world.advanceAndTick(1_000);
    expect(exchange.received('GET', PATH.cryptoWithdrawal)).toBe(1);
    expect((await world.record(a.id)).remote?.status).toBe('processing');
  });
});
