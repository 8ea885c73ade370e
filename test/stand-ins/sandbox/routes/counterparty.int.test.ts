import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { add } from '../../../../src/bot/domain/money.js';
import { counterpartyInfoResult, cryptoDeposit } from '../../../../src/bot/exchange/schemas.js';
import { DEPOSIT_REVIEW_MS } from '../../../../src/stand-ins/sandbox/timings.js';
import { expectSchema, startTestSandbox, V1, type TestSandbox } from '../support/sandbox.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

const VALID = {
  wallet_identity_attributes: {
    entity_type: 'entity',
    entity_name: 'Northwind Capital Ltd',
    ownership: 'third_party',
    address_attributes: { country_code: 'SG', address1: '1 Raffles Place' },
  },
  crypto_wallet_attributes: { name: 'Some Unlisted Exchange' },
};
const submit = (txId: string, body: unknown) => t.api('POST', `${V1}/transactions/${txId}/counterparty_info`, { body });
const deposits = async () =>
  (await t.api('GET', `${V1}/crypto/deposits?page[size]=50`)).body.map((d: unknown) => expectSchema(cryptoDeposit, d));

describe('counterparty info', () => {
  it('is accepted (201) for a RECEIVE transaction that needs it, and the deposit then completes after review', async () => {
    const pending = (await deposits()).find(
      (d: { travel_rule_status?: string }) => d.travel_rule_status === 'required',
    )!;
    expect(pending.status).toBe('pending');
    const code = pending.crypto_currency!.code;
    const regular = () => t.sandbox.control.balances().find((b) => b.currency === code)!.regular;
    const before = regular();
    const wallets = (await t.api('GET', `${V1}/crypto_wallets?name=coinbase`)).body;
    const a = await submit(pending.transaction.uuid, { ...VALID, crypto_wallet_attributes: { id: wallets[0].id } });
    expect(a.status).toBe(201);
    expectSchema(counterpartyInfoResult, a.body);
    expect(a.body.compliance_review).toBe(false);
    let d = (await deposits()).find((x: { id: string }) => x.id === pending.id)!;
    expect(d.travel_rule_status).toBe('submitted');
    t.sandbox.control.advance(DEPOSIT_REVIEW_MS);
    d = (await deposits()).find((x: { id: string }) => x.id === pending.id)!;
    expect([d.status, d.travel_rule_status]).toEqual(['completed', 'approved']);
    // Credited once, on completion.
    expect(regular()).toBe(add(before, pending.amount));
    t.sandbox.control.advance(DEPOSIT_REVIEW_MS);
    expect(regular()).toBe(add(before, pending.amount));
    expect(t.sandbox.control.counterpartySubmissions()).toHaveLength(1);
  });

  it('answers 404 "Transaction not found" for an unknown transaction', async () => {
    const a = await submit('00000000-0000-4000-8000-000000000000', VALID);
    expect(a.status).toBe(404);
    expect(a.body.errors[0].message).toBe('Transaction not found');
  });

  it('answers 422 "Counterparty info already exists" on a second submission', async () => {
    const dep = t.sandbox.control.injectDeposit({ amount: '1.25', currencyId: 102, needsCounterpartyInfo: true });
    expect((await submit(dep.transaction.uuid, VALID)).status).toBe(201);
    const again = await submit(dep.transaction.uuid, VALID);
    expect(again.status).toBe(422);
    expect(again.body.errors[0].message).toBe('Counterparty info already exists');
  });

  it('supports only RECEIVE transactions (a withdrawal is a SEND: 422)', async () => {
    const w = (await t.api('GET', `${V1}/crypto/withdrawals`)).body[0];
    const a = await submit(w.transaction.uuid, VALID);
    expect(a.status).toBe(422);
    expect(a.body.errors[0].message).toMatch(/only supported for RECEIVE/);
  });

  it('refuses bodies that break the reference object, saying which field (422)', async () => {
    const dep = t.sandbox.control.injectDeposit({ amount: '0.3', needsCounterpartyInfo: true });
    const ident = VALID.wallet_identity_attributes;
    const cases: Array<[unknown, RegExp]> = [
      [{ wallet_identity_attributes: { ...ident, entity_type: 'company' } }, /entity_type/],
      [{ wallet_identity_attributes: { ...ident, ownership: 'mine' } }, /ownership/],
      [{ wallet_identity_attributes: { ...ident, address_attributes: { address1: 'x' } } }, /country_code/],
      [{ wallet_identity_attributes: ident, crypto_wallet_attributes: {} }, /crypto_wallet_attributes/],
      [{ crypto_wallet_attributes: { name: 'x' } }, /wallet_identity_attributes/],
      [{ wallet_identity_attributes: ident, extra: 1 }, /extra/],
    ];
    for (const [body, why] of cases) {
      const a = await submit(dep.transaction.uuid, body);
      expect(a.status, JSON.stringify(body)).toBe(422);
      expect(a.body.errors[0].message).toMatch(why);
    }
    // None of them counted as a submission.
    expect((await submit(dep.transaction.uuid, VALID)).status).toBe(201);
  });
});
