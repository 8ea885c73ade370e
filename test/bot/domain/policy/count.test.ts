// Who counts for which group: never the requester (the caller leaves them out), one person once,
// the places filled as well as the approvals allow.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { tally } from '../../../../src/bot/domain/policy/count.js';

const members: Record<string, string[]> = {
  treasury: ['Ana', 'Ben', 'Cy'],
  risk: ['Ana', 'Dee'],
};
const groupsOf = (user: string) => new Set(Object.keys(members).filter((g) => members[g]!.includes(user)));
const largeRule = [
  { group: 'treasury', count: 2 },
  { group: 'risk', count: 1 },
];

describe('tally', () => {
  it.each([
    // approvals in order, met, who counts for treasury, who for risk
    [[], false, [], []],
    [['Ana'], false, ['Ana'], []],
    [['Ana', 'Ben'], false, ['Ana', 'Ben'], []],
    // Ana moves to risk so Ben and Cy fill treasury: a matching, not first come first served.
    [['Ana', 'Ben', 'Cy'], true, ['Ben', 'Cy'], ['Ana']],
    [['Ben', 'Cy', 'Dee'], true, ['Ben', 'Cy'], ['Dee']],
    // Ana in two groups still fills one place.
    [['Ana', 'Ana'], false, ['Ana'], []],
    [['Ana', 'Dee'], false, ['Ana'], ['Dee']],
    // Someone in no group fills nothing.
    [['Zed', 'Ben', 'Cy'], false, ['Ben', 'Cy'], []],
  ])('%j: met %s', (people, met, treasury, risk) => {
    const t = tally(largeRule, people, groupsOf);
    expect(t.met).toBe(met);
    expect(t.groups).toEqual([
      { group: 'treasury', count: 2, by: treasury },
      { group: 'risk', count: 1, by: risk },
    ]);
  });

  it('property: never more counted than places, each person at most once, each in a group of their place', () => {
    const people = ['Ana', 'Ben', 'Cy', 'Dee', 'Zed'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...people), { maxLength: 10 }), (approvals) => {
        const t = tally(largeRule, approvals, groupsOf);
        const all = t.groups.flatMap((g) => g.by);
        expect(new Set(all).size).toBe(all.length);
        for (const g of t.groups) {
          expect(g.by.length).toBeLessThanOrEqual(g.count);
          for (const who of g.by) expect(groupsOf(who).has(g.group)).toBe(true);
        }
        // Met exactly when some assignment exists: brute force over who could fill which place.
        const distinct = [...new Set(approvals)];
        const canFill = (left: string[], places: string[]): boolean =>
          places.length === 0 ||
          left.some(
            (p, i) =>
              groupsOf(p).has(places[0]!) &&
              canFill(
                left.filter((_, j) => j !== i),
                places.slice(1),
              ),
          );
        expect(t.met).toBe(canFill(distinct, ['treasury', 'treasury', 'risk']));
      }),
    );
  });
});
