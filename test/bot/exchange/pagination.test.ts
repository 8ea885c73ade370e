import { describe, expect, it } from 'vitest';
import { MAX_PAGE_SIZE } from '../../../src/bot/exchange/assumptions.js';
import { collect } from '../../../src/bot/engine/bounded-lists.js';
import { DEFAULT_MAX_PAGES } from '../../../src/bot/exchange/pagination.js';
import { API, harness, useNock } from './support/client.js';
import { cryptoWithdrawalItem, many } from './support/fixtures.js';

useNock();

const item = (n: number) => ({ ...cryptoWithdrawalItem, id: `9a8b7c6d-5e4f-4a3b-8c2d-${String(n).padStart(12, '0')}` });
const path = `${API}/crypto/withdrawals`;

describe('cursor lists', () => {
  it('follows X-Next-Page through four pages, an empty one included, each signed with its own URL', async () => {
    const h = harness();
    h.scope
      .get(path)
      .query({ 'page[size]': '2' })
      .reply(200, [item(1), item(2)], { 'X-Next-Page': 'p2' })
      .get(path)
      .query({ 'page[size]': '2', 'page[cursor]': 'p2' })
      .reply(200, [], { 'X-Next-Page': 'p3' })
      .get(path)
      .query({ 'page[size]': '2', 'page[cursor]': 'p3' })
      .reply(200, [item(3), item(4)], { 'X-Next-Page': 'p4' })
      .get(path)
      .query({ 'page[size]': '2', 'page[cursor]': 'p4' })
      .reply(200, [item(5)], { 'X-Next-Page': '' });
    const ids = (await collect(h.client.listCryptoWithdrawals({}, { pageSize: 2 }))).map((w) => Number(w.id.slice(-2)));
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    h.rec.expectAllSigned();
    expect(h.rec.requests.map((r) => r.path.split('?')[1])).toEqual([
      'page%5Bsize%5D=2',
      'page%5Bsize%5D=2&page%5Bcursor%5D=p2',
      'page%5Bsize%5D=2&page%5Bcursor%5D=p3',
      'page%5Bsize%5D=2&page%5Bcursor%5D=p4',
    ]);
    expect(new Set(h.rec.requests.map((r) => r.headers['x-api-signature'])).size).toBe(4);
  });

  it('stops at maxItems without asking for more, and never asks for more than it can use', async () => {
    const h = harness();
    h.scope
      .get(path)
      .query({ 'page[size]': '3' })
      .reply(200, [item(1), item(2), item(3)], { 'X-Next-Page': 'more' });
    await expect(collect(h.client.listCryptoWithdrawals({}, { maxItems: 3 }))).resolves.toHaveLength(3);
    expect(h.rec.requests).toHaveLength(1);
  });

  it('stops at maxPages while the server keeps offering cursors', async () => {
    const h = harness();
    let n = 0;
    h.scope
      .get(path)
      .query(true)
      .times(3)
      .reply(() => [200, [item(++n)], { 'X-Next-Page': `c${n}` }]);
    await expect(collect(h.client.listCryptoWithdrawals({}, { maxPages: 3 }))).resolves.toHaveLength(3);
    expect(h.rec.requests).toHaveLength(3);
  });

  it('is bounded by default: an endless cursor stops after DEFAULT_MAX_PAGES requests', async () => {
    const h = harness();
    let n = 0;
    h.scope
      .get(path)
      .query(true)
      .times(DEFAULT_MAX_PAGES)
      .reply(() => [200, [], { 'X-Next-Page': `c${++n}` }]);
    await expect(collect(h.client.listCryptoWithdrawals())).resolves.toEqual([]);
    expect(h.rec.requests).toHaveLength(DEFAULT_MAX_PAGES);
  });

  it('clamps page[size] to MAX_PAGE_SIZE', async () => {
    const h = harness();
    h.scope
      .get(path)
      .query({ 'page[size]': String(MAX_PAGE_SIZE) })
      .reply(200, []);
    await collect(h.client.listCryptoWithdrawals({}, { pageSize: 10_000 }));
    expect(h.rec.requests).toHaveLength(1);
  });

  it.each([{ maxItems: Infinity }, { maxPages: 0 }, { pageSize: 1.5 }, { maxItems: -1 }])(
    'refuses unbounded or nonsensical bounds %o without a request',
    async (opts) => {
      const h = harness();
      await expect(collect(h.client.listCryptoWithdrawals({}, opts))).rejects.toMatchObject({
        kind: 'unprocessable',
        operation: 'listCryptoWithdrawals',
      });
      expect(h.rec.requests).toHaveLength(0);
    },
  );

  it('treats a cursor that repeats itself as an invalid response instead of looping', async () => {
    const h = harness();
    h.scope
      .get(path)
      .query(true)
      .times(2)
      .reply(200, [item(1)], { 'X-Next-Page': 'same' });
    await expect(collect(h.client.listCryptoWithdrawals())).rejects.toMatchObject({ kind: 'invalid_response' });
  });

  it('stops early when the consumer breaks, with no further request', async () => {
    const h = harness();
    h.scope
      .get(path)
      .query(true)
      .reply(200, [item(1), item(2)], { 'X-Next-Page': 'next' });
    for await (const w of h.client.listCryptoWithdrawals()) {
      expect(w.id).toBe(item(1).id);
      break;
    }
    expect(h.rec.requests).toHaveLength(1);
  });
});

describe('offset mode on a cursor list', () => {
  it('sends page[enable_offset]=true with page numbers and stops on a short page', async () => {
    const h = harness();
    h.scope
      .get(path)
      .query({ from_time: '5', 'page[enable_offset]': 'true', 'page[number]': '1', 'page[size]': '2' })
      .reply(200, [item(1), item(2)])
      .get(path)
      .query({ from_time: '5', 'page[enable_offset]': 'true', 'page[number]': '2', 'page[size]': '2' })
      .reply(200, [item(3), item(4)])
      .get(path)
      .query({ from_time: '5', 'page[enable_offset]': 'true', 'page[number]': '3', 'page[size]': '2' })
      .reply(200, [item(5)]);
    await expect(
      collect(h.client.listCryptoWithdrawals({ from_time: 5 }, { mode: 'offset', pageSize: 2 })),
    ).resolves.toHaveLength(5);
    h.rec.expectAllSigned();
    expect(h.rec.requests[2]!.path).toBe(
      `${path}?from_time=5&page%5Benable_offset%5D=true&page%5Bnumber%5D=3&page%5Bsize%5D=2`,
    );
  });
});

describe('page-number lists', () => {
  it('respect maxItems across pages', async () => {
    const h = harness();
    h.scope
      .get(`${API}/fiat/withdrawals`)
      .query({ 'page[number]': '1', 'page[size]': '5' })
      .reply(
        200,
        many({ status: 'pending' }, 5, (i) => ({ id: i }) as never),
      );
    await expect(collect(h.client.listFiatWithdrawals({ maxItems: 5 }))).resolves.toHaveLength(5);
    expect(h.rec.requests).toHaveLength(1);
  });
});

describe('onTruncated: whether a bound cut the list short', () => {
  const counting = () => {
    let calls = 0;
    return {
      onTruncated: () => void calls++,
      get calls() {
        return calls;
      },
    };
  };

  it('cursor list: said when maxItems or maxPages stops a list that goes on', async () => {
    const h = harness();
    h.scope
      .get(path)
      .query({ 'page[size]': '3' })
      .reply(200, [item(1), item(2), item(3)], { 'X-Next-Page': 'more' });
    const byItems = counting();
    await collect(h.client.listCryptoWithdrawals({}, { maxItems: 3, onTruncated: byItems.onTruncated }));
    expect(byItems.calls).toBe(1);

    let n = 0;
    h.scope
      .get(path)
      .query(true)
      .times(2)
      .reply(() => [200, [item(++n)], { 'X-Next-Page': `c${n}` }]);
    const byPages = counting();
    await collect(h.client.listCryptoWithdrawals({}, { maxPages: 2, onTruncated: byPages.onTruncated }));
    expect(byPages.calls).toBe(1);
  });

  it('cursor list: not said when the list ends within the bounds, even exactly at maxItems', async () => {
    const h = harness();
    h.scope
      .get(path)
      .query({ 'page[size]': '2' })
      .reply(200, [item(1), item(2)], { 'X-Next-Page': 'p2' })
      .get(path)
      .query({ 'page[size]': '2', 'page[cursor]': 'p2' })
      .reply(200, [item(3), item(4)], { 'X-Next-Page': '' });
    const whole = counting();
    await expect(
      collect(h.client.listCryptoWithdrawals({}, { pageSize: 2, maxItems: 4, onTruncated: whole.onTruncated })),
    ).resolves.toHaveLength(4);
    expect(whole.calls).toBe(0);
  });

  it('page-number list: said when a bound stops it on a full page, not after a short one', async () => {
    const h = harness();
    const fiat = `${API}/fiat/withdrawals`;
    h.scope
      .get(fiat)
      .query({ 'page[number]': '1', 'page[size]': '5' })
      .reply(
        200,
        many({ status: 'pending' }, 5, (i) => ({ id: i }) as never),
      );
    const full = counting();
    await collect(h.client.listFiatWithdrawals({ maxItems: 5, onTruncated: full.onTruncated }));
    expect(full.calls).toBe(1);

    h.scope
      .get(fiat)
      .query({ 'page[number]': '1', 'page[size]': '5' })
      .reply(
        200,
        many({ status: 'pending' }, 4, (i) => ({ id: i }) as never),
      );
    const short = counting();
    await collect(h.client.listFiatWithdrawals({ maxItems: 5, onTruncated: short.onTruncated }));
    expect(short.calls).toBe(0);
  });
});

describe('onPage: every page request is announced before it is sent', () => {
  it('is called once per request, on cursor and page-number lists alike', async () => {
    const h = harness();
    h.scope
      .get(path)
      .query({ 'page[size]': '2' })
      .reply(200, [item(1)], { 'X-Next-Page': 'p2' })
      .get(path)
      .query({ 'page[size]': '2', 'page[cursor]': 'p2' })
      .reply(200, [item(2)], { 'X-Next-Page': '' });
    let cursorPages = 0;
    await collect(h.client.listCryptoWithdrawals({}, { pageSize: 2, onPage: () => void cursorPages++ }));
    expect(cursorPages).toBe(h.rec.requests.length);
    expect(cursorPages).toBe(2);

    h.scope
      .get(`${API}/fiat/withdrawals`)
      .query({ 'page[number]': '1', 'page[size]': '5' })
      .reply(
        200,
        many({ status: 'pending' }, 3, (i) => ({ id: i }) as never),
      );
    let numberedPages = 0;
    await collect(h.client.listFiatWithdrawals({ pageSize: 5, onPage: () => void numberedPages++ }));
    expect(numberedPages).toBe(1);
  });
});
