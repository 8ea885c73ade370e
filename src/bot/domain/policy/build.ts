// Builds the policy from its input (the variables' "N of this list", or the policy file's groups,
// rules, limits and destinations) and refuses, listing every problem at once, a policy that would
// weaken the two-person rule or that some requester could never get a request approved under.
import { isDecimal, isZero } from '../money.js';
import { REQUEST_KINDS, type RequestKind } from '../request.js';
import { placesOf, tally } from './count.js';
import { durationText } from './duration.js';
import {
  ANY_APPROVER,
  type Limit,
  type Policy,
  type PolicySource,
  type Requirement,
  type Rule,
  type RuleMatch,
} from './model.js';
import { hashOf } from './rules.js';

/** Two people other than the requester: the floor for anything configured. */
export const MIN_APPROVALS = 2;
export const DEFAULT_REQUIRED_APPROVALS = 2;
/** The one group of the variables' policy (APPROVER_USER_IDS). */
export const APPROVERS_GROUP = 'approvers';

const HOUR = 3_600_000;
export const DEFAULT_EXPIRY_MS: Readonly<Record<RequestKind, number>> = {
  crypto_withdrawal: 24 * HOUR,
  fiat_withdrawal: 24 * HOUR,
  // Approvers approve a price limit; a stale trade request is a different trade.
  trade: 15 * 60_000,
  bank_account_removal: 24 * HOUR,
};

/**
 * When approvers who have not acted are reminded by DM: first `delayMs` into the round, then at
 * most once every `intervalMs`, at most `max` times. Defaults by kind; a rule may set its own.
 */
export interface ReminderRule {
  delayMs: number;
  intervalMs: number;
  max: number;
}

const MINUTE = 60_000;
export const DEFAULT_REMINDERS: Readonly<Record<RequestKind, ReminderRule>> = {
  crypto_withdrawal: { delayMs: 30 * MINUTE, intervalMs: 30 * MINUTE, max: 3 },
  fiat_withdrawal: { delayMs: 30 * MINUTE, intervalMs: 30 * MINUTE, max: 3 },
  // A trade lives 15 minutes: a reminder after 5 still leaves time to approve the price.
  trade: { delayMs: 5 * MINUTE, intervalMs: 5 * MINUTE, max: 3 },
  bank_account_removal: { delayMs: 30 * MINUTE, intervalMs: 30 * MINUTE, max: 3 },
};

/** The request's thread warns that it is about to expire at this share of its round's life. */
export const EXPIRY_WARNING_AT = 0.8;

/** A higher count for requests worth at least `atLeast` in `currency` (valuation.ts; optionally only some kinds). */
export interface AmountThreshold {
  currency: string;
  atLeast: string;
  approvals: number;
  kinds?: RequestKind[];
}

export type RuleInput = {
  name: string;
  match?: RuleMatch;
  require: Requirement[];
  expiresAfterMs?: number;
  remindAfterMs?: number;
  remindEveryMs?: number;
  stepUp?: boolean;
};
export type LimitInput = Omit<Limit, 'hash'>;

export interface PolicyInput {
  requesters: Iterable<string>;
  compliance?: Iterable<string>;
  /** How long a request waits for approvals, by kind (a rule's expires_after wins). */
  expiryMs?: Partial<Record<RequestKind, number>>;
  // The variables' policy: one group, one count (raised by kind or value).
  approvers?: Iterable<string>;
  /** REQUIRED_APPROVALS; default 2; below 2 is refused. */
  requiredApprovals?: number;
  approvalsByKind?: Partial<Record<RequestKind, number>>;
  thresholds?: AmountThreshold[];
  // The policy file's: groups and rules instead of approvers and counts.
  groups?: Record<string, Iterable<string>>;
  rules?: RuleInput[];
  limits?: LimitInput[];
  destinations?: Record<string, string[]>;
  /** Groups whose members may not name a delegate. */
  delegationForbiddenFor?: Iterable<string>;
  source?: PolicySource;
}

/** Thrown at start-up for a policy that would weaken the two-person rule; lists every problem. */
export class PolicyConfigError extends Error {
  override name = 'PolicyConfigError';
  constructor(readonly problems: string[]) {
    super(`Approval policy is not valid:\n- ${problems.join('\n- ')}`);
  }
}

/** @example createPolicy({ requesters: ['U1'], approvers: ['U2', 'U3'], requiredApprovals: 2 }) */
export function createPolicy(input: PolicyInput): Policy {
  const problems: string[] = [];
  const requesters = userSet('requesters', input.requesters, problems);
  const compliance = userSet('compliance', input.compliance ?? [], problems);
  const fromFile = input.groups !== undefined || input.rules !== undefined;
  const expiryMs = { ...DEFAULT_EXPIRY_MS, ...input.expiryMs };
  const { groups, rules } = fromFile ? fileRules(input, expiryMs, problems) : variableRules(input, problems);
  const limits = (input.limits ?? []).map((l) => ({ ...l, hash: hashOf(l) }));
  checkLimits(limits, groups, problems);
  const destinations = new Map(Object.entries(input.destinations ?? {}));
  for (const [asset, allowed] of destinations)
    if (allowed.length === 0) problems.push(`destinations: ${asset} lists nothing (leave it out to allow any)`);
  for (const [kind, ms] of Object.entries(expiryMs)) checkDuration(`expiry for ${kind}`, ms, problems);
  const delegationForbiddenFor = new Set(input.delegationForbiddenFor ?? []);
  for (const group of delegationForbiddenFor)
    if (!groups.has(group)) problems.push(`delegation forbidden_for: no group called "${group}"`);
  const approvers = new Set([...groups.values()].flatMap((members) => [...members]));
  const policy: Policy = {
    requesters,
    approvers,
    compliance,
    groups,
    rules,
    limits,
    destinations,
    expiryMs,
    delegationForbiddenFor,
    source: input.source ?? { from: 'variables' },
  };
  if (problems.length === 0) {
    if (fromFile) checkSatisfiable(policy, problems);
    else checkRequesters(policy, input.requiredApprovals ?? DEFAULT_REQUIRED_APPROVALS, problems);
  }
  if (problems.length > 0) throw new PolicyConfigError(problems);
  return policy;
}

/** The variables' "N of this list": per kind, the value thresholds (highest count first), then the kind's count. */
function variableRules(input: PolicyInput, problems: string[]) {
  const approvers = userSet('approvers', input.approvers ?? [], problems);
  const base = input.requiredApprovals ?? DEFAULT_REQUIRED_APPROVALS;
  checkCount('REQUIRED_APPROVALS', base, problems);
  for (const [kind, count] of Object.entries(input.approvalsByKind ?? {})) {
    if (!(REQUEST_KINDS as readonly string[]).includes(kind))
      problems.push(`approvals by kind: unknown kind "${kind}"`);
    checkCount(`approvals for ${kind}`, count, problems);
  }
  const thresholds = input.thresholds ?? [];
  for (const [i, t] of thresholds.entries()) checkThreshold(i, t, problems);
  const highest = Math.max(base, ...Object.values(input.approvalsByKind ?? {}), ...thresholds.map((t) => t.approvals));
  if (approvers.size < highest)
    problems.push(
      `${approvers.size} approver(s) configured, but up to ${highest} approvals can be required: nothing could ever be approved`,
    );
  const of = (count: number): Requirement[] => [{ group: APPROVERS_GROUP, count }];
  const rules: Rule[] = [];
  const groups = new Map([[APPROVERS_GROUP, approvers]]);
  if (problems.length > 0) return { groups, rules };
  const simple = thresholds.length === 0 && Object.keys(input.approvalsByKind ?? {}).length === 0;
  if (simple) rules.push(withHash({ name: 'every request', match: {}, require: of(base) }));
  else
    for (const kind of REQUEST_KINDS) {
      const kindCount = Math.max(base, input.approvalsByKind?.[kind] ?? 0);
      const raised = thresholds
        .filter((t) => !t.kinds || t.kinds.includes(kind))
        .map((t) => ({ t, count: Math.max(kindCount, t.approvals) }))
        .sort((a, b) => b.count - a.count);
      for (const { t, count } of raised)
        rules.push(
          withHash({
            name: `${kind} worth at least ${t.atLeast} ${t.currency}`,
            match: { kinds: [kind], valueAtLeast: { amount: t.atLeast, currency: t.currency } },
            require: of(count),
          }),
        );
      rules.push(withHash({ name: kind, match: { kinds: [kind] }, require: of(kindCount) }));
    }
  return { groups, rules };
}

function fileRules(input: PolicyInput, expiryMs: Readonly<Record<RequestKind, number>>, problems: string[]) {
  for (const name of ['approvers', 'requiredApprovals', 'approvalsByKind', 'thresholds'] as const)
    if (input[name] !== undefined)
      problems.push(`${name} belongs to the variables' policy, not to a policy with groups`);
  const groups = new Map<string, ReadonlySet<string>>();
  for (const [name, members] of Object.entries(input.groups ?? {})) {
    if (name.trim() === '' || name === ANY_APPROVER) problems.push(`group "${name}": not a usable name`);
    const set = userSet(`group ${name}`, members, problems);
    if (set.size === 0) problems.push(`group ${name} has nobody in it`);
    groups.set(name, set);
  }
  if (groups.size === 0) problems.push('groups: none given, so nobody could approve anything');
  const rules = (input.rules ?? []).map(withHash);
  if (rules.length === 0) problems.push('rules: none given, so every request would be refused');
  const names = new Set<string>();
  for (const [i, rule] of rules.entries()) {
    const where = `rule ${i + 1} ("${rule.name}")`;
    if (rule.name.trim() === '') problems.push(`rule ${i + 1}: a name is required (approvers and the audit see it)`);
    if (names.has(rule.name)) problems.push(`${where}: another rule has the same name`);
    names.add(rule.name);
    checkRequire(where, rule.require, groups, problems);
    if (placesOf(rule.require) < MIN_APPROVALS)
      problems.push(
        `${where} needs ${placesOf(rule.require)} approval(s): money never moves with fewer than ${MIN_APPROVALS} approvals from people other than the requester`,
      );
    checkMatch(where, rule.match, problems);
    if (rule.expiresAfterMs !== undefined) checkDuration(`${where} expires_after`, rule.expiresAfterMs, problems);
    checkReminders(where, rule, expiryMs, problems);
    const earlier = rules.slice(0, i).find((r) => matchesAll(r.match));
    if (earlier) problems.push(`${where} can never decide: rule "${earlier.name}" before it matches every request`);
  }
  return { groups, rules };
}

/** A reminder must be able to come: positive, and sooner than the shortest life of a request under the rule. */
function checkReminders(
  where: string,
  rule: Rule,
  expiryMs: Readonly<Record<RequestKind, number>>,
  problems: string[],
): void {
  const [shortest] = (rule.match.kinds ?? REQUEST_KINDS)
    .map((kind) => ({ kind, ms: rule.expiresAfterMs ?? expiryMs[kind] }))
    .sort((a, b) => a.ms - b.ms);
  for (const [key, ms] of [
    ['remind_after', rule.remindAfterMs],
    ['remind_every', rule.remindEveryMs],
  ] as const) {
    if (ms === undefined) continue;
    checkDuration(`${where} ${key}`, ms, problems);
    if (shortest && ms >= shortest.ms)
      problems.push(
        `${where} ${key} is ${durationText(ms)}, but a ${shortest.kind} under it expires after ${durationText(shortest.ms)}: no reminder could ever go out`,
      );
  }
}

function matchesAll(match: RuleMatch): boolean {
  return match.kinds === undefined && match.assets === undefined && match.valueAtLeast === undefined;
}

function withHash(rule: RuleInput): Rule {
  const out: Rule = { name: rule.name, match: rule.match ?? {}, require: rule.require, hash: hashOf(rule) };
  if (rule.expiresAfterMs !== undefined) out.expiresAfterMs = rule.expiresAfterMs;
  if (rule.remindAfterMs !== undefined) out.remindAfterMs = rule.remindAfterMs;
  if (rule.remindEveryMs !== undefined) out.remindEveryMs = rule.remindEveryMs;
  if (rule.stepUp) out.stepUp = true;
  return out;
}

function checkRequire(
  where: string,
  require: readonly Requirement[],
  groups: ReadonlyMap<string, ReadonlySet<string>>,
  problems: string[],
): void {
  if (require.length === 0) problems.push(`${where}: require names nobody`);
  for (const r of require) {
    if (!groups.has(r.group)) problems.push(`${where}: no group called "${r.group}"`);
    if (!Number.isInteger(r.count) || r.count < 1)
      problems.push(`${where}: the count of ${r.group} must be a whole number of at least 1, got ${r.count}`);
  }
}

function checkMatch(where: string, match: RuleMatch, problems: string[]): void {
  for (const kind of match.kinds ?? [])
    if (!(REQUEST_KINDS as readonly string[]).includes(kind))
      problems.push(`${where}: unknown kind "${kind}" (one of ${REQUEST_KINDS.join(', ')})`);
  const v = match.valueAtLeast;
  if (v && !isDecimal(v.amount))
    problems.push(`${where}: value_at_least amount must be a decimal string, got ${JSON.stringify(v.amount)}`);
  if (v && v.currency.trim() === '') problems.push(`${where}: value_at_least currency is empty`);
}

function checkLimits(limits: readonly Limit[], groups: ReadonlyMap<string, ReadonlySet<string>>, problems: string[]) {
  const names = new Set<string>();
  for (const [i, limit] of limits.entries()) {
    const where = `limit ${i + 1} ("${limit.name}")`;
    if (limit.name.trim() === '') problems.push(`limit ${i + 1}: a name is required`);
    if (names.has(limit.name)) problems.push(`${where}: another limit has the same name`);
    names.add(limit.name);
    if (limit.match.asset.trim() === '') problems.push(`${where}: name the asset it counts`);
    if (!isDecimal(limit.max) || isZero(limit.max))
      problems.push(`${where}: max must be a decimal string above zero, got ${JSON.stringify(limit.max)}`);
    checkDuration(`${where} window`, limit.windowMs, problems);
    if (limit.over !== 'refuse') checkRequire(where, limit.over.require, groups, problems);
    checkMatch(where, { ...(limit.match.kinds ? { kinds: limit.match.kinds } : {}) }, problems);
  }
}

/** Every rule must be within reach of every requester (who never counts) and of the groups as they are. */
function checkSatisfiable(policy: Policy, problems: string[]): void {
  const approvers = [...policy.approvers];
  const groupsOf = (userId: string) =>
    new Set([...policy.groups].filter(([, members]) => members.has(userId)).map(([name]) => name));
  for (const rule of policy.rules) {
    const needs = requireText(rule.require);
    if (!tally(rule.require, approvers, groupsOf).met) {
      problems.push(
        `rule "${rule.name}" needs ${needs}, which the groups cannot give: nothing could ever be approved under it`,
      );
      continue;
    }
    for (const requester of policy.requesters) {
      if (
        tally(
          rule.require,
          approvers.filter((a) => a !== requester),
          groupsOf,
        ).met
      )
        continue;
      problems.push(
        `requester ${requester} could never get a request approved under rule "${rule.name}": it needs ${needs} other than the requester, and ${requester} never counts`,
      );
    }
  }
}

/** The variables' rule, as before: every request needs REQUIRED_APPROVALS of people other than its requester. */
function checkRequesters(policy: Policy, required: number, problems: string[]): void {
  for (const requester of policy.requesters) {
    const others = [...policy.approvers].filter((a) => a !== requester).length;
    if (others < required)
      problems.push(
        `requester ${requester} is also an approver, which leaves ${others} other approver(s), but every request needs ${required} approvals: their requests could never be approved`,
      );
  }
}

/** "2 of treasury and 1 of risk". */
export function requireText(require: readonly Requirement[]): string {
  const parts = require.map((r) => `${r.count} of ${r.group === ANY_APPROVER ? 'the approvers' : r.group}`);
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

function userSet(name: string, ids: Iterable<string>, problems: string[]): ReadonlySet<string> {
  const set = new Set<string>();
  for (const id of ids) {
    const trimmed = id.trim();
    if (trimmed === '') problems.push(`${name}: empty user id`);
    else set.add(trimmed);
  }
  return set;
}

function checkCount(name: string, count: number | undefined, problems: string[]): void {
  if (count === undefined || !Number.isInteger(count)) problems.push(`${name} must be a whole number, got ${count}`);
  else if (count < MIN_APPROVALS)
    problems.push(`${name} is ${count}: money never moves with fewer than ${MIN_APPROVALS} approvals`);
}

function checkThreshold(i: number, t: AmountThreshold, problems: string[]): void {
  if (t.currency.trim() === '') problems.push(`threshold ${i + 1}: currency is empty`);
  if (!isDecimal(t.atLeast))
    problems.push(`threshold ${i + 1}: atLeast must be a decimal string, got ${JSON.stringify(t.atLeast)}`);
  checkCount(`threshold ${i + 1} approvals`, t.approvals, problems);
}

function checkDuration(name: string, ms: number, problems: string[]): void {
  if (!Number.isSafeInteger(ms) || ms <= 0) problems.push(`${name} must be a positive duration, got ${ms} ms`);
}
