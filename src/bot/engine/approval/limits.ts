// The policy's limits where a request is counted: when it is made (refused with the room left) and
// again at its last approval, in the same write (mutateInScope: one at a time across replicas), so
// two requests that each fit alone but not together cannot both be approved.
import {
  checkLimits,
  longestWindow,
  requirementOf,
  type LimitCheck,
  type Policy,
  type Requirement,
} from '../../domain/policy.js';
import { limitAmount } from '../../domain/policy/limits.js';
import type { RequestRecord } from '../../domain/record.js';
import { refuse, type Refusal } from '../../domain/refusals.js';
import type { Snapshot } from '../../domain/request.js';

export type LimitJudgement = { ok: true; added: { limit: string; require: Requirement[] }[] } | Refusal;

/** True when a limit covers the request: its counting write must see the others. */
export function isLimited(policy: Pick<Policy, 'limits'>, snapshot: Snapshot): boolean {
  return policy.limits.some((l) => limitAmount(l, snapshot) !== undefined);
}

/** How far back the write must see finished requests. */
export function limitScope(policy: Pick<Policy, 'limits'>, now: number): { since: number } {
  return { since: now - longestWindow(policy) };
}

/** Refused over a limit that refuses; the groups of a limit that asks for more; else nothing added. */
export function judgeLimits(
  policy: Pick<Policy, 'limits'>,
  snapshot: Snapshot,
  others: readonly RequestRecord[],
  now: number,
): LimitJudgement {
  const over = checkLimits(policy, snapshot, others, now).filter((c) => c.over);
  const refusing = over.find((c) => c.limit.over === 'refuse');
  if (refusing) return refuse('over_limit', overText(refusing));
  return {
    ok: true,
    added: over.flatMap((c) =>
      c.limit.over === 'refuse' ? [] : [{ limit: c.limit.name, require: c.limit.over.require.map((r) => ({ ...r })) }],
    ),
  };
}

/** "This would go over the limit "daily BTC outflow" (5 BTC per 24 h): 4 BTC is used, 1 BTC is left, and this request is for 2 BTC." */
export function overText(c: LimitCheck): string {
  const asset = c.limit.match.asset;
  return `This would go over the limit "${c.limit.name}" (${c.limit.max} ${asset} per ${windowText(c.limit.windowMs)}): ${c.used} ${asset} is used, ${c.room} ${asset} is left, and this request is for ${c.amount} ${asset}.`;
}

/** 86400000 -> "24 h", 900000 -> "15 min", 604800000 -> "7 days". */
export function windowText(ms: number): string {
  const DAY = 86_400_000;
  if (ms % DAY === 0 && ms / DAY > 1) return `${ms / DAY} days`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}

/** The groups a limit asks for on top of the rule, in the count and the tally shown. */
export function withLimitGroups(
  record: RequestRecord,
  added: NonNullable<RequestRecord['limitRequire']>,
): RequestRecord {
  const withAdded = { ...record, limitRequire: added };
  const require = requirementOf(withAdded);
  return {
    ...withAdded,
    requiredApprovals: require.reduce((sum, r) => sum + r.count, 0),
    tally: require.map((r) => ({ ...r, by: [] })),
  };
}
