import { describe, expect, it } from 'vitest';
import { limitFromSlippage } from '../../../src/bot/domain/request.js';
import { QUOTE_UNUSABLE_MESSAGES } from '../../../src/bot/exchange/assumptions.js';
import type { EngineExchange } from './support/engine-exchange.js';
import { requestAndApprove } from './support/flow.js';
import { tradeInput } from './support/seeded.js';
import { REQUESTER, type World, worldOnSandbox } from './support/world.js';

// The sandbox in process: BTC-USD held at a mid of 60000 (a buy quoted at 60060, its spread), quotes
// that expire and supersede by its rules, refusals and timeouts by its faults.
const setMid = (exchange: EngineExchange, price: string) =>
  exchange.sandbox.control.setPrice({ symbol: 'BTC-USD', price });
/** Prices the sandbox locked, oldest first. */
const quoted = (exchange: EngineExchange) => exchange.sandbox.control.quotes().map((q) => q.locked_price);
const orders = (exchange: EngineExchange) => exchange.sandbox.control.orders();

describe('trade execution', () => {
  it('orders on the approvers quote while it has more than the safety margin left', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await requestAndApprove(world, tradeInput());
    expect(exchange.calls('createQuote')).toBe(1);
    expect(exchange.writes()[0]!.body).toEqual({
      execution_type: 'rfq',
      order_quote_id: r.snapshot.kind === 'trade' && r.snapshot.quote.quoteId,
      client_order_id: r.execution!.attempts[0]!.key,
    });
    expect(r.state).toBe('submitted');
    // The sandbox varies the letter case of order statuses, as the reference warns.
    expect(r.remote?.status?.toLowerCase()).toBe('pending');
    expect(world.eventsOf('trade.requoted')).toHaveLength(0);
  });

  it('re-quotes a quote inside the safety margin and orders at once when within the limit', async () => {
    const { world, exchange } = worldOnSandbox();
    const res = await world.engine.request(REQUESTER, tradeInput());
    if (!res.ok) throw new Error('fixture');
    await world.engine.approve(res.request.id, 'U_A2', res.request.snapshotHash);
    world.clock.advance(2_000); // 500 ms left: not more than the margin
    setMid(exchange, '60200');
    const last = await world.engine.approve(res.request.id, 'U_A3', res.request.snapshotHash);
    await (last.ok && last.execution);
    await world.engine.idle();
    const r = await world.record(res.request.id);
    expect(r.state).toBe('submitted');
    const [approved, requoted] = quoted(exchange);
    expect([approved, requoted]).toEqual(['60060', '60260.2']);
    expect(r.execution!.attempts[0]!.quote).toMatchObject({ price: requoted });
    expect(world.eventsOf('trade.requoted', r.id)[0]).toMatchObject({
      reason: 'expiring',
      oldPrice: approved,
      newPrice: requoted,
      limitPrice: limitFromSlippage('buy', approved!, 50),
      withinLimit: true,
    });
    expect(world.events.filter((e) => e.requestId === r.id).map((e) => e.type)).toEqual([
      'request.created',
      'approval.counted',
      'approval.counted',
      'request.approved',
      'execution.started',
      'trade.requoted',
      'execution.submitted',
      'status.changed',
    ]);
    // One write took the request from pending to executing, with the order's key, before the order left.
    expect(world.auditOf('execution.attempt', r.id)[0]).toMatchObject({
      data: { quoteNote: 're-quoted: expiring', price: requoted },
    });
    // The snapshot the approvers approved is unchanged: the limit, not the price, is what they bound.
    expect(r.snapshotHash).toBe(res.request.snapshotHash);
  });

  it('an expired quote re-quoted beyond the limit executes nothing and asks for a new round', async () => {
    const { world, exchange } = worldOnSandbox();
    const res = await world.engine.request(REQUESTER, tradeInput({ limit: { price: '60100' } }));
    if (!res.ok) throw new Error('fixture');
    await world.engine.approve(res.request.id, 'U_A2', res.request.snapshotHash);
    world.clock.advance(60_000);
    setMid(exchange, '61000');
    await world.engine.approve(res.request.id, 'U_A3', res.request.snapshotHash);
    await world.engine.idle();
    const r = await world.record(res.request.id);
    expect(orders(exchange)).toHaveLength(0);
    const newPrice = quoted(exchange).at(-1)!;
    expect(newPrice).toBe('61061');
    const newLimitPrice = limitFromSlippage('buy', newPrice, 50);
    expect(r).toMatchObject({
      state: 'awaiting_reapproval',
      round: 2,
      approvals: [],
      snapshot: { quote: { price: newPrice }, limitPrice: newLimitPrice },
    });
    expect(r.snapshotHash).not.toBe(res.request.snapshotHash);
    expect(r.pastRounds[0]).toMatchObject({ round: 1, snapshotHash: res.request.snapshotHash });
    expect(world.eventsOf('trade.requoted', r.id)[0]).toMatchObject({ reason: 'expired', withinLimit: false });
    expect(world.eventsOf('trade.awaiting_reapproval', r.id)[0]).toMatchObject({
      price: newPrice,
      oldLimitPrice: '60100',
      newLimitPrice,
    });
    // The approval that completed round 1 is audited against round 1's hash, with its approvers.
    expect(world.auditOf('approval.counted', r.id).map((e) => e.data?.snapshotHash)).toEqual([
      res.request.snapshotHash,
      res.request.snapshotHash,
    ]);
    expect(world.auditOf('request.approved', r.id)[0]).toMatchObject({
      data: { approvers: ['U_A2', 'U_A3'], snapshotHash: res.request.snapshotHash },
    });
    expect(world.events.filter((e) => e.requestId === r.id).map((e) => e.type)).toEqual([
      'request.created',
      'approval.counted',
      'approval.counted',
      'request.approved',
      'trade.requoted',
      'trade.awaiting_reapproval',
    ]);

    // Old approvals and old-hash clicks do not carry over; the new round executes.
    expect(await world.engine.approve(r.id, 'U_A2', res.request.snapshotHash)).toMatchObject({
      ok: false,
      reason: 'stale_snapshot',
    });
    await world.engine.approve(r.id, 'U_A2', r.snapshotHash);
    const last = await world.engine.approve(r.id, 'U_A3', r.snapshotHash);
    await (last.ok && last.execution);
    const done = await world.record(r.id);
    expect(done.state).toBe('submitted');
    expect(orders(exchange)).toHaveLength(1);
  });

  it('awaiting re-approval can be cancelled by the requester, and expires like a pending request', async () => {
    const { world, exchange } = worldOnSandbox();
    // Limits at the quoted price exactly: any rise is beyond them.
    const res = await world.engine.request(REQUESTER, tradeInput({ limit: { price: '60060' } }));
    if (!res.ok) throw new Error('fixture');
    world.clock.advance(10_000);
    setMid(exchange, '60001');
    await requestApprovals(world, res.request.id, res.request.snapshotHash);
    expect((await world.record(res.request.id)).state).toBe('awaiting_reapproval');
    await world.advanceAndTick(15 * 60_000);
    expect((await world.record(res.request.id)).state).toBe('expired');

    const other = await world.engine.request(REQUESTER, tradeInput({ limit: { price: '60061.01' } }));
    if (!other.ok) throw new Error('fixture');
    world.clock.advance(10_000);
    setMid(exchange, '60002');
    await requestApprovals(world, other.request.id, other.request.snapshotHash);
    expect(await world.engine.cancel(other.request.id, 'U_A2')).toMatchObject({ ok: false, reason: 'not_requester' });
    expect(await world.engine.cancel(other.request.id, REQUESTER)).toMatchObject({
      ok: true,
      request: { state: 'cancelled' },
    });
    expect(orders(exchange)).toHaveLength(0);
  });

  it('an order refused for an unusable quote re-quotes, at most three times, then fails with the reason', async () => {
    const { world, exchange } = worldOnSandbox();
    const unusable = { kind: 'error' as const, status: 422, message: QUOTE_UNUSABLE_MESSAGES.superseded };
    exchange.fail('createOrder', unusable, unusable, unusable, unusable);
    const r = await requestAndApprove(world, tradeInput());
    expect(r).toMatchObject({
      state: 'failed',
      failure: { stage: 'quote', exchangeMessage: QUOTE_UNUSABLE_MESSAGES.superseded },
    });
    expect(r.execution!.attempts).toHaveLength(4);
    expect(new Set(r.execution!.attempts.map((a) => a.key)).size).toBe(4);
    expect(exchange.calls('createQuote')).toBe(4);
    expect(world.eventsOf('trade.requoted', r.id).map((e) => e.type === 'trade.requoted' && e.reason)).toEqual([
      'unusable',
      'unusable',
      'unusable',
    ]);
  });

  it('an unusable quote once, then an order on the re-quote', async () => {
    const { world, exchange } = worldOnSandbox();
    exchange.fail('createOrder', { kind: 'error', status: 422, message: QUOTE_UNUSABLE_MESSAGES.expired });
    const r = await requestAndApprove(world, tradeInput());
    expect(r.state).toBe('submitted');
    expect(r.execution!.unusableRequotes).toBe(1);
    expect(orders(exchange)).toHaveLength(1);
  });

  it('never holds two live quotes on one key: a newer quote supersedes, and the engine re-quotes instead of ordering on a dead one', async () => {
    const { world, exchange } = worldOnSandbox();
    const a = await world.engine.request(REQUESTER, tradeInput());
    const b = await world.engine.request(REQUESTER, tradeInput({ side: 'sell', limit: { slippageBps: 50 } }));
    if (!a.ok || !b.ok) throw new Error('fixture');
    // a's quote is superseded by b's (same pair, amount and payment method) although not expired.
    await requestApprovals(world, a.request.id, a.request.snapshotHash);
    const r = await world.record(a.request.id);
    expect(r.state).toBe('submitted');
    expect(world.eventsOf('trade.requoted', r.id)[0]).toMatchObject({ reason: 'superseded' });
    expect(exchange.calls('createOrder')).toBe(1);
  });

  it('quoting and ordering on one key are serialised: concurrent executions never kill each other', async () => {
    const { world, exchange } = worldOnSandbox();
    const inputs = [tradeInput(), tradeInput(), tradeInput({ side: 'sell' })];
    const created = [];
    for (const input of inputs) {
      const res = await world.engine.request(REQUESTER, input);
      if (!res.ok) throw new Error('fixture');
      await world.engine.approve(res.request.id, 'U_A2', res.request.snapshotHash);
      created.push(res.request);
    }
    await Promise.all(created.map((c) => world.engine.approve(c.id, 'U_A3', c.snapshotHash)));
    await world.engine.idle();
    for (const c of created) expect((await world.record(c.id)).state).toBe('submitted');
    expect(orders(exchange)).toHaveLength(3);
    // No order was refused: each was sent on the newest quote of its key.
    expect(exchange.calls('createOrder')).toBe(3);
  });

  it('a re-quote that times out leaves the trade approved, and the next tick quotes again and orders', async () => {
    const { world, exchange } = worldOnSandbox({ config: { checkRetryMs: 1_000 } });
    const res = await world.engine.request(REQUESTER, tradeInput());
    if (!res.ok) throw new Error('fixture');
    world.clock.advance(60_000);
    exchange.fail('createQuote', { kind: 'hang' });
    await requestApprovals(world, res.request.id, res.request.snapshotHash);
    expect((await world.record(res.request.id)).state).toBe('approved');
    await world.advanceAndTick(1_000);
    expect((await world.record(res.request.id)).state).toBe('submitted');
    expect(orders(exchange)).toHaveLength(1);
  });

  it('a quote the exchange refuses fails the trade with its message', async () => {
    const { world, exchange } = worldOnSandbox();
    const res = await world.engine.request(REQUESTER, tradeInput());
    if (!res.ok) throw new Error('fixture');
    world.clock.advance(60_000);
    exchange.fail('createQuote', { kind: 'error', status: 422, message: 'Risk assessment required' });
    await requestApprovals(world, res.request.id, res.request.snapshotHash);
    expect(await world.record(res.request.id)).toMatchObject({
      state: 'failed',
      failure: { stage: 'quote', exchangeMessage: 'Risk assessment required' },
    });
  });
});

async function requestApprovals(world: World, id: string, hash: string): Promise<void> {
  await world.engine.approve(id, 'U_A2', hash);
  await world.engine.approve(id, 'U_A3', hash);
  await world.engine.idle();
}

describe('a re-quote at the edge of the approved limit (decimal strings, no rounding either way)', () => {
  // The sandbox quotes a buy at mid + 10 bps and a sell at mid - 10 bps: mid 61000 locks 61061 / 60939.
  const EDGES = [
    { side: 'buy', atMid: '60000', limit: '61061', ordered: true },
    { side: 'buy', atMid: '60000', limit: '61060.99999999', ordered: false },
    { side: 'sell', atMid: '62000', limit: '60939', ordered: true },
    { side: 'sell', atMid: '62000', limit: '60939.00000001', ordered: false },
  ] as const;
  for (const e of EDGES)
    it(`${e.side}, re-quoted at 61061/60939 against a limit of ${e.limit}: ${e.ordered ? 'ordered' : 'nothing ordered, approved again'}`, async () => {
      const { world, exchange } = worldOnSandbox();
      setMid(exchange, e.atMid);
      const res = await world.engine.request(REQUESTER, tradeInput({ side: e.side, limit: { price: e.limit } }));
      if (!res.ok) throw new Error(`fixture: ${res.message}`);
      await world.engine.approve(res.request.id, 'U_A2', res.request.snapshotHash);
      world.clock.advance(60_000);
      setMid(exchange, '61000');
      await world.engine.approve(res.request.id, 'U_A3', res.request.snapshotHash);
      await world.engine.idle();
      const r = await world.record(res.request.id);
      expect(quoted(exchange).at(-1)).toBe(e.side === 'buy' ? '61061' : '60939');
      if (e.ordered) {
        expect(r.state).toBe('submitted');
        expect(orders(exchange)).toHaveLength(1);
      } else {
        expect(r).toMatchObject({ state: 'awaiting_reapproval', round: 2 });
        expect(orders(exchange)).toHaveLength(0);
      }
    });
});
