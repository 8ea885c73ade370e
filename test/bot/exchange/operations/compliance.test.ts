import { describe, expect, it } from 'vitest';
import { API, harness, useNock } from '../support/client.js';
import { knownWalletItem } from '../support/fixtures.js';

useNock();

const txId = '7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2910';
const info = {
  wallet_identity_attributes: {
    entity_type: 'entity' as const,
    entity_name: 'Acme Exchange Ltd',
    ownership: 'third_party' as const,
    address_attributes: { country_code: 'SG' },
  },
  crypto_wallet_attributes: { id: knownWalletItem.id },
};

describe('submitCounterpartyInfo', () => {
  it('POSTs the declaration to /transactions/{transaction_id}/counterparty_info', async () => {
    const h = harness();
    h.scope
      .post(`${API}/transactions/${txId}/counterparty_info`, info)
      .once()
      .reply(201, { id: 'ci-1', status: 'submitted' });
    await expect(h.client.submitCounterpartyInfo(txId, info)).resolves.toEqual({ id: 'ci-1', status: 'submitted' });
    h.rec.expectAllSigned();
    expect(JSON.parse(h.rec.requests[0]!.body)).toEqual(info);
  });

  it('maps 404 Transaction not found and 422 Counterparty info already exists', async () => {
    const h = harness();
    h.scope
      .post(`${API}/transactions/${txId}/counterparty_info`)
      .reply(404, { errors: [{ message: 'Transaction not found' }] });
    h.scope
      .post(`${API}/transactions/${txId}/counterparty_info`)
      .reply(422, { errors: [{ message: 'Counterparty info already exists' }] });
    await expect(h.client.submitCounterpartyInfo(txId, info)).rejects.toMatchObject({
      kind: 'not_found',
      messages: ['Transaction not found'],
    });
    await expect(h.client.submitCounterpartyInfo(txId, info)).rejects.toMatchObject({
      kind: 'unprocessable',
      messages: ['Counterparty info already exists'],
    });
    expect(h.rec.requests).toHaveLength(2);
  });

  it('does not send a wallet with neither id nor name', async () => {
    const h = harness();
    await expect(
      h.client.submitCounterpartyInfo(txId, { ...info, crypto_wallet_attributes: {} }),
    ).rejects.toMatchObject({ kind: 'unprocessable', status: undefined });
    expect(h.rec.requests).toHaveLength(0);
  });
});

describe('listKnownWallets', () => {
  it('sends the name search, encoded, and reads the strict items', async () => {
    const h = harness();
    h.scope
      .get(`${API}/crypto_wallets`)
      .query({ name: 'Coin Base' })
      .reply(200, [knownWalletItem, { id: 'b1b2c3d4-e5f6-4a7b-8c9d-0e1f-2a3b4c5d', type: 'private', name: 'Self' }]);
    await expect(h.client.listKnownWallets({ name: 'Coin Base' })).resolves.toHaveLength(2);
    h.rec.expectAllSigned();
    expect(h.rec.requests[0]!.path).toBe(`${API}/crypto_wallets?name=Coin%20Base`);
  });

  it.each([
    ['an uppercase id', { ...knownWalletItem, id: knownWalletItem.id.toUpperCase() }, '[0].id'],
    ['an unknown risk level', { ...knownWalletItem, risk_level: 'extreme' }, '[0].risk_level'],
    ['an extra property', { ...knownWalletItem, country: 'SG' }, '[0].country'],
  ])('refuses %s', async (_n, item, fieldPath) => {
    const h = harness();
    h.scope.get(`${API}/crypto_wallets`).reply(200, [item]);
    await expect(h.client.listKnownWallets()).rejects.toMatchObject({
      kind: 'invalid_response',
      operation: 'listKnownWallets',
      fieldPath,
    });
  });
});
