import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NUMBERED_PAGE_SIZE, MAX_PAGE_SIZE } from '../../../src/bot/exchange/assumptions.js';
import {
  addressBookAddress,
  bankAccount,
  cryptoWithdrawalListItem,
  fiatWithdrawalListItem,
} from '../../../src/bot/exchange/schemas.js';
import { expectSchema, startTestSandbox, V1, type TestSandbox } from './support/sandbox.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

/** Follow X-Next-Page to the end; returns every page's ids. */
async function follow(path: string, first = ''): Promise<string[][]> {
  const pages: string[][] = [];
  let query = first;
  for (let i = 0; i < 20; i++) {
    const a = await t.api('GET', `${path}${query}`);
    expect(a.status).toBe(200);
    pages.push(a.body.map((x: { id: string | number }) => String(x.id)));
    const next = a.headers.get('x-next-page');
    if (!next) return pages;
    query = `${first ? `${first}&` : '?'}page%5Bcursor%5D=${encodeURIComponent(next)}`;
  }
  throw new Error('too many pages');
}

describe('cursor pagination', () => {
  it('the short_pages fault serves fewer items a page than asked, with X-Next-Page leading on to every item, on its paths only', async () => {
    t.sandbox.control.setFaults([{ kind: 'short_pages', method: 'GET', path: '/address_book/addresses', pageSize: 4 }]);
    try {
      const short = await follow(`${V1}/address_book/addresses`, '?page%5Bsize%5D=5');
      expect(short.map((p) => p.length)).toEqual([4, 2]);
      expect(new Set(short.flat()).size).toBe(6);
      // Asked for no more than the cap: served as asked.
      expect((await follow(`${V1}/address_book/addresses`, '?page%5Bsize%5D=3')).map((p) => p.length)).toEqual([3, 3]);
      // Another list is not touched.
      expect((await follow(`${V1}/crypto/deposits`, '?page%5Bsize%5D=5')).map((p) => p.length)).toEqual([5]);
      // A bad page[size] keeps its own 422.
      expect((await t.api('GET', `${V1}/address_book/addresses?page%5Bsize%5D=0`)).status).toBe(422);
    } finally {
      t.sandbox.control.clearFaults();
    }
  });

  it('defaults to pages of 2 with X-Next-Page, through every cursor list', async () => {
    const address = await follow(`${V1}/address_book/addresses`);
    expect(address.map((p) => p.length)).toEqual([2, 2, 2]);
    expect(new Set(address.flat()).size).toBe(6);
    const withdrawals = await follow(`${V1}/crypto/withdrawals`);
    expect(withdrawals.map((p) => p.length)).toEqual([2, 1]);
    const deposits = await follow(`${V1}/crypto/deposits`);
    expect(deposits.map((p) => p.length)).toEqual([2, 2, 1]);
    const banks = await follow(`${V1}/bank_accounts`);
    expect(banks.map((p) => p.length)).toEqual([2, 1]);
  });

  it('serves items that pass the client schemas, and keeps the filter across pages', async () => {
    const a = await t.api('GET', `${V1}/address_book/addresses?page[size]=10`);
    for (const x of a.body) expectSchema(addressBookAddress, x);
    const w = await t.api('GET', `${V1}/crypto/withdrawals?page[size]=10`);
    for (const x of w.body) expectSchema(cryptoWithdrawalListItem, x);
    const sgd = await follow(`${V1}/bank_accounts`, '?currency=SGD&page[size]=1');
    expect(sgd.map((p) => p.length)).toEqual([1, 1]);
    const b = await t.api('GET', `${V1}/bank_accounts?currency=SGD`);
    for (const x of b.body) expect(expectSchema(bankAccount, x).currency).toBe('SGD');
  });

  it(`accepts page[size] up to ${MAX_PAGE_SIZE} and refuses more, zero or text with 422`, async () => {
    const ok = await t.api('GET', `${V1}/address_book/addresses?page[size]=${MAX_PAGE_SIZE}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toHaveLength(6);
    expect(ok.headers.get('x-next-page')).toBeNull();
    for (const bad of [String(MAX_PAGE_SIZE + 1), '0', 'ten', '-1']) {
      const a = await t.api('GET', `${V1}/address_book/addresses?page[size]=${bad}`);
      expect(a.status).toBe(422);
      expect(a.body.errors[0].message).toMatch(/page\[size\]/);
    }
  });

  it('refuses a cursor it did not issue', async () => {
    const a = await t.api('GET', `${V1}/crypto/withdrawals?page[cursor]=bm9wZQ`);
    expect(a.status).toBe(422);
  });

  it('offset mode: page[enable_offset]=true with page[number]; page[number] ignored otherwise', async () => {
    const all = (await t.api('GET', `${V1}/address_book/addresses?page[size]=6`)).body.map((x: { id: string }) => x.id);
    const p2 = await t.api('GET', `${V1}/address_book/addresses?page[enable_offset]=true&page[number]=2`);
    expect(p2.body.map((x: { id: string }) => x.id)).toEqual(all.slice(2, 4));
    const p3 = await t.api('GET', `${V1}/address_book/addresses?page[enable_offset]=true&page[number]=3&page[size]=5`);
    expect(p3.body).toHaveLength(0);
    const ignored = await t.api('GET', `${V1}/address_book/addresses?page[number]=2`);
    expect(ignored.body.map((x: { id: string }) => x.id)).toEqual(all.slice(0, 2));
    expect((await t.api('GET', `${V1}/address_book/addresses?page[enable_offset]=yes`)).status).toBe(422);
    expect((await t.api('GET', `${V1}/address_book/addresses?page[enable_offset]=true&page[number]=0`)).status).toBe(
      422,
    );
  });
});

describe('page-number lists', () => {
  it(`default to ${DEFAULT_NUMBERED_PAGE_SIZE} a page (fiat withdrawals) and page by page[number]`, async () => {
    t.sandbox.control.setBalance({ currency: 'SGD', regular: '10000000' });
    const banks = (await t.api('GET', `${V1}/bank_accounts?currency=SGD&page[size]=10`)).body as Array<{ id: number }>;
    const seeded = (await t.api('GET', `${V1}/fiat/withdrawals`)).body.length;
    for (let i = seeded; i <= DEFAULT_NUMBERED_PAGE_SIZE; i++) {
      const a = await t.api('POST', `${V1}/fiat/withdrawals`, {
        body: { bank_account_id: banks[0]!.id, currency: 'SGD', amount: String(100 + i) },
      });
      expect(a.status).toBe(201);
    }
    const p1 = await t.api('GET', `${V1}/fiat/withdrawals`);
    expect(p1.body).toHaveLength(DEFAULT_NUMBERED_PAGE_SIZE);
    expect(p1.headers.get('content-type')).toMatch(/^application\/vnd\.api\+json/);
    for (const x of p1.body) expectSchema(fiatWithdrawalListItem, x);
    const p2 = await t.api('GET', `${V1}/fiat/withdrawals?page[number]=2`);
    expect(p2.body).toHaveLength(1);
    const small = await t.api('GET', `${V1}/fiat/withdrawals?page[number]=3&page[size]=20`);
    expect(small.body).toHaveLength(11);
    expect((await t.api('GET', `${V1}/fiat/withdrawals?page[number]=0`)).status).toBe(422);
    expect((await t.api('GET', `${V1}/fiat/deposits?page[size]=${MAX_PAGE_SIZE + 1}`)).status).toBe(422);
    const d = await t.api('GET', `${V1}/fiat/deposits?page[size]=2&page[number]=2`);
    expect(d.body).toHaveLength(1);
    expect(d.headers.get('content-type')).toMatch(/^application\/vnd\.api\+json/);
  });
});
