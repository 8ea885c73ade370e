import { describe, expect, it, onTestFinished } from 'vitest';
import { createEngine } from '../../../src/bot/engine/engine.js';
import { createRandomIds } from '../../../src/bot/engine/ids.js';
import { FakeClock } from '../../support/fake-clock.js';
import { SequentialIds } from '../../support/sequential-ids.js';
import { createPolicy } from '../../../src/bot/domain/policy.js';
import { isFinishedRequest, type RequestRecord } from '../../../src/bot/domain/record.js';
import { memoryAuditLog, memoryKv, memoryRepository } from '../../../src/bot/store/memory.js';
import { sandboxForEngine } from './support/sandbox-requests.js';
import { requestAndApprove } from './support/flow.js';
import { cryptoInput, tradeInput } from './support/requests.js';
import { REQUESTER, World } from './support/world.js';

describe('engine edges', () => {
  it("a notifier that throws: the engine goes on; the event is kept and tried again with backoff, the request's later events wait their turn", async () => {
    const clock = new FakeClock();
    const sandbox = await sandboxForEngine('engine-misc', clock);
    onTestFinished(() => sandbox.close());
    const seen: string[] = [];
    const warnings: string[] = [];
    let down = true;
    const requests = memoryRepository<RequestRecord>(isFinishedRequest);
    const engine = createEngine({
      exchange: sandbox.exchange,
      requests,
      kv: memoryKv(),
      audit: memoryAuditLog(),
      notifier: {
        notify: async (event) => {
          if (event.type === 'approval.counted' && down) throw new Error('Slack is down');
          seen.push(event.type);
        },
      },
      clock,
      ids: new SequentialIds(),
      policy: createPolicy({ requesters: ['R'], approvers: ['A', 'B'] }),
      logger: { info: () => {}, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) },
    });
    const r = await engine.request('R', sandbox.cryptoInput());
    if (!r.ok) throw new Error('fixture');
    await engine.approve(r.request.id, 'A', r.request.snapshotHash);
    const last = await engine.approve(r.request.id, 'B', r.request.snapshotHash);
    await (last.ok && last.execution);
    await engine.idle();
    // The money moved regardless; the messages after the refused one wait for it.
    expect((await engine.get(r.request.id))?.state).toBe('submitted');
    expect(seen).toEqual(['request.created']);
    expect(warnings[0]).toBe('a message did not reach Slack; it is kept and tried again');
    expect((await requests.outbox.pending()).map((e) => e.event.type)).toEqual([
      'approval.counted',
      'approval.counted',
      'request.approved',
      'execution.started',
      'execution.submitted',
      'status.changed',
    ]);
    down = false;
    clock.advance(2_000);
    await engine.tick();
    await engine.idle();
    expect(seen).toEqual([
      'request.created',
      'approval.counted',
      'approval.counted',
      'request.approved',
      'execution.started',
      'execution.submitted',
      'status.changed',
    ]);
    expect(await requests.outbox.pending()).toEqual([]);
  });

  it('run() ticks on the engine clock until aborted', async () => {
    const world = new World();
    const res = await world.engine.request(REQUESTER, cryptoInput());
    if (!res.ok) throw new Error('fixture');
    const stop = new AbortController();
    const loop = world.engine.run(stop.signal, 60_000);
    await new Promise((r) => setTimeout(r, 5));
    expect(world.clock.sleeping).toBe(1);
    world.clock.advance(24 * 3_600_000);
    await new Promise((r) => setTimeout(r, 5));
    expect((await world.record(res.request.id)).state).toBe('expired');
    stop.abort();
    world.clock.advance(60_000);
    await loop;
  });

  it('indicativeQuote goes through the quote book: a preview supersedes an older quote, and the engine knows it', async () => {
    const world = new World();
    const res = await world.engine.request(REQUESTER, tradeInput());
    if (!res.ok) throw new Error('fixture');
    const preview = await world.engine.indicativeQuote({
      symbol: 'BTC-USD',
      side: 'buy',
      quantity: '1',
      quantityCurrency: 'BTC',
      paymentMethod: 'user_balance',
    });
    expect(preview).toMatchObject({ price: '60000', quoteId: expect.any(String) });
    await world.engine.approve(res.request.id, 'U_A2', res.request.snapshotHash);
    await world.engine.approve(res.request.id, 'U_A3', res.request.snapshotHash);
    await world.engine.idle();
    expect(world.eventsOf('trade.requoted')[0]).toMatchObject({ reason: 'superseded' });
    expect(world.exchange.calls.filter((c) => c.op === 'createOrder')).toHaveLength(1);
  });

  it('approvals that no longer meet the policy before execution (an approver removed) send nothing', async () => {
    const world = new World();
    const res = await world.engine.request(REQUESTER, cryptoInput());
    if (!res.ok) throw new Error('fixture');
    await world.engine.approve(res.request.id, 'U_A2', res.request.snapshotHash);
    world.crashAfterWrites(1);
    await world.engine.approve(res.request.id, 'U_A3', res.request.snapshotHash).catch(() => undefined);
    await world.engine.idle();
    expect((await world.record(res.request.id)).state).toBe('approved');
    // U_A3 left the approvers: their approval stops counting at once (a raised count would apply to new requests only).
    await world.restart({ approvers: ['U_A1', 'U_A2', 'U_A4'], requesters: [REQUESTER] });
    await world.engine.idle();
    expect(await world.record(res.request.id)).toMatchObject({
      state: 'failed',
      failure: { stage: 'checks', reason: expect.stringMatching(/no longer meet/) },
    });
    expect(world.exchange.commits).toHaveLength(0);
  });

  it('audits every step with who did it, in order', async () => {
    const world = new World();
    const r = await requestAndApprove(world, cryptoInput());
    world.exchange.setWithdrawal(r.execution!.exchangeId!, { status: 'completed' });
    await world.advanceAndTick(10_000);
    expect(world.audit.entries.filter((e) => e.requestId === r.id).map((e) => [e.type, e.actor])).toEqual([
      ['request.created', REQUESTER],
      ['approval.counted', 'U_A2'],
      ['approval.counted', 'U_A3'],
      ['request.approved', 'system'],
      ['execution.attempt', 'system'],
      ['lease.claimed', 'system'],
      ['exchange.answer', 'exchange'],
      ['status.changed', 'exchange'],
      ['status.changed', 'exchange'],
      ['request.completed', 'exchange'],
    ]);
    expect(world.audit.entries.every((e) => typeof e.ts === 'string')).toBe(true);
  });

  it('production ids: UUID keys and short request ids without look-alike characters', () => {
    const ids = createRandomIds();
    expect(ids.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const many = Array.from({ length: 200 }, () => ids.requestId());
    for (const id of many) expect(id).toMatch(/^R[2-9A-HJKMNP-Z]{5}$/);
    expect(new Set(many).size).toBeGreaterThan(190);
  });

  it('a bank account removal already open is not requested twice', async () => {
    const world = new World();
    expect(await world.engine.request(REQUESTER, { kind: 'bank_account_removal', bankAccountId: 102 })).toMatchObject({
      ok: true,
    });
    expect(await world.engine.request(REQUESTER, { kind: 'bank_account_removal', bankAccountId: 102 })).toMatchObject({
      ok: false,
      field: 'bank_account',
    });
  });
});
