// Which rule decides a request: the first whose criteria all hold. A value criterion reads the value
// frozen in the snapshot; a request never priced in that currency is taken as large, never as small.
import { canonicalJson, sha256Hex } from '../canonical.js';
import type { Snapshot } from '../request.js';
import { principalOf, valueAtLeast } from '../valuation.js';
import type { FrozenRule, Policy, Rule, RuleMatch } from './model.js';

/** A withdrawal's asset or currency, a trade's base; a removal has none. */
export function assetOf(snapshot: Snapshot): string | undefined {
  switch (snapshot.kind) {
    case 'crypto_withdrawal':
      return snapshot.asset;
    case 'fiat_withdrawal':
      return snapshot.currency;
    case 'trade':
      return snapshot.symbol.split('-')[0];
    case 'bank_account_removal':
      return undefined;
  }
}

/** Kind and asset only (what holds before the request is priced). */
function matchesTerms(match: RuleMatch, snapshot: Snapshot): boolean {
  if (match.kinds && !match.kinds.includes(snapshot.kind)) return false;
  if (match.assets) {
    const asset = assetOf(snapshot);
    if (asset === undefined || !match.assets.includes(asset)) return false;
  }
  return true;
}

export function ruleMatches(rule: Pick<Rule, 'match'>, snapshot: Snapshot): boolean {
  if (!matchesTerms(rule.match, snapshot)) return false;
  const v = rule.match.valueAtLeast;
  if (v === undefined) return true;
  // A request that moves nothing has no value: a value rule never matches it.
  if (principalOf(snapshot) === undefined) return false;
  return valueAtLeast(snapshot, v.amount, v.currency) ?? true;
}

/** The rule that decides this request, or undefined when none matches. */
export function ruleFor(policy: Pick<Policy, 'rules'>, snapshot: Snapshot): Rule | undefined {
  return policy.rules.find((rule) => ruleMatches(rule, snapshot));
}

/**
 * The currencies the request must be priced in for the rules to decide: those of the value rules
 * that could match it, up to the first rule that matches without a value.
 */
export function currenciesToValue(policy: Pick<Policy, 'rules'>, snapshot: Snapshot): string[] {
  if (principalOf(snapshot) === undefined) return [];
  const currencies = new Set<string>();
  for (const rule of policy.rules) {
    if (!matchesTerms(rule.match, snapshot)) continue;
    if (rule.match.valueAtLeast === undefined) break;
    currencies.add(rule.match.valueAtLeast.currency);
  }
  return [...currencies];
}

export function freeze(rule: Rule): FrozenRule {
  const frozen: FrozenRule = { name: rule.name, hash: rule.hash, require: rule.require.map((r) => ({ ...r })) };
  if (rule.expiresAfterMs !== undefined) frozen.expiresAfterMs = rule.expiresAfterMs;
  if (rule.remindAfterMs !== undefined) frozen.remindAfterMs = rule.remindAfterMs;
  if (rule.remindEveryMs !== undefined) frozen.remindEveryMs = rule.remindEveryMs;
  if (rule.stepUp) frozen.stepUp = true;
  return frozen;
}

/** SHA-256 of what a rule or limit says (its name included), as written. */
export function hashOf(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
