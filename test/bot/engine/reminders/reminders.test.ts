// Reminders on the injected clock: when they go out, how often, how many, and never for a decided
// request or twice across a restart; the expiry warning at 80% of the round's life.
import { describe, expect, it } from 'vitest';
import { APPROVERS, REQUESTER, World } from '../support/world.js';
import { fiatInput, tradeInput } from '../support/seeded.js';
import type { RequestRecord } from '../../../../src/bot/domain/record.js';

const MIN = 60_000;

async function requested(world: World, input = fiatInput()): Promise<RequestRecord> {
  const r = await world.engine.request(REQUESTER, input);
  if (!r.ok) throw new Error(r.message);
  await world.engine.idle();
  return r.request;
}

const reminders = (world: World, id: string) =>
  world.eventsOf('approval.reminder', id).map((e) => (e.type === 'approval.reminder' ? e.n : 0));

describe('approval reminders', () => {
  it('a withdrawal: first after 30 minutes, then at most every 30 minutes, at most three', async () => {
    const world = new World();
    const r = await requested(world);
    await world.advanceAndTick(30 * MIN - 1);
    expect(reminders(world, r.id)).toEqual([]);
    await world.advanceAndTick(1);
    expect(reminders(world, r.id)).toEqual([1]);
    for (let i = 0; i < 29; i++) await world.advanceAndTick(MIN);
    expect(reminders(world, r.id)).toEqual([1]);
    await world.advanceAndTick(MIN);
    expect(reminders(world, r.id)).toEqual([1, 2]);
    await world.advanceAndTick(30 * MIN);
    await world.advanceAndTick(30 * MIN);
    await world.advanceAndTick(5 * 60 * MIN);
    expect(reminders(world, r.id)).toEqual([1, 2, 3]);
    expect(world.auditOf('approval.reminder', r.id).map((e) => e.data)).toEqual([
      { n: 1, round: 1, awaited: [...APPROVERS] },
      { n: 2, round: 1, awaited: [...APPROVERS] },
      { n: 3, round: 1, awaited: [...APPROVERS] },
    ]);
  });

  it("a rule's remind_after and remind_every, frozen with it: a changed policy does not move a pending request's reminders", async () => {
    const treasury = ['U0TREAS01', 'U0TREAS02'];
    const ruleWith = (reminders: { remindAfterMs?: number; remindEveryMs?: number }) => ({
      approvers: undefined,
      requesters: [REQUESTER],
      groups: { treasury },
      rules: [
        {
          name: 'fiat',
          match: { kinds: ['fiat_withdrawal' as const] },
          require: [{ group: 'treasury', count: 2 }],
          ...reminders,
        },
        { name: 'everything else', require: [{ group: 'treasury', count: 2 }] },
      ],
    });
    const world = new World({ policy: ruleWith({ remindAfterMs: 10 * MIN, remindEveryMs: 20 * MIN }) });
    const r = await requested(world);
    expect(r.snapshot.rule).toMatchObject({ remindAfterMs: 10 * MIN, remindEveryMs: 20 * MIN });
    await world.restart(ruleWith({}));
    await world.advanceAndTick(10 * MIN - 1);
    expect(reminders(world, r.id)).toEqual([]);
    await world.advanceAndTick(1);
    expect(reminders(world, r.id)).toEqual([1]);
    await world.advanceAndTick(20 * MIN - 1);
    expect(reminders(world, r.id)).toEqual([1]);
    await world.advanceAndTick(1);
    expect(reminders(world, r.id)).toEqual([1, 2]);
    const later = await requested(world);
    await world.advanceAndTick(10 * MIN);
    expect(reminders(world, later.id)).toEqual([]);
    await world.advanceAndTick(20 * MIN);
    expect(reminders(world, later.id)).toEqual([1]);
  });

  it('a trade: first after 5 minutes', async () => {
    const world = new World();
    const r = await requested(world, tradeInput());
    await world.advanceAndTick(5 * MIN - 1);
    expect(reminders(world, r.id)).toEqual([]);
    await world.advanceAndTick(1);
    expect(reminders(world, r.id)).toEqual([1]);
  });

  it('a late tick sends one reminder, and the next waits a whole interval after it', async () => {
    const world = new World();
    const r = await requested(world);
    await world.advanceAndTick(100 * MIN);
    expect(reminders(world, r.id)).toEqual([1]);
    await world.advanceAndTick(29 * MIN);
    expect(reminders(world, r.id)).toEqual([1]);
    await world.advanceAndTick(MIN);
    expect(reminders(world, r.id)).toEqual([1, 2]);
  });

  it('none for a decided request: approved, rejected or cancelled', async () => {
    const world = new World();
    const approved = await requested(world);
    const rejected = await requested(world);
    const cancelled = await requested(world);
    await world.engine.approve(approved.id, 'U_A2', approved.snapshotHash);
    await world.engine.approve(approved.id, 'U_A3', approved.snapshotHash);
    await world.engine.reject(rejected.id, 'U_A2', 'not today');
    await world.engine.cancel(cancelled.id, REQUESTER);
    await world.advanceAndTick(30 * MIN);
    await world.advanceAndTick(20 * 60 * MIN);
    expect(world.eventsOf('approval.reminder')).toEqual([]);
    expect(world.eventsOf('request.expiring')).toEqual([]);
  });

  it('none for an expired request', async () => {
    const world = new World();
    const r = await requested(world, tradeInput());
    await world.advanceAndTick(15 * MIN);
    expect((await world.record(r.id)).state).toBe('expired');
    await world.advanceAndTick(5 * MIN);
    expect(reminders(world, r.id)).toEqual([]);
  });

  it('none twice after a restart: each reminder is on the record, written with its event', async () => {
    const world = new World();
    const r = await requested(world);
    await world.advanceAndTick(30 * MIN);
    expect(reminders(world, r.id)).toEqual([1]);
    expect((await world.record(r.id)).reminders).toEqual({ round: 1, sentAt: [world.clock.now()] });
    await world.restart();
    await world.advanceAndTick(1_000);
    await world.restart();
    await world.advanceAndTick(29 * MIN);
    expect(reminders(world, r.id)).toEqual([1]);
    await world.advanceAndTick(MIN);
    expect(reminders(world, r.id)).toEqual([1, 2]);
    expect(world.events.filter((e) => e.type === 'approval.reminder').map((e) => e.generation)).toEqual([0, 2]);
  });

  it('a crash right after the reminder is written: delivered after the restart, once', async () => {
    const world = new World();
    const r = await requested(world);
    world.clock.advance(30 * MIN);
    world.crashAfterWrites(1);
    await world.engine.tick().catch(() => undefined);
    expect(world.crashed).toBe(true);
    expect(reminders(world, r.id)).toEqual([]);
    await world.restart();
    await world.advanceAndTick(MIN);
    expect(reminders(world, r.id)).toEqual([1]);
    await world.advanceAndTick(MIN);
    expect(reminders(world, r.id)).toEqual([1]);
  });

  it('a write that fails sends nothing; the next tick sends it', async () => {
    const world = new World();
    const r = await requested(world);
    world.clock.advance(30 * MIN);
    const mutate = world.requests.mutate.bind(world.requests);
    world.requests.mutate = () => Promise.reject(new Error('database unreachable'));
    await world.engine.tick();
    await world.engine.idle();
    world.requests.mutate = mutate;
    expect(reminders(world, r.id)).toEqual([]);
    expect(world.logs.some((l) => l.message === 'reminders not sent this tick')).toBe(true);
    await world.advanceAndTick(1_000);
    expect(reminders(world, r.id)).toEqual([1]);
  });

  it('the approver who approved is no longer awaited; the reminders stop when nobody is', async () => {
    const world = new World({ policy: { approvers: ['U_A2', 'U_A3'], requesters: [REQUESTER] } });
    const r = await requested(world);
    await world.engine.approve(r.id, 'U_A2', r.snapshotHash);
    await world.advanceAndTick(30 * MIN);
    expect(world.auditOf('approval.reminder', r.id).map((e) => e.data)).toEqual([
      { n: 1, round: 1, awaited: ['U_A3'] },
    ]);
  });
});

describe('expiry warning', () => {
  it('at 80% of the round, once, and not for a request decided before', async () => {
    const world = new World();
    const waiting = await requested(world, tradeInput());
    const cancelled = await requested(world, tradeInput());
    await world.engine.cancel(cancelled.id, REQUESTER);
    await world.advanceAndTick(12 * MIN - 1);
    expect(world.eventsOf('request.expiring', waiting.id)).toEqual([]);
    await world.advanceAndTick(1);
    expect(world.eventsOf('request.expiring', waiting.id)).toHaveLength(1);
    await world.advanceAndTick(MIN);
    await world.restart();
    await world.advanceAndTick(MIN);
    expect(world.eventsOf('request.expiring')).toHaveLength(1);
    expect(world.auditOf('request.expiring', waiting.id)).toHaveLength(1);
  });
});
