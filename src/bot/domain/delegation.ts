/**
 * Delegation (pure): an approver away names a delegate for a period; the delegate's click counts
 * in the approver's place. One person counts once per request round, however many people they
 * act for; an approver and their delegate together count once; nobody approves a request
 * they made, for themselves or for someone else, and nobody approves for the requester.
 */
import { refuse, type Refusal } from './refusals.js';

export interface Delegation {
  /** The approver who is away. */
  approver: string;
  /** Who clicks in their place. */
  delegate: string;
  /** The period, epoch ms: from <= now < until. */
  from: number;
  until: number;
}

/** The longest period one delegation may cover: a longer absence is a change of the approver list. */
export const MAX_DELEGATION_MS = 30 * 24 * 60 * 60 * 1000;

/** Delegation is allowed unless the policy forbids it (delegation.forbidden_for, per group). */
export const DELEGATION_ALLOWED = true;

export function isActive(d: Delegation, now: number): boolean {
  return d.from <= now && now < d.until;
}

/** What a click needs to know of the request: who asked, and this round's approvals. */
export interface ClickContext {
  clicker: string;
  now: number;
  requester: string;
  /** The current round's approvals (`delegate`: who clicked, when not the approver). */
  approvals: readonly { userId: string; delegate?: string }[];
  delegations: readonly Delegation[];
  isApprover: (userId: string) => boolean;
  /** Whether the policy lets this approver's delegate count (a group may forbid it). */
  mayDelegate?: (approver: string) => boolean;
}

/** Whom a click counts for: the clicker themselves, or the approver they act for. */
export type CountsFor = { ok: true; userId: string; delegate?: string } | Refusal;

/**
 * An approver counts as themselves (their own standing comes first), and so does anyone with no
 * delegation in force: the approval check that follows (requester, approver list, snapshot,
 * already approved) judges them as always. A delegate counts for the first approver (by id)
 * whose delegation is in force, who is not the requester, may delegate, and has not approved
 * this round; never on a request of their own, and only once per round.
 */
export function countsFor(c: ClickContext): CountsFor {
  if (c.isApprover(c.clicker)) return { ok: true, userId: c.clicker };
  const mayDelegate = c.mayDelegate ?? (() => DELEGATION_ALLOWED);
  const standing = c.delegations
    .filter(
      (d) =>
        d.delegate === c.clicker &&
        isActive(d, c.now) &&
        d.approver !== c.requester &&
        d.approver !== c.clicker &&
        c.isApprover(d.approver) &&
        mayDelegate(d.approver),
    )
    .map((d) => d.approver)
    .sort();
  if (standing.length === 0) return { ok: true, userId: c.clicker };
  if (c.clicker === c.requester) return refuse('own_request');
  if (c.approvals.some((a) => a.delegate === c.clicker)) return refuse('already_approved');
  const open = standing.find((approver) => !c.approvals.some((a) => a.userId === approver));
  if (open === undefined)
    return refuse('already_approved', 'Everyone you approve for has already approved this request.');
  return { ok: true, userId: open, delegate: c.clicker };
}

/** A delegate who may approve now in an awaited approver's place ("@Ben for @Ana"), until their delegation ends. */
export interface ActingDelegate {
  userId: string;
  delegate: string;
  until: number;
}

/**
 * Who may approve now in place of the `awaited` approvers: each delegate whose click would count
 * for one of them (countsFor decides, so the list says what a click would do), once.
 */
export function actingDelegatesFor(
  c: Omit<ClickContext, 'clicker'> & { awaited: readonly string[] },
): ActingDelegate[] {
  const out = new Map<string, ActingDelegate>();
  for (const d of c.delegations) {
    if (!c.awaited.includes(d.approver) || !isActive(d, c.now) || out.has(d.delegate)) continue;
    const counted = countsFor({ ...c, clicker: d.delegate });
    if (!counted.ok || counted.delegate === undefined || !c.awaited.includes(counted.userId)) continue;
    const until = c.delegations.find((x) => x.approver === counted.userId && x.delegate === d.delegate)?.until;
    out.set(d.delegate, { userId: counted.userId, delegate: d.delegate, until: until ?? d.until });
  }
  return [...out.values()].sort((a, b) => a.userId.localeCompare(b.userId) || a.delegate.localeCompare(b.delegate));
}

/** A delegation asked for, before it is stored. */
export interface DelegationAsk {
  approver: string;
  delegate: string;
  /** Undefined when no end was given. */
  until: number | undefined;
  now: number;
  isApprover: (userId: string) => boolean;
  isDeskMember: (userId: string) => boolean;
  /** Why the policy lets nobody approve in this approver's place, in its words; undefined: it allows a delegate. */
  delegationRefusal?: (approver: string) => string | undefined;
}

export type DelegationJudgement = { ok: true; delegation: Delegation } | { ok: false; message: string };

/** Only an approver, for a period that has an end, not past and at most MAX_DELEGATION_MS away, to someone else on the desk. */
export function judgeDelegation(a: DelegationAsk): DelegationJudgement {
  const no = (message: string): DelegationJudgement => ({ ok: false, message });
  if (!a.isApprover(a.approver)) return no('Only approvers can name a delegate.');
  const forbidden = a.delegationRefusal?.(a.approver);
  if (forbidden !== undefined) return no(forbidden);
  if (a.delegate === a.approver) return no('You cannot name yourself as your delegate.');
  if (!a.isDeskMember(a.delegate))
    return no(
      'That person is not on the desk (not a requester, approver or compliance officer): a delegate must be someone the desk already knows.',
    );
  if (a.until === undefined) return no('A delegation needs an end date: `/desk delegate @user until 2026-12-24`.');
  if (a.until <= a.now) return no('That end date is already past: give a date to come.');
  if (a.until - a.now > MAX_DELEGATION_MS)
    return no(
      'A delegation lasts at most 30 days: give an end date within 30 days (a longer absence is a change of the approver list).',
    );
  return { ok: true, delegation: { approver: a.approver, delegate: a.delegate, from: a.now, until: a.until } };
}
