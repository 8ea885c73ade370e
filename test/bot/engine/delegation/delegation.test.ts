// Delegation through the engine: a delegate's click counts in the approver's place for the
// period, once, never on their own request; set and end are audited; the store is the shared one.
import { describe, expect, it } from 'vitest';
import { delegationKey } from '../../../../src/bot/engine/delegation/delegations.js';
import { REQUESTER, World } from '../support/world.js';
import { fiatInput } from '../support/seeded.js';
import type { RequestRecord } from '../../../../src/bot/domain/record.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const DELEGATE = 'U_DEL';

function world(): World {
  return new World({ policy: { requesters: [REQUESTER, 'U_A1', DELEGATE] } });
}

async function requested(w: World, by = REQUESTER): Promise<RequestRecord> {
  const r = await w.engine.request(by, fiatInput());
  if (!r.ok) throw new Error(r.message);
  return r.request;
}

describe('a delegate approves in the approver’s place', () => {
  it('counts for the approver, shown as such, audited; the approver and their delegate count once', async () => {
    const w = world();
    expect((await w.engine.delegations.set('U_A2', DELEGATE, w.clock.now() + 7 * DAY)).ok).toBe(true);
    expect(await w.kv.get(delegationKey('U_A2'))).toMatchObject({ approver: 'U_A2', delegate: DELEGATE });
    const r = await requested(w);
    const first = await w.engine.approve(r.id, DELEGATE, r.snapshotHash);
    expect(first).toMatchObject({ ok: true, count: 1, approved: false });
    expect((await w.record(r.id)).approvals).toMatchObject([{ userId: 'U_A2', delegate: DELEGATE }]);
    expect(w.auditOf('approval.counted', r.id)).toMatchObject([{ actor: DELEGATE, data: { for: 'U_A2' } }]);

    expect(await w.engine.approve(r.id, 'U_A2', r.snapshotHash)).toMatchObject({
      ok: false,
      reason: 'already_approved',
    });
    expect(await w.engine.approve(r.id, DELEGATE, r.snapshotHash)).toMatchObject({
      ok: false,
      reason: 'already_approved',
    });
    const last = await w.engine.approve(r.id, 'U_A3', r.snapshotHash);
    expect(last).toMatchObject({ ok: true, approved: true });
    await w.engine.idle();
    expect((await w.record(r.id)).state).not.toBe('pending');
  });

  it('a delegate for two approvers counts once per request', async () => {
    const w = world();
    await w.engine.delegations.set('U_A2', DELEGATE, w.clock.now() + DAY);
    await w.engine.delegations.set('U_A3', DELEGATE, w.clock.now() + DAY);
    const r = await requested(w);
    expect(await w.engine.approve(r.id, DELEGATE, r.snapshotHash)).toMatchObject({ ok: true, count: 1 });
    expect(await w.engine.approve(r.id, DELEGATE, r.snapshotHash)).toMatchObject({
      ok: false,
      reason: 'already_approved',
    });
    expect((await w.record(r.id)).state).toBe('pending');
  });

  it('a delegate who is an approver counts once, as themselves', async () => {
    const w = world();
    await w.engine.delegations.set('U_A2', 'U_A3', w.clock.now() + DAY);
    const r = await requested(w);
    expect(await w.engine.approve(r.id, 'U_A3', r.snapshotHash)).toMatchObject({ ok: true, count: 1 });
    expect(await w.engine.approve(r.id, 'U_A3', r.snapshotHash)).toMatchObject({
      ok: false,
      reason: 'already_approved',
    });
    expect((await w.record(r.id)).approvals).toMatchObject([{ userId: 'U_A3' }]);
  });

  it('never on the delegate’s own request, never for the requester', async () => {
    const w = world();
    await w.engine.delegations.set('U_A2', DELEGATE, w.clock.now() + DAY);
    const own = await requested(w, DELEGATE);
    expect(await w.engine.approve(own.id, DELEGATE, own.snapshotHash)).toMatchObject({
      ok: false,
      reason: 'own_request',
    });
    await w.engine.delegations.set('U_A1', 'U_A3', w.clock.now() + DAY);
    const byA1 = await requested(w, 'U_A1');
    expect(await w.engine.approve(byA1.id, 'U_A3', byA1.snapshotHash)).toMatchObject({ ok: true });
    expect((await w.record(byA1.id)).approvals).toMatchObject([{ userId: 'U_A3' }]);
  });

  it('only for the period, and not once ended', async () => {
    const w = world();
    await w.engine.delegations.set('U_A2', DELEGATE, w.clock.now() + HOUR);
    const r = await requested(w);
    w.clock.advance(HOUR);
    expect(await w.engine.approve(r.id, DELEGATE, r.snapshotHash)).toMatchObject({ ok: false, reason: 'not_approver' });

    const w2 = world();
    await w2.engine.delegations.set('U_A2', DELEGATE, w2.clock.now() + DAY);
    expect(await w2.engine.delegations.end('U_A2')).toMatchObject({ delegate: DELEGATE });
    expect(await w2.engine.delegations.end('U_A2')).toBeUndefined();
    const r2 = await requested(w2);
    expect(await w2.engine.approve(r2.id, DELEGATE, r2.snapshotHash)).toMatchObject({
      ok: false,
      reason: 'not_approver',
    });
    expect(w2.auditOf('delegation.set')).toMatchObject([{ actor: 'U_A2', data: { delegate: DELEGATE } }]);
    expect(w2.auditOf('delegation.ended')).toMatchObject([
      { actor: 'U_A2', data: { delegate: DELEGATE, reason: 'ended' } },
    ]);
  });

  it('a new delegation replaces the approver’s earlier one, audited as ended', async () => {
    const w = world();
    await w.engine.delegations.set('U_A2', DELEGATE, w.clock.now() + DAY);
    await w.engine.delegations.set('U_A2', 'U_A3', w.clock.now() + DAY);
    expect(await w.engine.delegations.of('U_A2')).toMatchObject({ delegate: 'U_A3' });
    expect(w.auditOf('delegation.ended')).toMatchObject([{ data: { delegate: DELEGATE, reason: 'replaced' } }]);
    const refused = await w.engine.delegations.set('U_A2', 'U_A2', w.clock.now() + DAY);
    expect(refused).toMatchObject({ ok: false, message: 'You cannot name yourself as your delegate.' });
    expect(w.auditOf('delegation.refused')).toHaveLength(1);
  });
});

describe('a policy that forbids delegation for a group', () => {
  const groupsPolicy = (forbidden: string[]) => ({
    approvers: undefined,
    requesters: [REQUESTER, DELEGATE],
    groups: { treasury: ['U0TREAS01', 'U0TREAS02'], risk: ['U0RISK001', 'U0RISK002'] },
    rules: [
      {
        name: 'with risk',
        require: [
          { group: 'treasury', count: 1 },
          { group: 'risk', count: 1 },
        ],
      },
    ],
    delegationForbiddenFor: forbidden,
  });

  it('refuses a member of it in the policy’s words, audited; the other groups still delegate', async () => {
    const w = new World({ policy: groupsPolicy(['risk']) });
    const refused = await w.engine.delegations.set('U0RISK001', DELEGATE, w.clock.now() + DAY);
    expect(refused).toEqual({
      ok: false,
      message: 'The approval policy forbids delegation for risk: you are in risk, so nobody may approve in your place.',
    });
    expect(await w.kv.get(delegationKey('U0RISK001'))).toBeUndefined();
    expect(w.auditOf('delegation.refused')).toMatchObject([
      { actor: 'U0RISK001', data: { delegate: DELEGATE, message: refused.ok ? '' : refused.message } },
    ]);
    expect((await w.engine.delegations.set('U0TREAS01', DELEGATE, w.clock.now() + DAY)).ok).toBe(true);
  });

  it('a delegation named before the policy forbade it no longer counts for the approver', async () => {
    const w = new World({ policy: groupsPolicy([]) });
    expect((await w.engine.delegations.set('U0RISK001', DELEGATE, w.clock.now() + DAY)).ok).toBe(true);
    await w.restart(groupsPolicy(['risk']));
    const r = await requested(w);
    expect((await w.engine.approve(r.id, DELEGATE, r.snapshotHash)).ok).toBe(false);
    expect((await w.record(r.id)).approvals).toEqual([]);
    expect(w.auditOf('approval.counted', r.id)).toEqual([]);
  });
});
