import { describe, expect, it } from 'vitest';
import { collect } from '../../../../src/bot/engine/bounded-lists.js';
import { API, harness, useNock } from '../support/client.js';
import { cryptoDepositItem, cryptoWithdrawalFull, cryptoWithdrawalItem, withdrawalId } from '../support/fixtures.js';

useNock();

const body = {
  crypto_currency_id: 42,
  amount: '0.10000000',
  address_book_address_id: '5d0c6a1e-1f2b-4c3d-8e9f-0a1b2c3d4e5f',
  request_id: 'c2f1',
  note: 'treasury',
};

describe('listCryptoDeposits', () => {
  it('sends the created_at bounds and a large page size, signed', async () => {
    const h = harness();
    h.scope
      .get(`${API}/crypto/deposits`)
      .query({ created_at_after: '1699000000000', created_at_before: '1700000000000', 'page[size]': '100' })
      .reply(200, [cryptoDepositItem, { ...cryptoDepositItem, crypto_currency: undefined, amount: undefined }]);
    const items = await collect(
      h.client.listCryptoDeposits({ created_at_after: 1_699_000_000_000, created_at_before: 1_700_000_000_000 }),
    );
    expect(items).toHaveLength(2);
    h.rec.expectAllSigned();
    expect(h.rec.requests[0]!.path).toBe(
      `${API}/crypto/deposits?created_at_after=1699000000000&created_at_before=1700000000000&page%5Bsize%5D=100`,
    );
  });

  it('names a deposit missing a required field', async () => {
    const h = harness();
    const { invoice_downloadable: _x, ...broken } = cryptoDepositItem;
    h.scope.get(`${API}/crypto/deposits`).query(true).reply(200, [broken]);
    await expect(collect(h.client.listCryptoDeposits())).rejects.toMatchObject({
      kind: 'invalid_response',
      operation: 'listCryptoDeposits',
      fieldPath: '[0].invoice_downloadable',
    });
  });

  it('maps 422 for invalid time parameters', async () => {
    const h = harness();
    h.scope
      .get(`${API}/crypto/deposits`)
      .query(true)
      .reply(422, { errors: [{ message: 'created_at_after is invalid' }] });
    await expect(collect(h.client.listCryptoDeposits({ created_at_after: -1 }))).rejects.toMatchObject({
      kind: 'unprocessable',
      status: 422,
      messages: ['created_at_after is invalid'],
    });
    h.rec.expectAllSigned();
  });
});

describe('createCryptoWithdrawal', () => {
  it('POSTs the body as JSON once and returns the create form', async () => {
    const h = harness();
    h.scope.post(`${API}/crypto/withdrawals`, body).once().reply(201, cryptoWithdrawalFull);
    await expect(h.client.createCryptoWithdrawal(body)).resolves.toMatchObject({
      id: withdrawalId,
      total_amount: '0.10010000',
      fee: '0.0001',
    });
    h.rec.expectAllSigned();
    const req = h.rec.requests[0]!;
    expect(req.body).toBe(JSON.stringify(body));
    expect(req.headers['content-type']).toBe('application/json');
  });

  it('refuses a create answer in the list form (total_amount is required here)', async () => {
    const h = harness();
    h.scope.post(`${API}/crypto/withdrawals`).reply(201, cryptoWithdrawalItem);
    await expect(h.client.createCryptoWithdrawal(body)).rejects.toMatchObject({
      kind: 'invalid_response',
      status: 201,
      fieldPath: 'address',
    });
  });

  it('keeps the open crypto_currency object, extra fields included', async () => {
    const h = harness();
    h.scope.post(`${API}/crypto/withdrawals`).reply(201, cryptoWithdrawalFull);
    const w = await h.client.createCryptoWithdrawal(body);
    expect(w.crypto_currency).toMatchObject({ some_future_field: 'kept' });
  });

  it('maps 404 (address not found) and 422 (recipient information missing)', async () => {
    const h = harness();
    h.scope.post(`${API}/crypto/withdrawals`).reply(404, { errors: [{ message: 'Address not found' }] });
    h.scope
      .post(`${API}/crypto/withdrawals`)
      .reply(422, { errors: [{ message: 'Recipient VASP information is missing' }] });
    await expect(h.client.createCryptoWithdrawal(body)).rejects.toMatchObject({
      kind: 'not_found',
      messages: ['Address not found'],
    });
    await expect(h.client.createCryptoWithdrawal(body)).rejects.toMatchObject({
      kind: 'unprocessable',
      messages: ['Recipient VASP information is missing'],
    });
    h.rec.expectAllSigned();
  });
});

describe('listCryptoWithdrawals', () => {
  it('sends from_time and to_time and accepts list items without the create-only fields', async () => {
    const h = harness();
    h.scope
      .get(`${API}/crypto/withdrawals`)
      .query({ from_time: '1', to_time: '2', 'page[size]': '100' })
      .reply(200, [cryptoWithdrawalItem]);
    const items = await collect(h.client.listCryptoWithdrawals({ from_time: 1, to_time: 2 }));
    expect(items[0]).toMatchObject({ id: withdrawalId, status: 'completed' });
    expect(items[0]!.total_amount).toBeUndefined();
    h.rec.expectAllSigned();
  });

  it('refuses a list item whose address_book_address is null (required in lists)', async () => {
    const h = harness();
    h.scope
      .get(`${API}/crypto/withdrawals`)
      .query(true)
      .reply(200, [cryptoWithdrawalItem, { ...cryptoWithdrawalItem, address_book_address: null }]);
    await expect(collect(h.client.listCryptoWithdrawals())).rejects.toMatchObject({
      kind: 'invalid_response',
      fieldPath: '[1].address_book_address',
    });
  });
});

describe('getCryptoWithdrawal', () => {
  it('GETs /crypto/withdrawals/{id}; a null address_book_address is fine in this form', async () => {
    const h = harness();
    h.scope.get(`${API}/crypto/withdrawals/${withdrawalId}`).reply(200, {
      ...cryptoWithdrawalFull,
      address_book_address: null,
      status: 'broadcasted',
      transaction_hash: '0xabc',
    });
    await expect(h.client.getCryptoWithdrawal(withdrawalId)).resolves.toMatchObject({
      status: 'broadcasted',
      address_book_address: null,
    });
    h.rec.expectAllSigned();
  });

  it("maps 404, also used for another user's withdrawal", async () => {
    const h = harness();
    h.scope.get(`${API}/crypto/withdrawals/${withdrawalId}`).reply(404, { errors: [{ message: 'Not found' }] });
    await expect(h.client.getCryptoWithdrawal(withdrawalId)).rejects.toMatchObject({
      kind: 'not_found',
      status: 404,
      operation: 'getCryptoWithdrawal',
    });
    expect(h.rec.requests).toHaveLength(1);
  });
});
