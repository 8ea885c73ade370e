import { describe, expect, it } from 'vitest';
import { collect } from '../../../../src/bot/engine/bounded-lists.js';
import { unwrapJsonApi } from '../../../../src/bot/exchange/operations/fiat.js';
import { API, harness, useNock } from '../support/client.js';
import { fiatDepositItem, fiatFeeItem, fiatLimitItem, fiatWithdrawalCreated, many } from '../support/fixtures.js';

useNock();

const JSONAPI = { 'content-type': 'application/vnd.api+json' };

describe('listFiatDeposits', () => {
  it('walks page numbers in application/vnd.api+json until a short page', async () => {
    const h = harness();
    const page = (n: number, count: number) => many(fiatDepositItem, count, (i) => ({ id: n * 100 + i }));
    h.scope
      .get(`${API}/fiat/deposits`)
      .query({ 'page[number]': '1', 'page[size]': '3' })
      .reply(200, JSON.stringify(page(1, 3)), JSONAPI)
      .get(`${API}/fiat/deposits`)
      .query({ 'page[number]': '2', 'page[size]': '3' })
      .reply(200, JSON.stringify(page(2, 3)), JSONAPI)
      .get(`${API}/fiat/deposits`)
      .query({ 'page[number]': '3', 'page[size]': '3' })
      .reply(200, JSON.stringify(page(3, 1)), JSONAPI);
    const items = await collect(h.client.listFiatDeposits({ pageSize: 3 }));
    expect(items.map((d) => d.id)).toEqual([100, 101, 102, 200, 201, 202, 300]);
    h.rec.expectAllSigned();
    expect(h.rec.requests[2]!.path).toBe(`${API}/fiat/deposits?page%5Bnumber%5D=3&page%5Bsize%5D=3`);
  });

  it('unwraps a JSON:API document if the array comes inside one', async () => {
    const h = harness();
    const doc = {
      data: [{ id: '9', type: 'fiat_deposit', attributes: { currency: 'USD', amount: '10.00', status: 'completed' } }],
    };
    h.scope.get(`${API}/fiat/deposits`).query(true).reply(200, JSON.stringify(doc), JSONAPI);
    await expect(collect(h.client.listFiatDeposits())).resolves.toEqual([
      { id: '9', currency: 'USD', amount: '10.00', status: 'completed' },
    ]);
  });

  it('maps 401', async () => {
    const h = harness();
    h.scope
      .get(`${API}/fiat/deposits`)
      .query(true)
      .reply(401, { errors: [{ message: 'Unauthorized' }] });
    await expect(collect(h.client.listFiatDeposits())).rejects.toMatchObject({
      kind: 'unauthorized',
      operation: 'listFiatDeposits',
    });
  });
});

describe('unwrapJsonApi', () => {
  it('leaves arrays and other shapes alone', () => {
    expect(unwrapJsonApi([1])).toEqual([1]);
    expect(unwrapJsonApi({ data: 'x' })).toEqual({ data: 'x' });
    expect(unwrapJsonApi({ data: [{ id: 1 }] })).toEqual([{ id: 1 }]);
    expect(unwrapJsonApi(null)).toBeNull();
  });
});

describe('listFiatWithdrawals', () => {
  it('asks for 100 a page by default and stops on an empty page', async () => {
    const h = harness();
    const full = many({ status: 'completed', amount: '1.00' }, 100, (i) => ({ id: i }) as never);
    h.scope.get(`${API}/fiat/withdrawals`).query({ 'page[number]': '1', 'page[size]': '100' }).reply(200, full);
    h.scope.get(`${API}/fiat/withdrawals`).query({ 'page[number]': '2', 'page[size]': '100' }).reply(200, []);
    await expect(collect(h.client.listFiatWithdrawals())).resolves.toHaveLength(100);
    h.rec.expectAllSigned();
  });

  it('refuses a withdrawal whose id is not an integer', async () => {
    const h = harness();
    h.scope
      .get(`${API}/fiat/withdrawals`)
      .query(true)
      .reply(200, [{ id: 1 }, { id: 'w-2' }]);
    await expect(collect(h.client.listFiatWithdrawals())).rejects.toMatchObject({
      kind: 'invalid_response',
      fieldPath: '[1].id',
    });
  });
});

describe('listFiatWithdrawalFees and listFiatWithdrawalLimits', () => {
  it('read their lists', async () => {
    const h = harness();
    h.scope.get(`${API}/fiat/withdrawal_fees`).reply(200, [fiatFeeItem]);
    h.scope.get(`${API}/fiat/withdrawal_limits`).reply(200, []);
    await expect(h.client.listFiatWithdrawalFees()).resolves.toEqual([fiatFeeItem]);
    await expect(h.client.listFiatWithdrawalLimits()).resolves.toEqual([]);
    h.rec.expectAllSigned();
    expect(h.rec.requests.map((r) => r.path)).toEqual([`${API}/fiat/withdrawal_fees`, `${API}/fiat/withdrawal_limits`]);
  });

  it('refuse extra properties and missing required ones', async () => {
    const h = harness();
    h.scope.get(`${API}/fiat/withdrawal_fees`).reply(200, [{ ...fiatFeeItem, legal_entity: 'SG' }]);
    h.scope
      .get(`${API}/fiat/withdrawal_limits`)
      .reply(200, [fiatLimitItem, { currency: 'USD', minimum_withdrawal_amount: '10' }]);
    await expect(h.client.listFiatWithdrawalFees()).rejects.toMatchObject({
      kind: 'invalid_response',
      fieldPath: '[0].legal_entity',
    });
    await expect(h.client.listFiatWithdrawalLimits()).rejects.toMatchObject({
      kind: 'invalid_response',
      fieldPath: '[1].maximum_withdrawal_amount',
    });
  });

  it('maps 401 on fees', async () => {
    const h = harness();
    h.scope.get(`${API}/fiat/withdrawal_fees`).reply(401, { errors: [{ message: 'Unauthorized' }] });
    await expect(h.client.listFiatWithdrawalFees()).rejects.toMatchObject({ kind: 'unauthorized', status: 401 });
  });
});

describe('createFiatWithdrawal', () => {
  it('POSTs the assumed body once and parses the created withdrawal', async () => {
    const h = harness();
    const body = { bank_account_id: 17, currency: 'SGD', amount: '1000.00', request_id: 'f-1' };
    h.scope.post(`${API}/fiat/withdrawals`, body).once().reply(201, fiatWithdrawalCreated);
    await expect(h.client.createFiatWithdrawal(body)).resolves.toMatchObject({
      id: 501,
      status: 'pending',
      transaction: null,
    });
    h.rec.expectAllSigned();
    expect(h.rec.requests[0]!.body).toBe(
      '{"bank_account_id":17,"currency":"SGD","amount":"1000.00","request_id":"f-1"}',
    );
  });

  it('refuses an answer without a status', async () => {
    const h = harness();
    const { status: _s, ...broken } = fiatWithdrawalCreated;
    h.scope.post(`${API}/fiat/withdrawals`).reply(201, broken);
    await expect(
      h.client.createFiatWithdrawal({ bank_account_id: 1, currency: 'SGD', amount: '1' }),
    ).rejects.toMatchObject({ kind: 'invalid_response', fieldPath: 'status' });
  });
});
