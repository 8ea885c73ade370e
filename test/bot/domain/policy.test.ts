import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  PolicyConfigError,
  createPolicy,
  judgeApproval,
  judgeCancel,
  judgeReject,
  isExpired,
  currenciesToValue,
  requiredApprovalsFor,
  type ApprovalView,
} from '../../../src/bot/domain/policy.js';
import { valuationAt, withValuations } from '../../../src/bot/domain/valuation.js';
import type { Snapshot } from '../../../src/bot/domain/request.js';
import { REQUEST_STATES } from '../../../src/bot/domain/state-machine.js';

const policy = createPolicy({ requesters: ['R', 'A1'], approvers: ['A1', 'A2', 'A3'], compliance: ['C'] });

const crypto: Snapshot = {
  kind: 'crypto_withdrawal',
  cryptoCurrencyId: 1,
  asset: 'USDT',
  network: 'Tron',
  precision: 6,
  amount: '100',
  fee: '1',
  total: '101',
  destination: { id: 'd', label: 'Cold', address: 'T123', addressTag: null },
  note: null,
  purpose: null,
};

const view = (over: Partial<ApprovalView> = {}): ApprovalView => ({
  state: 'pending',
  requester: 'R',
  snapshot: crypto,
  snapshotHash: 'h1',
  approvals: [],
  requiredApprovals: 2,
  ...over,
});

describe('policy configuration', () => {
  it('defaults to two approvals', () => {
    expect(requiredApprovalsFor(policy, crypto)).toBe(2);
  });

  it.each([0, 1, -3, 1.5])('refuses REQUIRED_APPROVALS=%s with a clear message', (n) => {
    expect(() => createPolicy({ requesters: ['R'], approvers: ['A1', 'A2'], requiredApprovals: n })).toThrow(
      PolicyConfigError,
    );
    expect(() => createPolicy({ requesters: ['R'], approvers: ['A1', 'A2'], requiredApprovals: n })).toThrow(
      /REQUIRED_APPROVALS/,
    );
  });

  it('refuses lower counts by kind or threshold, and lists every problem at once', () => {
    try {
      createPolicy({
        requesters: ['R'],
        approvers: ['A1'],
        approvalsByKind: { trade: 1 },
        thresholds: [{ currency: 'USD', atLeast: 'lots', approvals: 1 }],
      });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(PolicyConfigError);
      const problems = (e as PolicyConfigError).problems;
      expect(problems.some((p) => p.includes('trade'))).toBe(true);
      expect(problems.some((p) => p.includes('atLeast'))).toBe(true);
      expect(problems.some((p) => p.includes('threshold 1 approvals'))).toBe(true);
      expect(problems.some((p) => p.includes('1 approver(s) configured'))).toBe(true);
    }
  });

  it('refuses a requester who is also an approver when the others are too few', () => {
    expect(() => createPolicy({ requesters: ['R', 'A1'], approvers: ['A1', 'A2'], requiredApprovals: 2 })).toThrow(
      /requester A1 is also an approver, which leaves 1 other/,
    );
    expect(
      createPolicy({ requesters: ['R', 'A1'], approvers: ['A1', 'A2', 'A3'], requiredApprovals: 2 }).approvers.size,
    ).toBe(3);
  });

  it('raises the count by kind and by the value frozen in the snapshot', () => {
    const p = createPolicy({
      requesters: ['R'],
      approvers: ['A1', 'A2', 'A3', 'A4'],
      approvalsByKind: { bank_account_removal: 3 },
      thresholds: [{ currency: 'USD', atLeast: '1000', approvals: 4 }],
    });
    const worth = (value: string) =>
      withValuations(crypto, [{ ...valuationAt({ amount: '1', currency: 'USDT' }, 'USD', value, 0) }]);
    expect(requiredApprovalsFor(p, worth('999.99'))).toBe(2);
    expect(requiredApprovalsFor(p, worth('1000'))).toBe(4);
    expect(
      requiredApprovalsFor(p, {
        kind: 'bank_account_removal',
        bankAccount: { id: 1, currency: 'USD', display: 'x' },
        note: null,
      }),
    ).toBe(3);
  });

  it('takes a request never priced in the threshold currency as large, never as small', () => {
    const p = createPolicy({
      requesters: ['R'],
      approvers: ['A1', 'A2', 'A3'],
      thresholds: [{ currency: 'USD', atLeast: '50000', approvals: 3 }],
    });
    expect(currenciesToValue(p, crypto)).toEqual(['USD']);
    expect(requiredApprovalsFor(p, crypto)).toBe(3);
  });
});

describe('approval decisions', () => {
  it('the requester never counts, even when an approver', () => {
    expect(judgeApproval(policy, view({ requester: 'A1' }), 'A1', 'h1')).toMatchObject({
      ok: false,
      reason: 'own_request',
      message: 'You requested this, so your approval cannot count.',
    });
  });

  it('an outsider never counts', () => {
    expect(judgeApproval(policy, view(), 'C', 'h1')).toMatchObject({ ok: false, reason: 'not_approver' });
  });

  it('one person counts once', () => {
    const v = view({ approvals: [{ userId: 'A2', snapshotHash: 'h1' }] });
    expect(judgeApproval(policy, v, 'A2', 'h1')).toMatchObject({ ok: false, reason: 'already_approved' });
    expect(judgeApproval(policy, v, 'A3', 'h1')).toEqual({
      ok: true,
      count: 2,
      required: 2,
      last: true,
      tally: { groups: [{ group: '*', count: 2, by: ['A2', 'A3'] }], met: true, counted: ['A2', 'A3'] },
    });
  });

  it('an approval of another snapshot is stale', () => {
    expect(judgeApproval(policy, view(), 'A2', 'h0')).toMatchObject({ ok: false, reason: 'stale_snapshot' });
  });

  it('decided requests refuse with already_decided', () => {
    for (const state of REQUEST_STATES.filter((s) => s !== 'pending' && s !== 'awaiting_reapproval')) {
      expect(judgeApproval(policy, view({ state }), 'A2', 'h1')).toMatchObject({
        ok: false,
        reason: 'already_decided',
      });
    }
  });

  it('a pending request keeps its count when the policy is raised (a changed policy applies to new requests)', () => {
    const raised = createPolicy({ requesters: ['R'], approvers: ['A1', 'A2', 'A3'], requiredApprovals: 3 });
    expect(
      judgeApproval(raised, view({ approvals: [{ userId: 'A1', snapshotHash: 'h1' }] }), 'A2', 'h1'),
    ).toMatchObject({
      ok: true,
      count: 2,
      required: 2,
      last: true,
    });
  });

  it('approvals from removed approvers, the requester or old snapshots do not count toward the total', () => {
    const v = view({
      approvals: [
        { userId: 'X', snapshotHash: 'h1' },
        { userId: 'R', snapshotHash: 'h1' },
        { userId: 'A1', snapshotHash: 'h0' },
      ],
    });
    expect(judgeApproval(policy, v, 'A2', 'h1')).toMatchObject({
      ok: true,
      count: 1,
      required: 2,
      last: false,
      tally: { counted: ['A2'], met: false },
    });
  });

  it('property: the count reaches "last" only with the required number of distinct non-requester approvers', () => {
    const users = ['R', 'A1', 'A2', 'A3', 'C', 'X'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...users), { maxLength: 12 }), (clicks) => {
        const approvals: { userId: string; snapshotHash: string }[] = [];
        let approved = false;
        for (const user of clicks) {
          if (approved) break;
          const d = judgeApproval(policy, view({ approvals }), user, 'h1');
          if (!d.ok) continue;
          approvals.push({ userId: user, snapshotHash: 'h1' });
          approved = d.last;
        }
        const distinct = new Set(approvals.map((a) => a.userId));
        expect(distinct.size).toBe(approvals.length);
        for (const u of distinct) expect(['A1', 'A2', 'A3']).toContain(u);
        expect(approved).toBe(distinct.size >= 2);
      }),
    );
  });
});

describe('reject, cancel, expiry', () => {
  it('reject needs an approver and a reason', () => {
    expect(judgeReject(policy, view(), 'A2', '  ')).toMatchObject({ ok: false, reason: 'reason_required' });
    expect(judgeReject(policy, view(), 'C', 'no')).toMatchObject({ ok: false, reason: 'not_approver' });
    expect(judgeReject(policy, view(), 'A2', ' wrong address ')).toEqual({ ok: true, reason: 'wrong address' });
    expect(judgeReject(policy, view({ state: 'executing' }), 'A2', 'x')).toMatchObject({
      ok: false,
      reason: 'already_decided',
    });
  });

  it('only the requester cancels, only while waiting', () => {
    expect(judgeCancel(view(), 'A2')).toMatchObject({ ok: false, reason: 'not_requester' });
    expect(judgeCancel(view(), 'R')).toEqual({ ok: true });
    expect(judgeCancel(view({ state: 'awaiting_reapproval' }), 'R')).toEqual({ ok: true });
    expect(judgeCancel(view({ state: 'approved' }), 'R')).toMatchObject({ ok: false, reason: 'already_decided' });
  });

  it('expires waiting requests at their deadline only', () => {
    expect(isExpired({ state: 'pending', expiresAt: 100 }, 99)).toBe(false);
    expect(isExpired({ state: 'pending', expiresAt: 100 }, 100)).toBe(true);
    expect(isExpired({ state: 'submitted', expiresAt: 100 }, 1000)).toBe(false);
  });

  it('defaults to 24 h for withdrawals and 15 min for trades', () => {
    expect(policy.expiryMs.crypto_withdrawal).toBe(86_400_000);
    expect(policy.expiryMs.trade).toBe(900_000);
  });
});
