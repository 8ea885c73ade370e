// The policy's destinations: withdrawals of a listed asset only to the saved addresses it names (by label or id).
import { describe, expect, it } from 'vitest';
import { REQUESTER, World } from '../support/world.js';
import { ADDR_COOLDOWN, ADDR_OK, cryptoInput } from '../support/seeded.js';

const world = (destinations: Record<string, string[]>) =>
  new World({
    policy: {
      approvers: undefined,
      requesters: [REQUESTER],
      groups: { treasury: ['U0TREAS01', 'U0TREAS02'] },
      rules: [{ name: 'everything', require: [{ group: 'treasury', count: 2 }] }],
      destinations,
    },
  });

describe('destinations', () => {
  it('allows the named address (by label), refuses another, in the policy words, on the destination field', async () => {
    const w = world({ USDT: ['OTC partner (TRC20)'] });
    expect(await w.engine.request(REQUESTER, cryptoInput('20'))).toMatchObject({ ok: true });
    expect(await w.engine.request(REQUESTER, cryptoInput('20', { addressBookId: ADDR_COOLDOWN }))).toMatchObject({
      ok: false,
      reason: 'invalid_input',
      field: 'destination',
      message: 'The approval policy allows USDT withdrawals only to "OTC partner (TRC20)".',
    });
  });

  it('by id; an asset the policy does not name goes to any saved address', async () => {
    expect(await world({ USDT: [ADDR_OK] }).engine.request(REQUESTER, cryptoInput('20'))).toMatchObject({ ok: true });
    // ADDR_COOLDOWN (in its cooldown on the sandbox) would be refused for that reason, not the policy's.
    expect(await world({ BTC: ['Treasury cold storage'] }).engine.request(REQUESTER, cryptoInput('20'))).toMatchObject({
      ok: true,
    });
  });
});
