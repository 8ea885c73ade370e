// The approval policy as the engine reads it: groups of people, rules (the first that matches a
// request decides who must approve it), limits over rolling windows, allowed destinations.
import type { z } from 'zod';
import type { frozenRuleSchema } from '../record-schema.js';
import type { RequestKind } from '../request.js';

/** `count` distinct people of `group` (never the requester; one person counts once). */
export interface Requirement {
  group: string;
  count: number;
}

/** The group every approver is in: the count of a request made before rules were frozen. */
export const ANY_APPROVER = '*';

export interface ValueAtLeast {
  amount: string;
  currency: string;
}

/** Absent criteria match everything. */
export interface RuleMatch {
  kinds?: readonly RequestKind[];
  /** A withdrawal's asset or currency; a trade's base. */
  assets?: readonly string[];
  /** The request's value in `currency`, priced at request time (valuation.ts). */
  valueAtLeast?: ValueAtLeast;
}

export interface Rule {
  name: string;
  match: RuleMatch;
  require: readonly Requirement[];
  /** How long a request under it waits for approvals; absent: the kind's default. */
  expiresAfterMs?: number;
  /** remind_after / remind_every: when approvers are first nudged, and how often after; absent: the kind's default. */
  remindAfterMs?: number;
  remindEveryMs?: number;
  /** step_up: approvals under it count only with a one-time code (issue 24). */
  stepUp?: boolean;
  /** SHA-256 of the rule's canonical JSON: which version decided, in the snapshot and the audit. */
  hash: string;
}

/** The rule as a request keeps it (its snapshot). */
export type FrozenRule = z.infer<typeof frozenRuleSchema>;

export interface Limit {
  name: string;
  /** A limit counts one asset (its amounts only add up in one currency). */
  match: { kinds?: readonly RequestKind[]; asset: string };
  windowMs: number;
  /** Decimal string, in the asset. */
  max: string;
  /** Refuse what would go over it, or ask these groups too. */
  over: 'refuse' | { require: readonly Requirement[] };
  hash: string;
}

export type PolicySource = { from: 'variables' } | { from: 'file'; path: string; hash: string };

export interface Policy {
  readonly requesters: ReadonlySet<string>;
  /** Everyone in any group. */
  readonly approvers: ReadonlySet<string>;
  readonly compliance: ReadonlySet<string>;
  readonly groups: ReadonlyMap<string, ReadonlySet<string>>;
  /** The first that matches decides; a request no rule matches is refused. */
  readonly rules: readonly Rule[];
  readonly limits: readonly Limit[];
  /** Per asset, the saved addresses (labels or ids) withdrawals may go to; an asset not named is unrestricted. */
  readonly destinations: ReadonlyMap<string, readonly string[]>;
  readonly expiryMs: Readonly<Record<RequestKind, number>>;
  /** Groups whose members may not name a delegate (delegation.forbidden_for): nobody approves in their place. */
  readonly delegationForbiddenFor: ReadonlySet<string>;
  readonly source: PolicySource;
}
