import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { add } from '../../../../src/bot/domain/money.js';
import { ADDRESS_VERIFIED_STATUS } from '../../../../src/bot/exchange/assumptions.js';
import {
  addressBookAddress,
  balance,
  cryptoCurrencyEntry,
  knownWallet,
  network,
  spotPrice,
} from '../../../../src/bot/exchange/schemas.js';
import { expectSchema, startTestSandbox, T0, V1, type TestSandbox } from '../support/sandbox.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

const list = async <T>(path: string, schema: { safeParse(v: unknown): unknown } & Parameters<typeof expectSchema>[0]) =>
  ((await t.api('GET', `${V1}${path}`)).body as unknown[]).map((x) => expectSchema(schema, x)) as T[];

describe('balances', () => {
  it('list only non-zero assets, with locked equal to the sum of its parts', async () => {
    const items = await list<{
      currency: string;
      regular: string;
      locked: string;
      locked_balance: { orders: string; alternative_products: string };
    }>('/accounts/balances', balance);
    const symbols = items.map((b) => b.currency);
    expect(symbols).toEqual(expect.arrayContaining(['BTC', 'ETH', 'USDT', 'USD', 'SGD']));
    expect(symbols).not.toContain('USDC');
    for (const b of items) expect(b.locked).toBe(add(b.locked_balance.orders, b.locked_balance.alternative_products));
    const btc = items.find((b) => b.currency === 'BTC')!;
    expect(btc.locked).toBe('0.15');
    const only = await t.api('GET', `${V1}/accounts/balances?currency=ETH`);
    expect(only.body.map((b: { currency: string }) => b.currency)).toEqual(['ETH']);
    t.sandbox.control.setBalance({ currency: 'USDC', regular: '12.5' });
    expect((await t.api('GET', `${V1}/accounts/balances?currency=USDC`)).body[0].regular).toBe('12.5');
  });
});

describe('networks and currency entries', () => {
  it('give each asset one entry per network, with its own id, fee, minimum and precision', async () => {
    const nets = await list<{ uuid: string; network_code: string }>('/crypto_currency_networks', network);
    expect(nets.map((n) => n.network_code).sort()).toEqual(['bitcoin', 'ethereum', 'tron']);
    const entries = await list<{
      id: number;
      code: string;
      network_id: string;
      withdrawal_fee: string;
      precision: number;
      minimum_withdrawal: string;
      network: { uuid: string };
    }>('/crypto_currencies', cryptoCurrencyEntry);
    const usdt = entries.filter((e) => e.code === 'USDT');
    expect(usdt).toHaveLength(2);
    expect(new Set(usdt.map((e) => e.id)).size).toBe(2);
    expect(usdt[0]!.withdrawal_fee).not.toBe(usdt[1]!.withdrawal_fee);
    expect(usdt[0]!.precision).not.toBe(usdt[1]!.precision);
    for (const e of entries) {
      expect(e.network_id).toBe(e.network.uuid);
      expect(nets.map((n) => n.uuid)).toContain(e.network_id);
    }
  });
});

describe('address book', () => {
  it('holds a verified address, an unverified one, one in cooldown and one without recipient details', async () => {
    const book = await list<{ status: string; withdrawal_cooldown_until?: number | null; wallet_identity?: unknown }>(
      '/address_book/addresses?page[size]=50',
      addressBookAddress,
    );
    expect(
      book.some((a) => a.status === ADDRESS_VERIFIED_STATUS && a.wallet_identity && !a.withdrawal_cooldown_until),
    ).toBe(true);
    expect(book.some((a) => a.status !== ADDRESS_VERIFIED_STATUS)).toBe(true);
    expect(book.some((a) => (a.withdrawal_cooldown_until ?? 0) > T0)).toBe(true);
    expect(book.some((a) => a.wallet_identity === null)).toBe(true);
  });
});

describe('known wallets', () => {
  it('search names fuzzily: case, substrings and small typos', async () => {
    const all = await list<{ name: string }>('/crypto_wallets', knownWallet);
    expect(all.length).toBeGreaterThan(8);
    const names = async (q: string) =>
      (await list<{ name: string }>(`/crypto_wallets?name=${encodeURIComponent(q)}`, knownWallet)).map((w) => w.name);
    expect((await names('binanse'))[0]).toBe('Binance');
    expect((await names('COIN'))[0]).toBe('Coinbase');
    expect(await names('huobi')).toContain('HTX (Huobi)');
    expect(await names('trust wallet')).toEqual(['Trust Wallet']);
    expect(await names('zzzzzz')).toEqual([]);
  });
});

describe('spot prices (unauthenticated)', () => {
  it('answer buy and sell prices for a pair, 404 for an unknown pair, 422 without the pair', async () => {
    const a = await t.api('GET', `${V1}/price/spots?base_currency=ETH&counter_currency=SGD`, { unsigned: true });
    const p = expectSchema(spotPrice, a.body);
    expect(Number(p.buy_price)).toBeGreaterThan(Number(p.sell_price));
    expect(
      (await t.api('GET', `${V1}/price/spots?base_currency=DOGE&counter_currency=USD`, { unsigned: true })).status,
    ).toBe(404);
    expect((await t.api('GET', `${V1}/price/spots`, { unsigned: true })).status).toBe(422);
  });
});

describe('unknown paths and methods', () => {
  it('answer 404 and 405 with the error body', async () => {
    const a = await t.api('GET', `${V1}/nothing/here`);
    expect(a.status).toBe(404);
    expect(a.body.errors[0].message).toMatch(/No operation/);
    expect((await t.api('PUT', `${V1}/accounts/balances`)).status).toBe(405);
  });
});
