import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sub } from '../../../src/bot/domain/money.js';
import {
  bankAccount,
  fiatDeposit,
  fiatWithdrawal,
  fiatWithdrawalFee,
  fiatWithdrawalLimit,
} from '../../../src/bot/exchange/schemas.js';
import { FIAT_WITHDRAWAL_TIMELINE } from '../../../src/stand-ins/sandbox/timings.js';
import { expectSchema, startTestSandbox, V1, type TestSandbox } from './support/sandbox.js';

let t: TestSandbox;
let banks: Array<{ id: number; currency: string; verified: boolean }>;
beforeAll(async () => {
  t = await startTestSandbox();
  banks = (await t.api('GET', `${V1}/bank_accounts?page[size]=10`)).body.map((b: unknown) =>
    expectSchema(bankAccount, b),
  );
});
afterAll(() => t.close());

const createFiat = (body: unknown) => t.api('POST', `${V1}/fiat/withdrawals`, { body });

describe('bank accounts', () => {
  it('hold USD and SGD accounts, one verified by staff and one self-added', () => {
    expect(new Set(banks.map((b) => b.currency))).toEqual(new Set(['USD', 'SGD']));
    expect(banks.some((b) => b.verified)).toBe(true);
    expect(banks.some((b) => !b.verified)).toBe(true);
  });

  it('filter by currency and refuse a currency other than USD or SGD', async () => {
    const usd = await t.api('GET', `${V1}/bank_accounts?currency=USD`);
    expect(usd.body.every((b: { currency: string }) => b.currency === 'USD')).toBe(true);
    expect((await t.api('GET', `${V1}/bank_accounts?currency=EUR`)).status).toBe(422);
  });

  it('DELETE answers 204 without a body, then 404', async () => {
    const id = banks.find((b) => !b.verified)!.id;
    const a = await t.api('DELETE', `${V1}/bank_accounts/${id}`);
    expect(a.status).toBe(204);
    expect(a.body).toBeUndefined();
    expect((await t.api('DELETE', `${V1}/bank_accounts/${id}`)).status).toBe(404);
    expect((await t.api('DELETE', `${V1}/bank_accounts/999999`)).status).toBe(404);
    expect(
      (await t.api('GET', `${V1}/bank_accounts?page[size]=10`)).body.map((b: { id: number }) => b.id),
    ).not.toContain(id);
  });
});

describe('fiat', () => {
  it('lists fees, limits and deposits in the client shapes', async () => {
    const fees = (await t.api('GET', `${V1}/fiat/withdrawal_fees`)).body.map((x: unknown) =>
      expectSchema(fiatWithdrawalFee, x),
    );
    const limits = (await t.api('GET', `${V1}/fiat/withdrawal_limits`)).body.map((x: unknown) =>
      expectSchema(fiatWithdrawalLimit, x),
    );
    expect(fees.map((f: { currency: string }) => f.currency).sort()).toEqual(['SGD', 'USD']);
    expect(limits.map((f: { currency: string }) => f.currency).sort()).toEqual(['SGD', 'USD']);
    const deps = await t.api('GET', `${V1}/fiat/deposits`);
    expect(deps.headers.get('content-type')).toMatch(/^application\/vnd\.api\+json/);
    expect(deps.body.length).toBeGreaterThan(0);
    for (const d of deps.body) expectSchema(fiatDeposit, d);
  });

  it('creates a withdrawal to a bank account of the same currency, taking amount plus fee from regular', async () => {
    const usdBank = banks.find((b) => b.currency === 'USD')!;
    const before = t.sandbox.control.balances().find((b) => b.currency === 'USD')!.regular;
    const a = await createFiat({ bank_account_id: usdBank.id, currency: 'USD', amount: '1000.50', request_id: 'r-1' });
    expect(a.status).toBe(201);
    const w = expectSchema(fiatWithdrawal, a.body);
    expect([w.status, w.withdrawal_fee, w.amount]).toEqual(['pending', '25', '1000.50']);
    expect(t.sandbox.control.balances().find((b) => b.currency === 'USD')!.regular).toBe(sub(before, '1025.5'));
    t.sandbox.control.advance(FIAT_WITHDRAWAL_TIMELINE.at(-1)!.afterMs);
    const listed = (await t.api('GET', `${V1}/fiat/withdrawals`)).body.find((x: { id: number }) => x.id === w.id);
    expect(listed.status).toBe('completed');
  });

  it('takes a note (assumptions.ts chose the body), answers without it as the reference shows the create answer, lists it; refuses any other field', async () => {
    const usdBank = banks.find((b) => b.currency === 'USD')!;
    const a = await createFiat({ bank_account_id: usdBank.id, currency: 'USD', amount: '100', note: 'desk R6EYET-1' });
    expect(a.status).toBe(201);
    expect(a.body).not.toHaveProperty('note');
    const listed = (await t.api('GET', `${V1}/fiat/withdrawals`)).body.find((x: { id: number }) => x.id === a.body.id);
    expect(listed.note).toBe('desk R6EYET-1');
    expect(listed).not.toHaveProperty('request_id');
    expect((await createFiat({ bank_account_id: usdBank.id, currency: 'USD', amount: '100', memo: 'x' })).status).toBe(
      422,
    );
  });

  it('refuses a missing bank account (404), a currency mismatch, limits and the balance including the fee (422)', async () => {
    const usdBank = banks.find((b) => b.currency === 'USD')!;
    expect((await createFiat({ bank_account_id: 424242, currency: 'USD', amount: '100' })).status).toBe(404);
    const mismatch = await createFiat({ bank_account_id: usdBank.id, currency: 'SGD', amount: '100' });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors[0].message).toMatch(/holds USD, not SGD/);
    expect(
      (await createFiat({ bank_account_id: usdBank.id, currency: 'USD', amount: '49.99' })).body.errors[0].message,
    ).toMatch(/below the minimum/);
    expect(
      (await createFiat({ bank_account_id: usdBank.id, currency: 'USD', amount: '250000.01' })).body.errors[0].message,
    ).toMatch(/above the maximum/);
    t.sandbox.control.setBalance({ currency: 'USD', regular: '1000' });
    const short = await createFiat({ bank_account_id: usdBank.id, currency: 'USD', amount: '990' });
    expect(short.status).toBe(422);
    expect(short.body.errors[0].message).toMatch(/Insufficient balance: amount plus fee is 1015 USD/);
    expect((await createFiat({ bank_account_id: usdBank.id, currency: 'USD', amount: '975' })).status).toBe(201);
    expect((await createFiat({ bank_account_id: usdBank.id, currency: 'EUR', amount: '100' })).status).toBe(422);
    expect((await createFiat({ bank_account_id: usdBank.id, currency: 'USD', amount: '100.001' })).status).toBe(422);
    expect((await createFiat({ bank_account_id: String(usdBank.id), currency: 'USD', amount: '100' })).status).toBe(
      422,
    );
  });
});
