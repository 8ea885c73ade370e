// The policy's limits through the engine (in-memory stores, the fake exchange): refused with the room
// left when a request is made; checked again in the write of the approval that would complete a
// request, so requests that fit alone but not together never all go through, whatever the order.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { REQUESTER, World } from '../support/world.js';
import { cryptoInput } from '../support/requests.js';
import type { LimitInput, PolicyInput } from '../../../../src/bot/domain/policy.js';
import { add, lte } from '../../../../src/bot/domain/money.js';
import { COUNTED_STATES } from '../../../../src/bot/domain/policy/limits.js';
import type { RequestRecord } from '../../../../src/bot/domain/record.js';

const TREASURY = ['U0TREAS01', 'U0TREAS02', 'U0TREAS03'];
const RISK = ['U0RISK001', 'U0RISK002'];
const HOUR = 3_600_000;
const usdtLimit = (over: LimitInput['over'] = 'refuse'): LimitInput => ({
  name: 'daily USDT outflow',
  match: { kinds: ['crypto_withdrawal'], asset: 'USDT' },
  windowMs: 24 * HOUR,
  max: '1000',
  over,
});
const policy = (limits: LimitInput[]): Partial<PolicyInput> => ({
  approvers: undefined,
  requesters: [REQUESTER],
  groups: { treasury: TREASURY, risk: RISK },
  rules: [{ name: 'everything', require: [{ group: 'treasury', count: 2 }] }],
  limits,
});

async function make(world: World, amount: string) {
  const r = await world.engine.request(REQUESTER, cryptoInput(amount));
  if (!r.ok) throw new Error(r.message);
  return r.request;
}

describe('limits', () => {
  it('refuses a request that does not fit, with the room left', async () => {
    const world = new World({ policy: policy([usdtLimit()]) });
    const first = await make(world, '700');
    await world.engine.approve(first.id, TREASURY[0]!, first.snapshotHash);
    await world.engine.approve(first.id, TREASURY[1]!, first.snapshotHash);
    await world.engine.idle();
    const r = await world.engine.request(REQUESTER, cryptoInput('300.5'));
    expect(r).toMatchObject({
      ok: false,
      reason: 'over_limit',
      message:
        'This would go over the limit "daily USDT outflow" (1000 USDT per 24 h): 700 USDT is used, 300 USDT is left, and this request is for 300.5 USDT.',
    });
    expect(world.auditOf('request.refused').at(-1)?.data).toMatchObject({ reason: 'over_limit' });
    // Fees apart: 300 fits exactly (the fee of 1 USDT is not counted).
    expect(await world.engine.request(REQUESTER, cryptoInput('300'))).toMatchObject({ ok: true });
    // The window rolls: 24 h after the first approval its amount no longer counts.
    world.clock.advance(24 * HOUR);
    expect(await world.engine.request(REQUESTER, cryptoInput('700'))).toMatchObject({ ok: true });
  });

  it('two that fit alone but not together: the approval that would complete the second is refused, naming the limit', async () => {
    const world = new World({ policy: policy([usdtLimit()]) });
    const a = await make(world, '600');
    const b = await make(world, '600');
    await world.engine.approve(a.id, TREASURY[0]!, a.snapshotHash);
    await world.engine.approve(b.id, TREASURY[0]!, b.snapshotHash);
    expect(await world.engine.approve(a.id, TREASURY[1]!, a.snapshotHash)).toMatchObject({ ok: true, approved: true });
    expect(await world.engine.approve(b.id, TREASURY[1]!, b.snapshotHash)).toMatchObject({
      ok: false,
      reason: 'over_limit',
      message: expect.stringContaining('600 USDT is used, 400 USDT is left'),
    });
    await world.engine.idle();
    expect((await world.record(b.id)).state).toBe('pending');
    expect((await world.record(b.id)).approvals.map((x) => x.userId)).toEqual([TREASURY[0]]);
    expect(world.auditOf('approval.refused', b.id).at(-1)?.data).toMatchObject({ reason: 'over_limit' });
  });

  it('over: require asks the named group too, when made over it and when the room went since', async () => {
    const world = new World({ policy: policy([usdtLimit({ require: [{ group: 'risk', count: 1 }] })]) });
    const a = await make(world, '600');
    const b = await make(world, '600');
    expect(b.requiredApprovals).toBe(2);
    await world.engine.approve(a.id, TREASURY[0]!, a.snapshotHash);
    await world.engine.approve(a.id, TREASURY[1]!, a.snapshotHash);
    await world.engine.approve(b.id, TREASURY[0]!, b.snapshotHash);
    // B would complete with this approval, but A used the room meanwhile: risk is now needed too.
    expect(await world.engine.approve(b.id, TREASURY[1]!, b.snapshotHash)).toMatchObject({
      ok: true,
      count: 2,
      required: 3,
      approved: false,
    });
    expect((await world.record(b.id)).limitRequire).toEqual([
      { limit: 'daily USDT outflow', require: [{ group: 'risk', count: 1 }] },
    ]);
    expect(await world.engine.approve(b.id, RISK[0]!, b.snapshotHash)).toMatchObject({ ok: true, approved: true });
    // Made over it: needs risk from the start.
    const c = await make(world, '10');
    expect(c.requiredApprovals).toBe(3);
  });

  it('property: concurrent approvals in any order never take the limit past its max', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 900 }), { minLength: 2, maxLength: 5 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(2)), { minLength: 4, maxLength: 20 }),
        async (amounts, clicks) => {
          const world = new World({ policy: policy([usdtLimit()]) });
          const made: RequestRecord[] = [];
          for (const amount of amounts) {
            const r = await world.engine.request(REQUESTER, cryptoInput(String(amount)));
            if (r.ok) made.push(r.request);
          }
          // Every click at once: the store's queue decides the order, as replicas' writes would.
          await Promise.all(
            clicks.map(([i, who]) => {
              const r = made[i % Math.max(made.length, 1)];
              return r ? world.engine.approve(r.id, TREASURY[who]!, r.snapshotHash) : Promise.resolve();
            }),
          );
          await world.engine.idle();
          let counted = '0';
          for (const r of made) {
            const now = await world.record(r.id);
            if (COUNTED_STATES.includes(now.state) && now.snapshot.kind === 'crypto_withdrawal')
              counted = add(counted, now.snapshot.amount);
          }
          expect(lte(counted, '1000')).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });
});
