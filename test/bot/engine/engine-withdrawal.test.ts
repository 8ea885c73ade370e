import { describe, expect, it } from 'vitest';
import { RECIPIENT_DETAILS_ADVICE } from '../../../src/bot/engine/execution/recipient-advice.js';
import { ADDR_COOLDOWN, ADDR_OK } from './support/fake-exchange.js';
import { requestAndApprove } from './support/flow.js';
import { cryptoInput, fiatInput, removalInput } from './support/requests.js';
import { World } from './support/world.js';

describe('crypto withdrawal execution', () => {
  it('persists executing with the key, then sends exactly the snapshot', async () => {
    const world = new World();
    let seenState: string | undefined;
    world.exchange.onCommit = (commit) => {
      const live = world.requests.dump().live;
      seenState = live.find((r) => r.execution?.attempts.some((a) => a.key === commit.key))?.state;
    };
    const r = await requestAndApprove(world, cryptoInput());
    expect(seenState).toBe('executing');
    expect(world.exchange.commits[0]!.body).toEqual({
      crypto_currency_id: 1,
      amount: '250.123456',
      address_book_address_id: ADDR_OK,
      request_id: r.execution!.attempts[0]!.key,
      // The requester's note, then the desk reference, exactly as frozen into the snapshot approvers saw.
      note: `OTC settlement <!channel> · desk ${r.id}-1`,
      transaction_purpose: 'settlement',
    });
    expect(r.snapshot).toMatchObject({
      note: 'OTC settlement <!channel>',
      exchangeNote: `OTC settlement <!channel> · desk ${r.id}-1`,
    });
    expect(r).toMatchObject({ state: 'submitted', execution: { exchangeId: world.exchange.withdrawals[0]!.id } });
    expect(r.remote).toMatchObject({
      status: 'pending',
      travelRuleStatus: 'pending',
      pendingReason: 'travel_rule_check',
    });
    expect(world.auditOf('execution.attempt', r.id)[0]).toMatchObject({
      data: { idempotencyKey: r.execution!.attempts[0]!.key, approvers: ['U_A2', 'U_A3'] },
    });
    expect(world.eventsOf('execution.submitted', r.id)).toHaveLength(1);
    expect(world.eventsOf('status.changed', r.id)).toHaveLength(1);
  });

  it('a 4xx fails the request with the exchange message kept', async () => {
    const world = new World();
    world.exchange.fail('createCryptoWithdrawal', {
      when: 'before',
      error: { status: 422, message: 'Recipient information is missing' },
    });
    const r = await requestAndApprove(world, cryptoInput());
    expect(r).toMatchObject({
      state: 'failed',
      failure: { stage: 'exchange', exchangeMessage: 'Recipient information is missing' },
    });
    expect(r.execution!.attempts[0]).toMatchObject({ outcome: 'refused', message: 'Recipient information is missing' });
    const failed = world.eventsOf('execution.failed', r.id)[0];
    expect(failed).toMatchObject({ exchangeMessage: 'Recipient information is missing' });
  });

  it('a 422 for missing recipient details tells the requester what to do; other refusals get no advice', async () => {
    const missing = new World();
    missing.exchange.fail('createCryptoWithdrawal', {
      when: 'before',
      error: { status: 422, message: 'Recipient information is missing.' },
    });
    const r = await requestAndApprove(missing, cryptoInput());
    expect(r.failure).toEqual({
      stage: 'exchange',
      reason: `The exchange refused: Recipient information is missing. ${RECIPIENT_DETAILS_ADVICE}`,
      exchangeMessage: 'Recipient information is missing.',
    });
    expect(missing.eventsOf('execution.failed', r.id)[0]).toMatchObject({
      reason: expect.stringContaining(RECIPIENT_DETAILS_ADVICE),
    });

    const other = new World();
    other.exchange.fail('createCryptoWithdrawal', {
      when: 'before',
      error: { status: 422, message: 'Address is not verified' },
    });
    const o = await requestAndApprove(other, cryptoInput());
    expect(o.failure?.reason).toBe('The exchange refused: Address is not verified');

    // The same words on another status are not the missing-details refusal the advice is for.
    const forbidden = new World();
    forbidden.exchange.fail('createCryptoWithdrawal', {
      when: 'before',
      error: { status: 403, message: 'Recipient information is missing' },
    });
    const f = await requestAndApprove(forbidden, cryptoInput());
    expect(f.failure?.reason).not.toContain(RECIPIENT_DETAILS_ADVICE);
  });

  it.each([
    [
      'balance',
      (w: World) => w.exchange.balances.set('USDT', '251.12345'),
      /available USDT balance \(251.12345\) does not cover the amount plus fee \(251.123456\)/,
    ],
    ['unverified', (w: World) => (w.exchange.addresses[0]!.status = 'pending'), /not verified/],
    ['removed', (w: World) => w.exchange.addresses.splice(0, 1), /no longer in the address book/],
    ['fee', (w: World) => (w.exchange.entries[0]!.withdrawal_fee = '2'), /fee rose from 1 to 2/],
  ])('re-checks before executing: %s', async (_name, change, reason) => {
    const world = new World();
    const res = await world.engine.request('U_REQ', cryptoInput());
    if (!res.ok) throw new Error('fixture');
    change(world);
    await world.engine.approve(res.request.id, 'U_A2', res.request.snapshotHash);
    const last = await world.engine.approve(res.request.id, 'U_A3', res.request.snapshotHash);
    await (last.ok && last.execution);
    const r = await world.record(res.request.id);
    expect(r.state).toBe('failed');
    expect(r.failure?.stage).toBe('checks');
    expect(r.failure?.reason).toMatch(reason);
    expect(world.exchange.commits).toHaveLength(0);
  });

  it('a destination in cooldown schedules the execution, says so once, and executes when it has passed', async () => {
    const world = new World();
    const until = world.clock.now() + 3_600_000;
    world.exchange.addresses.find((a) => a.id === ADDR_COOLDOWN)!.withdrawal_cooldown_until = until;
    const r = await requestAndApprove(world, cryptoInput('50', { addressBookId: ADDR_COOLDOWN }));
    expect(r).toMatchObject({ state: 'approved', execution: { scheduledAt: until } });
    await world.advanceAndTick(60_000);
    await world.advanceAndTick(60_000);
    expect(world.eventsOf('execution.scheduled', r.id)).toHaveLength(1);
    expect(world.exchange.commits).toHaveLength(0);
    await world.advanceAndTick(until - world.clock.now());
    expect((await world.record(r.id)).state).toBe('submitted');
    expect(world.exchange.commits).toHaveLength(1);
  });

  it('checks that cannot read the exchange are retried later, then fail after the bound', async () => {
    const world = new World({ config: { maxCheckFailures: 2, checkRetryMs: 1000 } });
    const res = await world.engine.request('U_REQ', cryptoInput());
    if (!res.ok) throw new Error('fixture');
    world.exchange.faultPolicy = (op) => (op === 'read' ? { when: 'before', error: 'timeout' } : undefined);
    await world.engine.approve(res.request.id, 'U_A2', res.request.snapshotHash);
    await world.engine.approve(res.request.id, 'U_A3', res.request.snapshotHash);
    await world.engine.idle();
    expect((await world.record(res.request.id)).state).toBe('approved');
    await world.advanceAndTick(500);
    expect((await world.record(res.request.id)).state).toBe('approved');
    await world.advanceAndTick(500);
    expect(await world.record(res.request.id)).toMatchObject({ state: 'failed', failure: { stage: 'checks' } });
  });
});

describe('fiat withdrawal and bank account removal', () => {
  it('fiat: limits, fee and balance are checked, and the body carries the request_id and the desk reference', async () => {
    const world = new World();
    const r = await requestAndApprove(world, fiatInput('1000.50'));
    expect(r.snapshot).toMatchObject({
      amount: '1000.5',
      fee: '20',
      total: '1020.5',
      bankAccount: { display: 'DBS USD ••••5678 (ACME PTE LTD)' },
    });
    expect(world.exchange.commits[0]!.body).toEqual({
      bank_account_id: 101,
      currency: 'USD',
      amount: '1000.5',
      request_id: r.execution!.attempts[0]!.key,
      note: `desk ${r.id}-1`,
    });
    expect(r.state).toBe('submitted');
  });

  it('fiat: a limit lowered after the request fails it before sending', async () => {
    const world = new World();
    const res = await world.engine.request('U_REQ', fiatInput('1000'));
    if (!res.ok) throw new Error('fixture');
    world.exchange.fiatLimits[0]!.maximum_withdrawal_amount = '500';
    await world.engine.approve(res.request.id, 'U_A2', res.request.snapshotHash);
    await world.engine.approve(res.request.id, 'U_A3', res.request.snapshotHash);
    await world.engine.idle();
    expect(await world.record(res.request.id)).toMatchObject({
      state: 'failed',
      failure: { reason: expect.stringMatching(/above the maximum of 500/) },
    });
  });

  it.each([
    [
      'the saved address got another tag/memo',
      (w: World): void => void (w.exchange.addresses[0]!.address_tag = '12345'),
      /another tag\/memo/,
    ],
    [
      'the bank account got another account number',
      (w: World): void => void (w.exchange.bankAccounts[0]!.account_number = '0099999999'),
      /another account number/,
    ],
    [
      'the bank account moved to another currency',
      (w: World): void => void (w.exchange.bankAccounts[0]!.currency = 'SGD'),
      /no longer exists|now in SGD/,
    ],
  ] as const)('changed after approval, %s: failed before anything is sent', async (what, change, reason) => {
    const world = new World();
    const input = what.startsWith('the saved') ? cryptoInput() : fiatInput('1000');
    const res = await world.engine.request('U_REQ', input);
    if (!res.ok) throw new Error('fixture');
    change(world);
    await world.engine.approve(res.request.id, 'U_A2', res.request.snapshotHash);
    await world.engine.approve(res.request.id, 'U_A3', res.request.snapshotHash);
    await world.engine.idle();
    expect(await world.record(res.request.id)).toMatchObject({
      state: 'failed',
      failure: { stage: 'checks', reason: expect.stringMatching(reason) },
    });
    expect(world.exchange.commits).toHaveLength(0);
  });

  it('bank removal: DELETE on approval completes it', async () => {
    const world = new World();
    const r = await requestAndApprove(world, removalInput(102));
    expect(r.state).toBe('completed');
    expect(world.exchange.bankAccounts.map((b) => b.id)).toEqual([101]);
    expect(world.eventsOf('request.completed', r.id)).toHaveLength(1);
  });

  it('bank removal: unknown outcome, then the account is found gone: completed, one DELETE', async () => {
    const world = new World();
    world.exchange.fail('deleteBankAccount', { when: 'after', error: 'timeout' });
    const r = await requestAndApprove(world, removalInput(102));
    expect(r.state).toBe('completed');
    expect(world.exchange.commits).toHaveLength(1);
    expect(world.exchange.calls.filter((c) => c.op === 'deleteBankAccount')).toHaveLength(1);
  });

  it('bank removal: unknown, not gone, resent after the settle time; a 404 then means removed', async () => {
    const world = new World();
    world.exchange.fail('deleteBankAccount', { when: 'before', error: 'network' }, { when: 'after', error: 'server' });
    const r = await requestAndApprove(world, removalInput(102));
    expect(r.state).toBe('unknown');
    await world.advanceAndTick(5_000);
    // The resend committed but its answer was lost too; the next look finds it gone.
    expect((await world.record(r.id)).state).toBe('completed');
    expect(world.exchange.commits).toHaveLength(1);
  });
});
