// A rule's expires_after sets how long a request under it waits, and the request keeps it with its rule.
import { describe, expect, it } from 'vitest';
import { REQUESTER, World } from '../support/world.js';
import { cryptoInput } from '../support/seeded.js';

describe("a rule's expires_after", () => {
  it('is the wait of a request under it, frozen with the rule; other requests keep the kind default', async () => {
    const world = new World({
      policy: {
        approvers: undefined,
        requesters: [REQUESTER],
        groups: { treasury: ['U0TREAS01', 'U0TREAS02'] },
        rules: [
          {
            name: 'large USDT',
            match: { assets: ['USDT'], valueAtLeast: { amount: '1000', currency: 'USDT' } },
            require: [{ group: 'treasury', count: 2 }],
          },
          {
            name: 'quick',
            match: { kinds: ['crypto_withdrawal'] },
            require: [{ group: 'treasury', count: 2 }],
            expiresAfterMs: 600_000,
          },
        ],
      },
    });
    const quick = await world.engine.request(REQUESTER, cryptoInput('20'));
    if (!quick.ok) throw new Error(quick.message);
    expect(quick.request.snapshot.rule).toMatchObject({ name: 'quick', expiresAfterMs: 600_000 });
    expect(quick.request.expiresAt - quick.request.createdAt).toBe(600_000);
    const big = await world.engine.request(REQUESTER, cryptoInput('2000'));
    if (!big.ok) throw new Error(big.message);
    expect(big.request.snapshot.rule).toMatchObject({ name: 'large USDT' });
    expect(big.request.expiresAt - big.request.createdAt).toBe(24 * 3_600_000);
  });
});
