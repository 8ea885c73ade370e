// Requests priced at request time with the exchange's spot price (the sandbox through the real client):
// frozen in the snapshot, shown to approvers, and a request that cannot be priced is refused.
import { afterEach, describe, expect, it } from 'vitest';
import { REQUESTER, type World, type WorldOptions } from '../support/world.js';
import { sandboxWorld, usableDestination, type SandboxForEngine } from '../support/sandbox-requests.js';
import type { RequestInput } from '../../../../src/bot/engine/approval/make-request.js';
import { viewOf } from '../../../../src/bot/slack/approvals/from-record.js';
import { approvalMessage } from '../../../../src/bot/slack/approvals/approval-message.js';

let open: SandboxForEngine[] = [];
afterEach(async () => {
  await Promise.all(open.map((s) => s.close()));
  open = [];
});

async function onSandbox(options: WorldOptions): Promise<{ world: World; sandbox: SandboxForEngine }> {
  const made = await sandboxWorld('price-request', options);
  open.push(made.sandbox);
  // A still BTC-USD mid: the sandbox quotes buy 60060 and sell 59940 around it (10 bps spread).
  made.sandbox.sandbox.control.setPrice({ symbol: 'BTC-USD', price: '60000', driftBps: 0, volatilityBps: 0 });
  return made;
}

async function btcInput(sandbox: SandboxForEngine, amount: string): Promise<RequestInput> {
  const { address, entry } = await usableDestination(sandbox.api, Date.now(), 'BTC');
  return { kind: 'crypto_withdrawal', cryptoCurrencyId: entry.id, addressBookId: address.id, amount };
}

const spotReads = (sandbox: SandboxForEngine) =>
  sandbox.sandbox.control.requests().filter((c) => c.path.includes('/price/spots')).length;

const LARGE_IN_USD = { thresholds: [{ currency: 'USD', atLeast: '100000', approvals: 3 }] };

describe('a request the policy needs the value of', () => {
  it('is priced with the spot pair, valued at the higher side, frozen in the snapshot and shown', async () => {
    const { world, sandbox } = await onSandbox({ policy: LARGE_IN_USD });
    const r = await world.engine.request(REQUESTER, await btcInput(sandbox, '2'));
    if (!r.ok) throw new Error(r.message);
    const valuation = { currency: 'USD', amount: '2', of: 'BTC', pair: 'BTC-USD', at: world.clock.now() };
    expect(r.request.snapshot).toMatchObject({ valuations: [{ ...valuation, price: '60060', value: '120120' }] });
    expect(r.request.requiredApprovals).toBe(3);
    // Part of what approvals bind to, and of the audit line of the request.
    expect(world.auditOf('request.created', r.request.id)[0]?.data).toMatchObject({
      snapshot: { valuations: [{ value: '120120' }] },
    });
    const shown = JSON.stringify(
      approvalMessage({
        requestId: r.request.id,
        requesterId: REQUESTER,
        createdAt: r.request.createdAt,
        request: viewOf(r.request),
        requiredApprovals: 3,
        approvals: [],
        sandbox: true,
      }),
    );
    expect(shown).toContain('*Value in USD*');
    expect(shown).toContain('120,120 USD');
    expect(shown).toContain('BTC-USD spot');
  });

  it('below the value, keeps the base count (the value is still frozen)', async () => {
    const { world, sandbox } = await onSandbox({ policy: LARGE_IN_USD });
    const r = await world.engine.request(REQUESTER, await btcInput(sandbox, '1'));
    if (!r.ok) throw new Error(r.message);
    expect(r.request.requiredApprovals).toBe(2);
    expect(r.request.snapshot).toMatchObject({ valuations: [{ value: '60060' }] });
  });

  it('is refused, with the reason, when the exchange has no price for the pair: never taken as small', async () => {
    const { world, sandbox } = await onSandbox({
      policy: { thresholds: [{ currency: 'EUR', atLeast: '100000', approvals: 3 }] },
    });
    const r = await world.engine.request(REQUESTER, await btcInput(sandbox, '0.01'));
    expect(r).toMatchObject({ ok: false, reason: 'not_priced' });
    expect(!r.ok && r.message).toContain('BTC-EUR');
    expect(world.auditOf('request.refused')[0]?.data).toMatchObject({ reason: 'not_priced' });
    expect(world.requests.dump().live).toHaveLength(0);
  });

  it('is refused when the spot read fails (the exchange down), never made without its value', async () => {
    const { world, sandbox } = await onSandbox({ policy: LARGE_IN_USD });
    const input = await btcInput(sandbox, '0.01');
    sandbox.sandbox.control.setFaults([{ kind: 'error', status: 500, method: 'GET', path: '/price/spots' }]);
    const r = await world.engine.request(REQUESTER, input);
    expect(r).toMatchObject({ ok: false, reason: 'not_priced' });
    expect(!r.ok && r.message).toContain('BTC-USD');
  });
});

describe('a request the policy does not need the value of', () => {
  it('reads no price and freezes none', async () => {
    const { world, sandbox } = await onSandbox({});
    const before = spotReads(sandbox);
    const r = await world.engine.request(REQUESTER, await btcInput(sandbox, '2'));
    if (!r.ok) throw new Error(r.message);
    expect(r.request.snapshot).not.toHaveProperty('valuations');
    expect(spotReads(sandbox)).toBe(before);
  });

  it('in its own currency needs no price: a USDT withdrawal valued in USDT', async () => {
    const { world, sandbox } = await onSandbox({
      policy: { thresholds: [{ currency: 'USDT', atLeast: '200', approvals: 3 }] },
    });
    const before = spotReads(sandbox);
    const r = await world.engine.request(REQUESTER, sandbox.cryptoInput('250'));
    if (!r.ok) throw new Error(r.message);
    expect(r.request.snapshot).toMatchObject({
      valuations: [{ currency: 'USDT', value: '250', price: '1', pair: null }],
    });
    expect(r.request.requiredApprovals).toBe(3);
    expect(spotReads(sandbox)).toBe(before);
  });
});
