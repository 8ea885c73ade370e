// Whom a click counts for, and which delegations may be set: the delegation rules as tables.
import { describe, expect, it } from 'vitest';
import {
  countsFor,
  judgeDelegation,
  MAX_DELEGATION_MS,
  actingDelegatesFor,
  type ClickContext,
  type Delegation,
} from '../../../src/bot/domain/delegation.js';

const NOW = Date.UTC(2026, 11, 1, 12);
const DAY = 86_400_000;
const APPROVERS = new Set(['ANA', 'CAL', 'DEE']);
const during = (approver: string, delegate: string, over: Partial<Delegation> = {}): Delegation => ({
  approver,
  delegate,
  from: NOW - DAY,
  until: NOW + DAY,
  ...over,
});

function click(over: Partial<ClickContext>) {
  return countsFor({
    clicker: 'BEN',
    now: NOW,
    requester: 'REQ',
    approvals: [],
    delegations: [during('ANA', 'BEN')],
    isApprover: (id) => APPROVERS.has(id),
    ...over,
  });
}

describe('whom a click counts for', () => {
  it.each<[string, Partial<ClickContext>, ReturnType<typeof countsFor>]>([
    ['a delegate counts for the approver', {}, { ok: true, userId: 'ANA', delegate: 'BEN' }],
    [
      'an approver counts as themselves, delegation or not',
      { clicker: 'CAL', delegations: [during('ANA', 'CAL')] },
      { ok: true, userId: 'CAL' },
    ],
    ['no delegation: judged as themselves', { delegations: [] }, { ok: true, userId: 'BEN' }],
    ['before the period', { delegations: [during('ANA', 'BEN', { from: NOW + 1 })] }, { ok: true, userId: 'BEN' }],
    ['at its end', { delegations: [during('ANA', 'BEN', { until: NOW })] }, { ok: true, userId: 'BEN' }],
    ['for an approver no longer on the list', { delegations: [during('OLD', 'BEN')] }, { ok: true, userId: 'BEN' }],
    ['never for the requester', { requester: 'ANA' }, { ok: true, userId: 'BEN' }],
    ['forbidden by the policy', { mayDelegate: () => false }, { ok: true, userId: 'BEN' }],
    [
      'never on the delegate’s own request',
      { requester: 'BEN' },
      { ok: false, reason: 'own_request', message: expect.any(String) },
    ],
    [
      'the approver already approved: an approver and their delegate count once',
      { approvals: [{ userId: 'ANA' }] },
      { ok: false, reason: 'already_approved', message: 'Everyone you approve for has already approved this request.' },
    ],
    [
      'a delegate for two counts once per round',
      { delegations: [during('ANA', 'BEN'), during('CAL', 'BEN')], approvals: [{ userId: 'ANA', delegate: 'BEN' }] },
      { ok: false, reason: 'already_approved', message: expect.any(String) },
    ],
    [
      'a delegate for two stands for the first not yet approved',
      { delegations: [during('CAL', 'BEN'), during('ANA', 'BEN')], approvals: [{ userId: 'ANA' }] },
      { ok: true, userId: 'CAL', delegate: 'BEN' },
    ],
  ])('%s', (_, over, expected) => {
    expect(click(over)).toEqual(expected);
  });
});

describe('setting a delegation', () => {
  const ask = (over: Partial<Parameters<typeof judgeDelegation>[0]>) =>
    judgeDelegation({
      approver: 'ANA',
      delegate: 'BEN',
      until: NOW + 7 * DAY,
      now: NOW,
      isApprover: (id) => APPROVERS.has(id),
      isDeskMember: (id) => APPROVERS.has(id) || id === 'BEN' || id === 'REQ',
      ...over,
    });

  it('an approver, to someone on the desk, for a period to come within 30 days', () => {
    expect(ask({})).toEqual({
      ok: true,
      delegation: { approver: 'ANA', delegate: 'BEN', from: NOW, until: NOW + 7 * DAY },
    });
    expect(ask({ until: NOW + MAX_DELEGATION_MS }).ok).toBe(true);
  });

  it.each<[string, Partial<Parameters<typeof judgeDelegation>[0]>, RegExp]>([
    ['not an approver', { approver: 'REQ' }, /Only approvers/],
    [
      'forbidden by the policy',
      { delegationRefusal: () => 'The approval policy forbids delegation for risk.' },
      /^The approval policy forbids delegation for risk\.$/,
    ],
    ['to oneself', { delegate: 'ANA' }, /yourself/],
    ['to someone off the desk', { delegate: 'STRANGER' }, /not on the desk/],
    ['without an end', { until: undefined }, /needs an end date/],
    ['ending now', { until: NOW }, /already past/],
    ['ended', { until: NOW - DAY }, /already past/],
    ['longer than 30 days', { until: NOW + MAX_DELEGATION_MS + 1 }, /at most 30 days/],
  ])('refused: %s', (_, over, message) => {
    const judged = ask(over);
    expect(judged.ok).toBe(false);
    if (!judged.ok) expect(judged.message).toMatch(message);
  });
});

describe("who may approve in an awaited approver's place (the message and the expiry warning name them)", () => {
  const base = {
    now: NOW,
    requester: 'REQ',
    approvals: [] as { userId: string; delegate?: string }[],
    isApprover: (id: string) => APPROVERS.has(id),
  };
  it.each<[string, Partial<Parameters<typeof actingDelegatesFor>[0]>, ReturnType<typeof actingDelegatesFor>]>([
    ['a delegate in force for an awaited approver', {}, [{ userId: 'ANA', delegate: 'BEN', until: NOW + DAY }]],
    ['not for an approver no longer awaited', { awaited: ['CAL'] }, []],
    ['not once the delegation ended', { delegations: [during('ANA', 'BEN', { until: NOW })] }, []],
    ['not a delegate who clicked this round already', { approvals: [{ userId: 'CAL', delegate: 'BEN' }] }, []],
    ['not the requester standing in', { requester: 'BEN' }, []],
    ['not where the policy forbids it', { mayDelegate: () => false }, []],
    [
      'a delegate for two, once, for whom a click would count',
      { delegations: [during('DEE', 'BEN'), during('ANA', 'BEN')], awaited: ['ANA', 'DEE'] },
      [{ userId: 'ANA', delegate: 'BEN', until: NOW + DAY }],
    ],
  ])('%s', (_name, over, expected) => {
    expect(
      actingDelegatesFor({ ...base, delegations: [during('ANA', 'BEN')], awaited: ['ANA', 'CAL'], ...over }),
    ).toEqual(expected);
  });
});
