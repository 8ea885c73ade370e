// Approval rules over the sandbox through the real client: the exchange only answers (facts, quotes,
// one withdrawal); its seeded facts are the ones the expectations name.
import { afterEach, describe, expect, it } from 'vitest';
import { APPROVERS, OUTSIDER, REQUESTER, type World } from './support/world.js';
import { fiatInput, tradeInput } from './support/seeded.js';
import { sandboxWorld, type SandboxForEngine } from './support/sandbox-requests.js';
import type { WorldOptions } from './support/world.js';
import type { RequestInput } from '../../../src/bot/engine/approval/make-request.js';

/** Seeded sandbox facts: USDT on Ethereum (6 decimals, fee 6), BTC (8 decimals, fee 0.0002), USD bank account 1001. */
const BTC_ENTRY = 101;
const USD_BANK = 1001;
const UNVERIFIED_BTC_ADDRESS = 'a4f1f3ff-9ab2-4a22-b578-063476c11976';
const TREASURY_BTC_ADDRESS = '049689eb-021b-4eb2-a30d-53596418c25f';

let open: SandboxForEngine[] = [];
afterEach(async () => {
  await Promise.all(open.map((s) => s.close()));
  open = [];
});

let sandbox: SandboxForEngine;
async function onSandbox(options: WorldOptions = {}): Promise<World> {
  const made = await sandboxWorld('engine-approval', options);
  open.push(made.sandbox);
  sandbox = made.sandbox;
  // BTC-USD at a still mid: a buy locks it plus the 10 bps spread, 60060.
  sandbox.sandbox.control.setPrice({ symbol: 'BTC-USD', price: '60000', driftBps: 0, volatilityBps: 0 });
  return made.world;
}
const cryptoInput = (amount?: string) => sandbox.cryptoInput(amount);
const btcTo = (addressBookId: string, amount: string): RequestInput => ({
  kind: 'crypto_withdrawal',
  cryptoCurrencyId: BTC_ENTRY,
  addressBookId,
  amount,
  note: 'OTC settlement',
  purpose: 'settlement',
});
/** Withdrawals the sandbox made (beyond its 3 seeded ones). */
const commits = () => sandbox.sandbox.control.withdrawals().filter((w) => w.request_id !== null);
const quotes = () => sandbox.sandbox.control.quotes();

async function pending(world: World) {
  const r = await world.engine.request(REQUESTER, cryptoInput());
  if (!r.ok) throw new Error(r.message);
  return r.request;
}

describe('requests', () => {
  it('freezes the snapshot from exchange facts: the amount as typed, fee, total, destination', async () => {
    const world = await onSandbox();
    const request = await pending(world);
    expect(request.state).toBe('pending');
    expect(request.snapshot).toMatchObject({
      kind: 'crypto_withdrawal',
      asset: 'USDT',
      network: 'Ethereum (ERC20)',
      amount: '250.123456',
      fee: '6',
      total: '256.123456',
      destination: { label: 'OTC partner (ERC20)', address: '0x0bde1bac296b309442180860192a571ba5ef921f' },
      note: 'OTC settlement <!channel>',
    });
    expect(request.requiredApprovals).toBe(2);
    expect(request.expiresAt - request.createdAt).toBe(24 * 3_600_000);
    await world.engine.idle();
    expect(world.eventsOf('request.created')).toHaveLength(1);
    expect(world.auditOf('request.created', request.id)[0]).toMatchObject({
      actor: REQUESTER,
      data: { snapshotHash: request.snapshotHash },
    });
  });

  it('refuses an amount with more decimals than the asset takes, whoever sends it (never rounds money away)', async () => {
    const world = await onSandbox();
    const r = await world.engine.request(REQUESTER, cryptoInput('250.1234567'));
    expect(r).toMatchObject({
      ok: false,
      reason: 'invalid_input',
      field: 'amount',
      message: 'USDT takes at most 6 decimals. Did you mean 250.123456? (rounded down)',
    });
    expect(await world.engine.listLive()).toEqual([]);
  });

  // A driver other than the Slack form (or a form out of step with the exchange) reaches the same
  // rule: the engine refuses with the domain's sentence, and nothing is written or quoted.
  it('refuses an over-precise amount that bypasses the Slack form, for an 8-decimal asset, rather than rounding it', async () => {
    const world = await onSandbox();
    sandbox.sandbox.control.updateAddress(TREASURY_BTC_ADDRESS, { withdrawal_cooldown_until: null });
    const btc = (amount: string) => btcTo(TREASURY_BTC_ADDRESS, amount);
    const r = await world.engine.request(REQUESTER, btc('1.123456789'));
    expect(r).toEqual({
      ok: false,
      reason: 'invalid_input',
      field: 'amount',
      message: 'BTC takes at most 8 decimals. Did you mean 1.12345678? (rounded down)',
    });
    expect(await world.engine.listLive()).toEqual([]);
    expect(world.auditOf('request.refused')).toMatchObject([
      { actor: REQUESTER, data: { field: 'amount', message: expect.stringContaining('Did you mean 1.12345678?') } },
    ]);
    // The value offered is accepted as it is, with the entry's fee added.
    const ok = await world.engine.request(REQUESTER, btc('1.12345678'));
    expect(ok).toMatchObject({
      ok: true,
      request: { snapshot: { asset: 'BTC', amount: '1.12345678', fee: '0.0002', total: '1.12365678' } },
    });
    expect(commits()).toHaveLength(0);
  });

  it('refuses a fiat amount with a third decimal and a trade quantity with a ninth, before any quote is taken', async () => {
    const world = await onSandbox();
    expect(await world.engine.request(REQUESTER, fiatInput('1000.005', { bankAccountId: USD_BANK }))).toEqual({
      ok: false,
      reason: 'invalid_input',
      field: 'amount',
      message: 'USD takes at most 2 decimals. Did you mean 1000? (rounded down)',
    });
    expect(await world.engine.request(REQUESTER, tradeInput({ quantity: '0.123456789' }))).toEqual({
      ok: false,
      reason: 'invalid_input',
      field: 'quantity',
      message: 'BTC takes at most 8 decimals. Did you mean 0.12345678? (rounded down)',
    });
    expect(quotes()).toHaveLength(0);
    expect(await world.engine.listLive()).toEqual([]);
  });

  it('quotes and freezes a trade for the quantity and price as the amount rule read them', async () => {
    const world = await onSandbox();
    const r = await world.engine.request(REQUESTER, tradeInput({ quantity: '.50', limit: { price: ' 60100.' } }));
    expect(r).toMatchObject({ ok: true, request: { snapshot: { quantity: '0.5', limitPrice: '60100' } } });
    expect(quotes().map((q) => q.quantity)).toEqual(['0.5']);
  });

  it('refuses non-requesters, bad input and exchange errors with reasons, and audits them', async () => {
    const world = await onSandbox();
    expect(await world.engine.request(OUTSIDER, cryptoInput())).toMatchObject({
      ok: false,
      reason: 'not_allowed_to_request',
    });
    expect(await world.engine.request(REQUESTER, cryptoInput('0.0000001'))).toMatchObject({
      ok: false,
      reason: 'invalid_input',
      field: 'amount',
    });
    expect(await world.engine.request(REQUESTER, btcTo(UNVERIFIED_BTC_ADDRESS, '0.001'))).toMatchObject({
      ok: false,
      field: 'destination',
    });
    // Every read answers 502 (the client's retries too): the exchange's own message reaches the requester.
    sandbox.sandbox.control.setFaults([{ kind: 'error', method: 'GET', status: 502 }]);
    expect(await world.engine.request(REQUESTER, cryptoInput())).toMatchObject({
      ok: false,
      reason: 'exchange_error',
      message: 'Internal server error (sandbox fault injection)',
    });
    sandbox.sandbox.control.clearFaults();
    expect(world.auditOf('request.refused')).toHaveLength(4);
    expect(await world.requests.listLive()).toEqual([]);
  });

  it('a trade request takes an indicative quote and derives the limit from the slippage', async () => {
    const world = await onSandbox();
    const r = await world.engine.request(REQUESTER, tradeInput());
    expect(r).toMatchObject({
      ok: true,
      request: { snapshot: { quote: { price: '60060' }, limitPrice: '60360.3', slippageBps: 50 } },
    });
    expect(r.ok && r.request.expiresAt - r.request.createdAt).toBe(15 * 60_000);
  });
});

describe('approvals', () => {
  it('two distinct approvers other than the requester approve, then it executes', async () => {
    const world = await onSandbox();
    const request = await pending(world);
    const first = await world.engine.approve(request.id, 'U_A2', request.snapshotHash);
    expect(first).toMatchObject({ ok: true, count: 1, required: 2, approved: false, execution: undefined });
    const second = await world.engine.approve(request.id, 'U_A3', request.snapshotHash);
    expect(second).toMatchObject({ ok: true, count: 2, required: 2, approved: true });
    await (second.ok && second.execution);
    expect((await world.record(request.id)).state).toBe('submitted');
    expect(commits()).toHaveLength(1);
    await world.engine.idle();
    expect(
      world.eventsOf('approval.counted').map((e) => (e.type === 'approval.counted' ? [e.by, e.count, e.required] : [])),
    ).toEqual([
      ['U_A2', 1, 2],
      ['U_A3', 2, 2],
    ]);
  });

  it('refuses the requester, outsiders, duplicates, stale snapshots and decided requests, each with its sentence', async () => {
    const world = await onSandbox();
    const request = await pending(world);
    const refusals = [
      await world.engine.approve(request.id, REQUESTER, request.snapshotHash),
      await world.engine.approve(request.id, OUTSIDER, request.snapshotHash),
      await world.engine.approve(request.id, 'U_A2', 'not-the-hash'),
      await world.engine.approve(request.id, 'U_A2', request.snapshotHash),
      await world.engine.approve(request.id, 'U_A2', request.snapshotHash),
      await world.engine.approve('NOPE', 'U_A2', request.snapshotHash),
    ];
    expect(refusals.map((r) => (r.ok ? 'ok' : r.reason))).toEqual([
      'own_request',
      'not_approver',
      'stale_snapshot',
      'ok',
      'already_approved',
      'not_found',
    ]);
    expect(refusals[0]).toMatchObject({ message: 'You requested this, so your approval cannot count.' });
    expect(refusals[1]).toMatchObject({ message: 'You are not an approver.' });
    expect(refusals[4]).toMatchObject({ message: 'You already approved this.' });
    await world.engine.reject(request.id, 'U_A3', 'wrong wallet');
    expect(await world.engine.approve(request.id, 'U_A3', request.snapshotHash)).toMatchObject({
      ok: false,
      reason: 'already_decided',
      message: 'This request is already decided.',
    });
    expect(world.auditOf('approval.refused', request.id)).toHaveLength(5);
    await world.engine.idle();
    expect(world.eventsOf('approval.refused')).toHaveLength(5);
    expect(commits()).toHaveLength(0);
  });

  it('an approver who is also a requester cannot approve their own request but approves others', async () => {
    const world = await onSandbox();
    const own = await world.engine.request('U_A1', cryptoInput());
    if (!own.ok) throw new Error('fixture');
    expect(await world.engine.approve(own.request.id, 'U_A1', own.request.snapshotHash)).toMatchObject({
      ok: false,
      reason: 'own_request',
    });
    const other = await pending(world);
    expect(await world.engine.approve(other.id, 'U_A1', other.snapshotHash)).toMatchObject({ ok: true, count: 1 });
  });

  it('concurrent and redelivered approvals count once and execute once', async () => {
    const world = await onSandbox();
    const request = await pending(world);
    const clicks = [...APPROVERS, ...APPROVERS, 'U_A2', REQUESTER, OUTSIDER].map((user) =>
      world.engine.approve(request.id, user, request.snapshotHash),
    );
    const results = await Promise.all(clicks);
    await world.engine.idle();
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    expect(results.filter((r) => r.ok && r.approved)).toHaveLength(1);
    expect((await world.record(request.id)).approvals).toHaveLength(2);
    expect(commits()).toHaveLength(1);
  });

  it('a higher count by amount needs three', async () => {
    const world = await onSandbox({ policy: { thresholds: [{ currency: 'USDT', atLeast: '200', approvals: 3 }] } });
    const request = await pending(world);
    expect(request.requiredApprovals).toBe(3);
    await world.engine.approve(request.id, 'U_A1', request.snapshotHash);
    const second = await world.engine.approve(request.id, 'U_A2', request.snapshotHash);
    expect(second).toMatchObject({ ok: true, count: 2, required: 3, approved: false });
    const third = await world.engine.approve(request.id, 'U_A3', request.snapshotHash);
    expect(third).toMatchObject({ approved: true });
  });
});

describe('reject, cancel, expire', () => {
  it('reject needs a reason and an approver; the reason is kept', async () => {
    const world = await onSandbox();
    const request = await pending(world);
    expect(await world.engine.reject(request.id, 'U_A2', '')).toMatchObject({ ok: false, reason: 'reason_required' });
    expect(await world.engine.reject(request.id, OUTSIDER, 'no')).toMatchObject({ ok: false, reason: 'not_approver' });
    const r = await world.engine.reject(request.id, 'U_A2', 'wrong wallet');
    expect(r).toMatchObject({
      ok: true,
      request: { state: 'rejected', decision: { by: 'U_A2', reason: 'wrong wallet' } },
    });
    expect(await world.engine.reject(request.id, 'U_A3', 'again')).toMatchObject({
      ok: false,
      reason: 'already_decided',
    });
    expect(world.auditOf('request.rejected', request.id)[0]).toMatchObject({
      actor: 'U_A2',
      data: { reason: 'wrong wallet' },
    });
    expect(await world.requests.listLive()).toEqual([]);
    expect(await world.engine.recent(5)).toHaveLength(1);
  });

  it('only the requester cancels, only while pending', async () => {
    const world = await onSandbox();
    const request = await pending(world);
    expect(await world.engine.cancel(request.id, 'U_A2')).toMatchObject({ ok: false, reason: 'not_requester' });
    expect(await world.engine.cancel(request.id, REQUESTER)).toMatchObject({
      ok: true,
      request: { state: 'cancelled' },
    });
    expect(await world.engine.cancel(request.id, REQUESTER)).toMatchObject({ ok: false, reason: 'already_decided' });
  });

  it('expires on tick after the deadline, and an approval after the deadline is refused', async () => {
    const world = await onSandbox();
    const a = await pending(world);
    const b = await pending(world);
    world.clock.advance(24 * 3_600_000 - 1);
    await world.engine.tick();
    expect((await world.record(a.id)).state).toBe('pending');
    world.clock.advance(1);
    expect(await world.engine.approve(b.id, 'U_A2', b.snapshotHash)).toMatchObject({
      ok: false,
      reason: 'already_decided',
      message: 'This request has expired.',
    });
    expect(await world.engine.tick()).toMatchObject({ expired: 1 });
    expect((await world.record(a.id)).state).toBe('expired');
    expect((await world.record(b.id)).state).toBe('expired');
    await world.engine.idle();
    expect(world.eventsOf('request.expired')).toHaveLength(2);
  });

  it('waitingFor lists what a user can still approve', async () => {
    const world = await onSandbox();
    const request = await pending(world);
    await world.engine.approve(request.id, 'U_A2', request.snapshotHash);
    expect((await world.engine.waitingFor('U_A2')).map((r) => r.id)).toEqual([]);
    expect((await world.engine.waitingFor('U_A3')).map((r) => r.id)).toEqual([request.id]);
    expect(await world.engine.waitingFor(REQUESTER)).toEqual([]);
  });
});
