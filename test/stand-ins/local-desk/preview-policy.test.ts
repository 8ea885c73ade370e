// The local desk's default policy is a valid policy file like the example, with the cast's risk officer.
import { describe, expect, it } from 'vitest';
import { readPolicyFile } from '../../../src/bot/config/policy-file.js';
import { PREVIEW_POLICY } from '../../../src/stand-ins/preview/preview-policy.js';
import { PREVIEW_IDS, PREVIEW_PEOPLE } from '../../../src/stand-ins/preview/preview-cast.js';

describe("the local desk's policy", () => {
  it('is valid; large withdrawals need the risk officer, who is in the cast', () => {
    const read = readPolicyFile('policy.yaml', () => PREVIEW_POLICY);
    expect(read.ok ? [] : read.problems).toEqual([]);
    const policy = read.policy!;
    expect(policy.rules.map((r) => r.name)).toEqual([
      'large withdrawals',
      'large USDT withdrawals',
      'large USDC withdrawals',
      'trades',
      'everything else',
    ]);
    expect([...policy.groups.get('risk')!]).toEqual([PREVIEW_IDS.risk]);
    expect(PREVIEW_PEOPLE.find((p) => p.id === PREVIEW_IDS.risk)?.name).toBe('Rita Risk');
    expect(policy.requesters.has(PREVIEW_IDS.trader)).toBe(true);
  });
});
