import { describe, expect, it } from 'vitest';
import { collect } from '../../../../src/bot/engine/bounded-lists.js';
import { ExchangeError } from '../../../../src/bot/ports/exchange-error.js';
import { API, harness, useNock } from '../support/client.js';
import { balanceBTC, bankAccountItem } from '../support/fixtures.js';

useNock();

describe('listBalances', () => {
  it('GETs /accounts/balances signed, with no body and the empty-string digest', async () => {
    const h = harness();
    h.scope.get(`${API}/accounts/balances`).reply(200, [balanceBTC]);
    await expect(h.client.listBalances()).resolves.toEqual([balanceBTC]);
    h.rec.expectAllSigned();
    const [req] = h.rec.requests;
    expect(req!.method).toBe('GET');
    expect(req!.body).toBe('');
    expect(req!.headers['content-type']).toBeUndefined();
    expect(req!.timestamp).toBe(String(h.clock.now()));
  });

  it('passes the currency filter in the signed URL', async () => {
    const h = harness();
    h.scope.get(`${API}/accounts/balances`).query({ currency: 'BTC' }).reply(200, [balanceBTC]);
    await h.client.listBalances({ currency: 'BTC' });
    h.rec.expectAllSigned();
    expect(h.rec.requests[0]!.path).toBe(`${API}/accounts/balances?currency=BTC`);
  });

  it('refuses an extra property in a balance (the reference says no extra properties)', async () => {
    const h = harness();
    h.scope.get(`${API}/accounts/balances`).reply(200, [balanceBTC, { ...balanceBTC, currency: 'ETH', bonus: '1' }]);
    const err = await h.client.listBalances().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeError);
    expect(err).toMatchObject({
      kind: 'invalid_response',
      operation: 'listBalances',
      fieldPath: '[1].bonus',
      status: 200,
    });
  });

  it('refuses a number where a decimal string is required', async () => {
    const h = harness();
    const broken = { ...balanceBTC, locked_balance: { orders: 0.2, alternative_products: '0' } };
    h.scope.get(`${API}/accounts/balances`).reply(200, [balanceBTC, balanceBTC, balanceBTC, broken]);
    await expect(h.client.listBalances()).rejects.toMatchObject({
      kind: 'invalid_response',
      fieldPath: '[3].locked_balance.orders',
    });
  });

  it('maps 401 with its errors[].message list', async () => {
    const h = harness();
    h.scope
      .get(`${API}/accounts/balances`)
      .reply(401, { errors: [{ message: 'Invalid signature' }, { message: 'Timestamp out of range' }] });
    const err = (await h.client.listBalances().catch((e: unknown) => e)) as ExchangeError;
    expect(err).toMatchObject({
      kind: 'unauthorized',
      status: 401,
      messages: ['Invalid signature', 'Timestamp out of range'],
    });
    expect(err.userMessage).toBe('Invalid signature; Timestamp out of range');
    h.rec.expectAllSigned();
    expect(h.rec.requests).toHaveLength(1); // 401 is not retried
  });
});

describe('listBankAccounts', () => {
  it('asks for a large page, filters by currency and follows the cursor', async () => {
    const h = harness();
    h.scope
      .get(`${API}/bank_accounts`)
      .query({ currency: 'USD', 'page[size]': '100' })
      .reply(200, [bankAccountItem], { 'X-Next-Page': 'c2' })
      .get(`${API}/bank_accounts`)
      .query({ currency: 'USD', 'page[size]': '100', 'page[cursor]': 'c2' })
      .reply(200, [{ ...bankAccountItem, id: 18, bank: null }]);
    const items = await collect(h.client.listBankAccounts({ currency: 'USD' }));
    expect(items.map((b) => b.id)).toEqual([17, 18]);
    h.rec.expectAllSigned();
    expect(h.rec.requests.map((r) => r.path)).toEqual([
      `${API}/bank_accounts?currency=USD&page%5Bsize%5D=100`,
      `${API}/bank_accounts?currency=USD&page%5Bsize%5D=100&page%5Bcursor%5D=c2`,
    ]);
  });

  it('names the bank account at fault when one lacks a required field', async () => {
    const h = harness();
    const { account_number: _omit, ...broken } = bankAccountItem;
    h.scope.get(`${API}/bank_accounts`).query(true).reply(200, [bankAccountItem, broken]);
    await expect(collect(h.client.listBankAccounts())).rejects.toMatchObject({
      kind: 'invalid_response',
      operation: 'listBankAccounts',
      fieldPath: '[1].account_number',
    });
  });
});

describe('deleteBankAccount', () => {
  it('DELETEs /bank_accounts/{id} once and accepts 204 with no body', async () => {
    const h = harness();
    h.scope.delete(`${API}/bank_accounts/17`).reply(204);
    await expect(h.client.deleteBankAccount('17')).resolves.toBeUndefined();
    h.rec.expectAllSigned();
    expect(h.rec.requests[0]!.method).toBe('DELETE');
  });

  it('encodes the id as one path segment', async () => {
    const h = harness();
    h.scope.delete(`${API}/bank_accounts/a%2Fb%3Fc`).reply(204);
    await h.client.deleteBankAccount('a/b?c');
    h.rec.expectAllSigned();
  });

  it('refuses a dot-segment id without sending anything', async () => {
    const h = harness();
    await expect(h.client.deleteBankAccount('..')).rejects.toMatchObject({ kind: 'unprocessable', status: undefined });
  });

  it('maps 404 and is never retried', async () => {
    const h = harness();
    h.scope
      .delete(`${API}/bank_accounts/99`)
      .once()
      .reply(404, { errors: [{ message: 'Bank account not found' }] });
    await expect(h.client.deleteBankAccount('99')).rejects.toMatchObject({
      kind: 'not_found',
      status: 404,
      messages: ['Bank account not found'],
    });
    expect(h.rec.requests).toHaveLength(1);
  });

  it('is not retried on 503 either: the outcome is unknown and left to the caller', async () => {
    const h = harness();
    h.scope.delete(`${API}/bank_accounts/5`).once().reply(503);
    const err = (await h.client.deleteBankAccount('5').catch((e: unknown) => e)) as ExchangeError;
    expect(err.kind).toBe('server');
    expect(err.outcomeUnknown).toBe(true);
    expect(h.rec.requests).toHaveLength(1);
    expect(h.clock.sleeps).toEqual([]);
  });
});
