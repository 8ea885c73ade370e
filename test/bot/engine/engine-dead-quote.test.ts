/**
 * Defect A: a trade whose process died after persisting `executing` (with the order's
 * client_order_id) but before the order left. On restart the order is nowhere, and the quote it
 * was to use has expired. A definitive "no" for the key (the exchange's refusal of a resend, or
 * the quote dead past the clock-skew margin with no order found) must lead to the normal re-quote
 * (the same key), never to waiting 24 h; any other refusal to a person once the settle window closed.
 */
import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../../src/bot/domain/record.js';
import type { EngineExchange, Scripted } from './support/engine-exchange.js';
import { worldOnSandbox } from './support/world.js';
import { tradeInput } from './support/seeded.js';
import type { World } from './support/world.js';

// The sandbox in process: its quotes expire by its clock and an order on a dead one is refused by its
// own rule; a read that fails is its error fault, picked as the request arrives.
const SKEW_MS = 60_000;
const readFails: Scripted = { kind: 'error', status: 502 };

/** Request and approve a trade; the process dies right after persisting `executing`, before the order leaves. */
async function diedBeforeTheOrderLeft(
  world: World,
  exchange: EngineExchange,
  input = tradeInput(),
): Promise<RequestRecord> {
  const res = await world.engine.request('U_REQ', input);
  if (!res.ok) throw new Error('fixture');
  await world.engine.approve(res.request.id, 'U_A2', res.request.snapshotHash);
  // The last approval writes approved, then the runner writes executing (with the key): die right after that.
  world.crashAfterWrites(2);
  await world.engine.approve(res.request.id, 'U_A3', res.request.snapshotHash).catch(() => undefined);
  await world.engine.idle();
  const stuck = await world.record(res.request.id);
  expect(world.crashed).toBe(true);
  expect(stuck.state).toBe('executing');
  expect(exchange.calls('createOrder')).toBe(0);
  return stuck;
}

/** The read right after each order call fails (the look that checks a refusal), every other read works. */
function failTheLookAfterEachOrder(exchange: EngineExchange): void {
  let lastWasOrder = false;
  exchange.script = (a): Scripted | undefined => {
    if (a.method === 'POST' && a.path.endsWith('/orders')) lastWasOrder = true;
    else if (a.method === 'GET' && lastWasOrder) {
      lastWasOrder = false;
      return readFails;
    }
    return undefined;
  };
}

const orderCalls = (exchange: EngineExchange) => exchange.calls('createOrder');
const orders = (exchange: EngineExchange) => exchange.sandbox.control.orders();

describe('a dead quote after a crash before the order left', () => {
  it('the refusal of a resend is settled even when the look after it cannot read the exchange: re-quoted, the same client order id, one order', async () => {
    const { world, exchange } = worldOnSandbox({ config: { clockSkewMs: SKEW_MS } });
    const stuck = await diedBeforeTheOrderLeft(world, exchange);
    const firstKey = stuck.execution!.attempts[0]!.key;
    failTheLookAfterEachOrder(exchange);
    world.clock.advance(5_000); // past the settle time; the 2.5 s quote is expired, but within the skew margin
    await world.restart();
    await world.engine.idle();
    for (let i = 0; i < 3; i++) await world.advanceAndTick(10_000);
    const done = await world.record(stuck.id);
    expect(done.state).toBe('submitted');
    expect(orders(exchange)).toHaveLength(1);
    const order = orders(exchange)[0]!;
    // The first send's outcome was unknown: its client_order_id stays, so a late first order would make the exchange refuse this one.
    expect(order.client_order_id).toBe(firstKey);
    expect(done.execution!.exchangeId).toBe(String(order.id));
    // The first key was sent once more (the resend, refused: quote unusable), then on the new quote.
    const keys = done.execution!.attempts.map((a) => a.key);
    expect(keys).toEqual([firstKey, firstKey, firstKey]);
    expect(done.execution!.attempts.map((a) => a.outcome)).toEqual(['unknown', 'quote_unusable', 'submitted']);
    expect(done.execution!.unusableRequotes).toBe(1);
    expect(world.eventsOf('trade.requoted', stuck.id)[0]).toMatchObject({ reason: 'unusable' });
  });

  it('another 4xx refusing a resend is not a "failed": the earlier order may still appear, so it is looked for, and a person asked once the settle window closed', async () => {
    const { world, exchange } = worldOnSandbox({ config: { clockSkewMs: SKEW_MS } });
    const stuck = await diedBeforeTheOrderLeft(world, exchange);
    failTheLookAfterEachOrder(exchange);
    exchange.fail('createOrder', { kind: 'error', status: 422, message: 'Insufficient balance' });
    world.clock.advance(5_000);
    await world.restart();
    await world.engine.idle();
    for (let i = 0; i < 3; i++) await world.advanceAndTick(10_000);
    const waiting = await world.record(stuck.id);
    expect(waiting).toMatchObject({ state: 'unknown', execution: { inDoubt: { question: null } } });
    expect(waiting.execution!.attempts.at(-1)).toMatchObject({ outcome: 'refused', message: 'Insufficient balance' });
    for (let i = 0; i < 24; i++) await world.advanceAndTick(30_000);
    const asked = await world.record(stuck.id);
    expect(asked).toMatchObject({
      state: 'unknown',
      execution: { inDoubt: { question: { kind: 'not_found', candidates: [] } } },
    });
    expect(orderCalls(exchange)).toBe(1);
    expect(orders(exchange)).toHaveLength(0);
  });

  it('once the quote is dead past the clock-skew margin and no order carries the key, it re-quotes without resending', async () => {
    const { world, exchange } = worldOnSandbox({ config: { clockSkewMs: SKEW_MS } });
    const stuck = await diedBeforeTheOrderLeft(world, exchange);
    const firstKey = stuck.execution!.attempts[0]!.key;
    const quote = stuck.execution!.attempts[0]!.quote!;
    world.clock.advance(quote.expiresAt + SKEW_MS + 1 - world.clock.now());
    await world.restart();
    await world.engine.idle();
    const done = await world.record(stuck.id);
    expect(done.state).toBe('submitted');
    // The dead quote was never sent again: one order call on a new quote, with the same client order id.
    expect(orderCalls(exchange)).toBe(1);
    expect(orders(exchange)[0]!.client_order_id).toBe(firstKey);
    expect(done.execution!.attempts.map((a) => a.outcome)).toEqual(['unknown', 'submitted']);
    expect(done.execution!.attempts[1]!.quote!.quoteId).not.toBe(quote.quoteId);
    expect(world.auditOf('execution.reconciled', stuck.id).at(-1)).toMatchObject({
      data: { found: false, action: 'requote' },
    });
  });

  it('sends of the key exhausted: waits within the skew margin, re-quotes once the quote is dead (not after 24 h)', async () => {
    const { world, exchange } = worldOnSandbox({
      config: { clockSkewMs: SKEW_MS, maxSendsPerKey: 1, unreadableLookIntervalMs: 10_000 },
    });
    const stuck = await diedBeforeTheOrderLeft(world, exchange);
    const quote = stuck.execution!.attempts[0]!.quote!;
    await world.restart();
    await world.engine.idle();
    // Up to the margin's end nothing is sent: the exchange's clock may still call the quote valid.
    while (world.clock.now() + 10_000 <= quote.expiresAt + SKEW_MS) await world.advanceAndTick(10_000);
    expect((await world.record(stuck.id)).state).toBe('unknown');
    expect(orderCalls(exchange)).toBe(0);
    await world.advanceAndTick(10_000);
    const done = await world.record(stuck.id);
    expect(done.state).toBe('submitted');
    expect(orderCalls(exchange)).toBe(1);
    expect(orders(exchange)[0]!.client_order_id).toBe(stuck.execution!.attempts[0]!.key);
  });

  it('the dead quote re-quoted beyond the limit: nothing ordered, no new approval round while the first order may still appear; back in doubt, looked for by its client order id', async () => {
    const { world, exchange } = worldOnSandbox({ config: { clockSkewMs: SKEW_MS } });
    const stuck = await diedBeforeTheOrderLeft(world, exchange, tradeInput({ limit: { price: '60100' } }));
    exchange.sandbox.control.setPrice({ symbol: 'BTC-USD', price: '61000' });
    world.clock.advance(SKEW_MS + 10_000);
    await world.restart();
    await world.engine.idle();
    const done = await world.record(stuck.id);
    // The bot cannot know the order never left: a round rejected or expired would end a request whose order may fill.
    expect(done).toMatchObject({ state: 'unknown', round: 1 });
    expect(world.auditOf('execution.back_in_doubt', stuck.id).at(-1)).toMatchObject({
      data: { instead: 'reapproval', clientOrderId: stuck.execution!.attempts[0]!.key },
    });
    expect(orderCalls(exchange)).toBe(0);
  });

  it('a crash right after the re-quote decision was persisted resumes it: one order, the same client order id', async () => {
    const { world, exchange } = worldOnSandbox({ config: { clockSkewMs: SKEW_MS } });
    const stuck = await diedBeforeTheOrderLeft(world, exchange);
    const firstKey = stuck.execution!.attempts[0]!.key;
    await world.restart(); // recovery: executing -> unknown; the quote is still within the margin
    await world.engine.idle();
    expect((await world.record(stuck.id)).state).toBe('unknown');
    // The next writes claim the lease for the look, then settle the dead quote; die right after that.
    world.crashAfterWrites(2);
    world.clock.advance(SKEW_MS + 10_000);
    await world.engine.tick().catch(() => undefined);
    await world.engine.idle();
    expect(world.crashed).toBe(true);
    expect(orderCalls(exchange)).toBe(0);
    const settling = await world.record(stuck.id);
    expect(settling.state).toBe('approved');
    expect(settling.execution!.attempts.map((a) => a.outcome)).toEqual(['unknown']);
    await world.restart();
    await world.engine.idle();
    const done = await world.record(stuck.id);
    expect(done.state).toBe('submitted');
    expect(orderCalls(exchange)).toBe(1);
    expect(orders(exchange)[0]!.client_order_id).toBe(firstKey);
  });
});

describe('a resend answered "this client order id is taken" (the reference shows no status for it)', () => {
  for (const status of [409, 422])
    it(`${status}: never "failed", never a second order; looked for, then a person asked once the window closed`, async () => {
      const { world, exchange } = worldOnSandbox({ config: { clockSkewMs: SKEW_MS } });
      const stuck = await diedBeforeTheOrderLeft(world, exchange);
      exchange.fail('createOrder', {
        kind: 'error',
        status,
        message: 'client_order_id has already been taken',
      });
      world.clock.advance(1_000);
      await world.restart();
      await world.engine.idle();
      for (let i = 0; i < 3; i++) await world.advanceAndTick(10_000);
      const looking = await world.record(stuck.id);
      expect(looking).toMatchObject({ state: 'unknown', execution: { inDoubt: { question: null } } });
      for (let i = 0; i < 24; i++) await world.advanceAndTick(30_000);
      const asked = await world.record(stuck.id);
      expect(asked).toMatchObject({ state: 'unknown', execution: { inDoubt: { question: { kind: 'not_found' } } } });
      expect(orderCalls(exchange)).toBe(1);
      expect(orders(exchange)).toHaveLength(0);
    });
});
