import { describe, expect, it } from 'vitest';
import { RECIPIENT_DETAILS_ADVICE } from '../../../src/bot/engine/execution/recipient-advice.js';
import type { EngineExchange } from './support/engine-exchange.js';
import { worldOnSandbox } from './support/world.js';
import { requestAndApprove } from './support/flow.js';
import {
  ADDR_OK,
  cryptoInput,
  fiatInput,
  removalInput,
  SGD_BANK_UNVERIFIED,
  USD_BANK,
  USDT_TRON,
} from './support/seeded.js';

// The sandbox in process: its own checks and records; what a person changes in the exchange's app
// after approval by its control surface; refusals and lost answers by its faults.
const control = (exchange: EngineExchange) => exchange.sandbox.control;

describe('crypto withdrawal execution', () => {
  it('persists executing with the key, then sends exactly the snapshot', async () => {
    const { world, exchange } = worldOnSandbox();
    let seenState: string | undefined;
    exchange.onCommit = (commit) => {
      const key = (commit.body as { request_id?: string }).request_id;
      const live = world.requests.dump().live;
      seenState = live.find((r) => r.execution?.attempts.some((a) => a.key === key))?.state;
    };
    const r = await requestAndApprove(world, cryptoInput());
    expect(seenState).toBe('executing');
    expect(exchange.writes()[0]!.body).toEqual({
      crypto_currency_id: USDT_TRON,
      amount: '250.12',
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
    expect(r).toMatchObject({
      state: 'submitted',
      execution: { exchangeId: (exchange.writes()[0]!.answer as { id: string }).id },
    });
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
    const { world, exchange } = worldOnSandbox();
    exchange.fail('createCryptoWithdrawal', {
      kind: 'error',
      status: 422,
      message: 'Recipient information is missing',
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
    const missing = worldOnSandbox();
    missing.exchange.fail('createCryptoWithdrawal', {
      kind: 'error',
      status: 422,
      message: 'Recipient information is missing.',
    });
    const r = await requestAndApprove(missing.world, cryptoInput());
    expect(r.failure).toEqual({
      stage: 'exchange',
      reason: `The exchange refused: Recipient information is missing. ${RECIPIENT_DETAILS_ADVICE}`,
      exchangeMessage: 'Recipient information is missing.',
    });
    expect(missing.world.eventsOf('execution.failed', r.id)[0]).toMatchObject({
      reason: expect.stringContaining(RECIPIENT_DETAILS_ADVICE),
    });

    const other = worldOnSandbox();
    other.exchange.fail('createCryptoWithdrawal', { kind: 'error', status: 422, message: 'Address is not verified' });
    const o = await requestAndApprove(other.world, cryptoInput());
    expect(o.failure?.reason).toBe('The exchange refused: Address is not verified');

    // The same words on another status are not the missing-details refusal the advice is for.
    const forbidden = worldOnSandbox();
    forbidden.exchange.fail('createCryptoWithdrawal', {
      kind: 'error',
      status: 403,
      message: 'Recipient information is missing',
    });
    const f = await requestAndApprove(forbidden.world, cryptoInput());
    expect(f.failure?.reason).not.toContain(RECIPIENT_DETAILS_ADVICE);
  });

  it.each([
    [
      'balance',
      (e: EngineExchange) => control(e).setBalance({ currency: 'USDT', regular: '251.11' }),
      /available USDT balance \(251.11\) does not cover the amount plus fee \(251.12\)/,
    ],
    ['unverified', (e: EngineExchange) => control(e).updateAddress(ADDR_OK, { status: 'pending' }), /not verified/],
    ['removed', (e: EngineExchange) => control(e).removeAddress(ADDR_OK), /no longer in the address book/],
    [
      'fee',
      (e: EngineExchange) => control(e).updateCurrency(USDT_TRON, { withdrawal_fee: '2' }),
      /fee rose from 1 to 2/,
    ],
  ])('re-checks before executing: %s', async (_name, change, reason) => {
    const { world, exchange } = worldOnSandbox();
    const res = await world.engine.request('U_REQ', cryptoInput());
    if (!res.ok) throw new Error('fixture');
    change(exchange);
    await world.engine.approve(res.request.id, 'U_A2', res.request.snapshotHash);
    const last = await world.engine.approve(res.request.id, 'U_A3', res.request.snapshotHash);
    await (last.ok && last.execution);
    const r = await world.record(res.request.id);
    expect(r.state).toBe('failed');
    expect(r.failure?.stage).toBe('checks');
    expect(r.failure?.reason).toMatch(reason);
    expect(exchange.writes()).toHaveLength(0);
  });

  it('a destination in cooldown schedules the execution, says so once, and executes when it has passed', async () => {
    const { world, exchange } = worldOnSandbox();
    const until = world.clock.now() + 3_600_000;
    control(exchange).updateAddress(ADDR_OK, { withdrawal_cooldown_until: until });
    const r = await requestAndApprove(world, cryptoInput('50'));
    expect(r).toMatchObject({ state: 'approved', execution: { scheduledAt: until } });
    await world.advanceAndTick(60_000);
    await world.advanceAndTick(60_000);
    expect(world.eventsOf('execution.scheduled', r.id)).toHaveLength(1);
    expect(exchange.writes()).toHaveLength(0);
    await world.advanceAndTick(until - world.clock.now());
    expect((await world.record(r.id)).state).toBe('submitted');
    expect(exchange.writes()).toHaveLength(1);
  });

  it('checks that cannot read the exchange are retried later, then fail after the bound', async () => {
    const { world, exchange } = worldOnSandbox({ config: { maxCheckFailures: 2, checkRetryMs: 1000 } });
    const res = await world.engine.request('U_REQ', cryptoInput());
    if (!res.ok) throw new Error('fixture');
    exchange.script = (a) => (a.method === 'GET' ? { kind: 'hang' } : undefined);
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
    const { world, exchange } = worldOnSandbox();
    const r = await requestAndApprove(world, fiatInput('1000.50'));
    const bank = control(exchange)
      .bankAccounts()
      .find((b) => b.id === USD_BANK)!;
    expect(r.snapshot).toMatchObject({
      amount: '1000.5',
      fee: '25',
      total: '1025.5',
      bankAccount: {
        display: `${bank.bank.name} USD ••••${bank.account_number.slice(-4)} (${bank.beneficiary_name})`,
      },
    });
    expect(exchange.writes()[0]!.body).toEqual({
      bank_account_id: USD_BANK,
      currency: 'USD',
      amount: '1000.5',
      request_id: r.execution!.attempts[0]!.key,
      note: `desk ${r.id}-1`,
    });
    expect(r.state).toBe('submitted');
  });

  it('fiat: a limit lowered after the request fails it before sending', async () => {
    const { world, exchange } = worldOnSandbox();
    const res = await world.engine.request('U_REQ', fiatInput('1000'));
    if (!res.ok) throw new Error('fixture');
    control(exchange).setFiatRule('USD', { maximum: '500' });
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
      (e: EngineExchange): void => void control(e).updateAddress(ADDR_OK, { address_tag: '12345' }),
      /another tag\/memo/,
    ],
    [
      'the bank account got another account number',
      (e: EngineExchange): void => void control(e).updateBankAccount(USD_BANK, { account_number: '0099999999' }),
      /another account number/,
    ],
    [
      'the bank account moved to another currency',
      (e: EngineExchange): void => void control(e).updateBankAccount(USD_BANK, { currency: 'SGD' }),
      /no longer exists|now in SGD/,
    ],
  ] as const)('changed after approval, %s: failed before anything is sent', async (what, change, reason) => {
    const { world, exchange } = worldOnSandbox();
    const input = what.startsWith('the saved') ? cryptoInput() : fiatInput('1000');
    const res = await world.engine.request('U_REQ', input);
    if (!res.ok) throw new Error('fixture');
    change(exchange);
    await world.engine.approve(res.request.id, 'U_A2', res.request.snapshotHash);
    await world.engine.approve(res.request.id, 'U_A3', res.request.snapshotHash);
    await world.engine.idle();
    expect(await world.record(res.request.id)).toMatchObject({
      state: 'failed',
      failure: { stage: 'checks', reason: expect.stringMatching(reason) },
    });
    expect(exchange.writes()).toHaveLength(0);
  });

  it('bank removal: DELETE on approval completes it', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await requestAndApprove(world, removalInput(SGD_BANK_UNVERIFIED));
    expect(r.state).toBe('completed');
    expect(
      control(exchange)
        .bankAccounts()
        .map((b) => b.id),
    ).not.toContain(SGD_BANK_UNVERIFIED);
    expect(
      control(exchange)
        .bankAccounts()
        .map((b) => b.id),
    ).toContain(USD_BANK);
    expect(world.eventsOf('request.completed', r.id)).toHaveLength(1);
  });

  it('bank removal: unknown outcome, then the account is found gone: completed, one DELETE', async () => {
    const { world, exchange } = worldOnSandbox();
    exchange.fail('deleteBankAccount', { kind: 'drop_after_commit' });
    const r = await requestAndApprove(world, removalInput(SGD_BANK_UNVERIFIED));
    expect(r.state).toBe('completed');
    expect(exchange.writes()).toHaveLength(1);
    expect(exchange.calls('deleteBankAccount')).toBe(1);
  });

  it('bank removal: unknown, not gone, resent after the settle time; a 404 then means removed', async () => {
    const { world, exchange } = worldOnSandbox();
    exchange.fail('deleteBankAccount', { kind: 'drop' }, { kind: 'error_after_commit' });
    const r = await requestAndApprove(world, removalInput(SGD_BANK_UNVERIFIED));
    expect(r.state).toBe('unknown');
    await world.advanceAndTick(5_000);
    // The resend committed but its answer was a 5xx; the next look finds it gone.
    expect((await world.record(r.id)).state).toBe('completed');
    expect(exchange.writes()).toHaveLength(1);
  });
});
