// Who counts for which group of a rule. One person fills at most one place, even when they are in
// two groups, and the places are filled as well as the approvals allow (a matching, not first come):
// Ana in treasury and risk, Ben and Cy in treasury meet "2 of treasury and 1 of risk".
import { ANY_APPROVER, type Policy, type Requirement } from './model.js';

/** The groups a person counts in now. The one seam for anything that lends a person groups. */
export type GroupsOf = (userId: string) => ReadonlySet<string>;

export interface GroupTally {
  group: string;
  /** How many the rule needs from this group. */
  count: number;
  /** Who counts for it, in the order they approved. */
  by: string[];
}

export interface Tally {
  groups: GroupTally[];
  /** Every place filled. */
  met: boolean;
  /** Everyone who counts, in approval order. */
  counted: string[];
}

/** The policy's groups as they are now; everyone in one is also in ANY_APPROVER. */
export function groupsIn(policy: Pick<Policy, 'groups'>): GroupsOf {
  return (userId) => {
    const groups = new Set<string>();
    for (const [name, members] of policy.groups) if (members.has(userId)) groups.add(name);
    if (groups.size > 0) groups.add(ANY_APPROVER);
    return groups;
  };
}

/** Fills the requirement's places from `people` (distinct, in approval order) as fully as possible. */
export function tally(require: readonly Requirement[], people: readonly string[], groupsOf: GroupsOf): Tally {
  const places = require.flatMap((r) => Array.from({ length: r.count }, () => r.group));
  const holder: (string | undefined)[] = places.map(() => undefined);
  const memo = new Map<string, ReadonlySet<string>>();
  const groups = (person: string) => memo.get(person) ?? memo.set(person, groupsOf(person)).get(person)!;
  // Kuhn's augmenting paths: a person takes a free place of theirs, or moves its holder to another.
  const place = (person: string, visited: Set<number>): boolean => {
    for (let i = 0; i < places.length; i++) {
      if (visited.has(i) || !groups(person).has(places[i]!)) continue;
      visited.add(i);
      const current = holder[i];
      if (current === undefined || place(current, visited)) {
        holder[i] = person;
        return true;
      }
    }
    return false;
  };
  for (const person of new Set(people)) place(person, new Set());
  const order = new Map([...new Set(people)].map((p, i) => [p, i]));
  const byOrder = (a: string, b: string) => order.get(a)! - order.get(b)!;
  const result = require.map((r) => ({
    group: r.group,
    count: r.count,
    by: places
      .map((g, i) => (g === r.group ? holder[i] : undefined))
      .filter((p): p is string => p !== undefined)
      .sort(byOrder),
  }));
  const counted = holder.filter((p): p is string => p !== undefined).sort(byOrder);
  return { groups: merged(result), met: counted.length === places.length, counted };
}

/** One line per group even when a rule names a group twice. */
function merged(groups: GroupTally[]): GroupTally[] {
  const out = new Map<string, GroupTally>();
  for (const g of groups) {
    const seen = out.get(g.group);
    if (seen) out.set(g.group, { group: g.group, count: seen.count + g.count, by: [...seen.by, ...g.by] });
    else out.set(g.group, { ...g, by: [...g.by] });
  }
  return [...out.values()];
}

/** Total places of a requirement. */
export function placesOf(require: readonly Requirement[]): number {
  return require.reduce((sum, r) => sum + r.count, 0);
}
