import { describe, expect, it } from 'vitest';
import { collect } from '../../../../src/bot/engine/bounded-lists.js';
import { API, harness, useNock } from '../support/client.js';
import { addressBookItem, cryptoCurrencyEntryItem, networkItem } from '../support/fixtures.js';

useNock();

describe('listNetworks and listCryptoCurrencies', () => {
  it('GET their paths under /public_api/v1, signed', async () => {
    const h = harness();
    h.scope.get(`${API}/crypto_currency_networks`).reply(200, [networkItem]);
    h.scope.get(`${API}/crypto_currencies`).reply(200, [cryptoCurrencyEntryItem]);
    await expect(h.client.listNetworks()).resolves.toEqual([networkItem]);
    await expect(h.client.listCryptoCurrencies()).resolves.toMatchObject([{ id: 42, withdrawal_fee: '0.0001' }]);
    h.rec.expectAllSigned();
  });

  it('refuse a network without a UUID and a currency entry without withdrawal_fee', async () => {
    const h = harness();
    h.scope.get(`${API}/crypto_currency_networks`).reply(200, [{ name: 'Bitcoin' }]);
    const { withdrawal_fee: _w, ...noFee } = cryptoCurrencyEntryItem;
    h.scope.get(`${API}/crypto_currencies`).reply(200, [noFee]);
    await expect(h.client.listNetworks()).rejects.toMatchObject({ kind: 'invalid_response', fieldPath: '[0].uuid' });
    await expect(h.client.listCryptoCurrencies()).rejects.toMatchObject({
      kind: 'invalid_response',
      fieldPath: '[0].withdrawal_fee',
    });
  });
});

describe('listAddressBook', () => {
  it('follows X-Next-Page through three pages, each URL signed with its cursor', async () => {
    const h = harness();
    const a = (n: number) => ({
      ...addressBookItem,
      id: `5d0c6a1e-1f2b-4c3d-8e9f-0a1b2c3d4e5${n}`,
      withdrawal_cooldown_until: n === 2 ? 1_700_000_600_000 : null,
    });
    h.scope
      .get(`${API}/address_book/addresses`)
      .query({ 'page[size]': '100' })
      .reply(200, [a(1)], { 'X-Next-Page': 'cur/2' })
      .get(`${API}/address_book/addresses`)
      .query({ 'page[size]': '100', 'page[cursor]': 'cur/2' })
      .reply(200, [a(2)], { 'X-Next-Page': 'cur/3' })
      .get(`${API}/address_book/addresses`)
      .query({ 'page[size]': '100', 'page[cursor]': 'cur/3' })
      .reply(200, [a(3)]);
    const items = await collect(h.client.listAddressBook());
    expect(items.map((x) => x.id.slice(-1))).toEqual(['1', '2', '3']);
    expect(items[1]!.withdrawal_cooldown_until).toBe(1_700_000_600_000);
    h.rec.expectAllSigned();
    expect(h.rec.requests.map((r) => r.path.split('?')[1])).toEqual([
      'page%5Bsize%5D=100',
      'page%5Bsize%5D=100&page%5Bcursor%5D=cur%2F2',
      'page%5Bsize%5D=100&page%5Bcursor%5D=cur%2F3',
    ]);
  });

  it('refuses an address without its networks', async () => {
    const h = harness();
    const { crypto_currency_networks: _n, ...broken } = addressBookItem;
    h.scope.get(`${API}/address_book/addresses`).query(true).reply(200, [broken]);
    await expect(collect(h.client.listAddressBook())).rejects.toMatchObject({
      kind: 'invalid_response',
      fieldPath: '[0].crypto_currency_networks',
    });
  });
});

describe('getSpotPrice', () => {
  it('is unauthenticated: no X-API headers at all', async () => {
    const h = harness();
    h.scope
      .get(`${API}/price/spots`)
      .query({ base_currency: 'BTC', counter_currency: 'SGD' })
      .reply(200, { symbol: 'BTC-SGD', buy_price: '90000.5', sell_price: '89900.1' });
    await expect(h.client.getSpotPrice('BTC', 'SGD')).resolves.toEqual({
      symbol: 'BTC-SGD',
      buy_price: '90000.5',
      sell_price: '89900.1',
    });
    const headers = Object.keys(h.rec.requests[0]!.headers);
    expect(headers.filter((k) => k.startsWith('x-api-'))).toEqual([]);
  });

  it('refuses a price that is not a decimal string', async () => {
    const h = harness();
    h.scope.get(`${API}/price/spots`).query(true).reply(200, { buy_price: 90000.5, sell_price: '1' });
    await expect(h.client.getSpotPrice('BTC', 'SGD')).rejects.toMatchObject({
      kind: 'invalid_response',
      operation: 'getSpotPrice',
      fieldPath: 'buy_price',
    });
  });
});
