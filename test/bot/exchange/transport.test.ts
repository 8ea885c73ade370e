/** The transport through the client: URLs, bodies, errors, retries, timeouts, logging, secrecy. */
import { inspect } from 'node:util';
import type nock from 'nock';
import { describe, expect, it } from 'vitest';
import { ExchangeError } from '../../../src/bot/ports/exchange-error.js';
import { collect } from '../../../src/bot/engine/bounded-lists.js';
import type { RequestLogEntry } from '../../../src/bot/exchange/transport.js';
import { API, DROP, harness, ORIGIN, TEST_API_KEY, useNock } from './support/client.js';
import { addressBookItem, balanceBTC, cryptoWithdrawalFull, orderItem, withdrawalId } from './support/fixtures.js';
import { TEST_PRIVATE_KEY_HEX } from './support/keys.js';

useNock();

const withdrawalBody = {
  crypto_currency_id: 42,
  amount: '0.1',
  address_book_address_id: '5d0c6a1e-1f2b-4c3d-8e9f-0a1b2c3d4e5f',
  request_id: 'r-9',
};

async function failure(p: Promise<unknown>): Promise<ExchangeError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ExchangeError);
  return e as ExchangeError;
}

describe('URLs: signed exactly as sent', () => {
  it('encodes a cursor once, brackets and quote included, and signs that URL', async () => {
    const h = harness();
    const cursor = "it's a+b/ü=[x]";
    h.scope.get(`${API}/address_book/addresses`).query(true).reply(200, [addressBookItem], { 'X-Next-Page': cursor });
    h.scope.get(`${API}/address_book/addresses`).query(true).reply(200, []);
    await collect(h.client.listAddressBook());
    h.rec.expectAllSigned();
    expect(h.rec.requests[1]!.path).toBe(
      `${API}/address_book/addresses?page%5Bsize%5D=100&page%5Bcursor%5D=it%27s%20a%2Bb%2F%C3%BC%3D%5Bx%5D`,
    );
  });

  it('keeps a path prefix of the base URL and drops its trailing slash', async () => {
    const h = harness({ baseUrl: `${ORIGIN}/gateway/` });
    h.scope.get(`/gateway${API}/accounts/balances`).reply(200, []);
    await h.client.listBalances();
    h.rec.expectAllSigned();
  });

  it('refuses a base URL with a query or a non-http scheme', () => {
    expect(() => harness({ baseUrl: `${ORIGIN}?x=1` })).toThrow(TypeError);
    expect(() => harness({ baseUrl: 'ftp://exchange.test' })).toThrow(TypeError);
  });
});

describe('request bodies', () => {
  it('validates a body before sending: nothing goes out for an invalid one', async () => {
    const h = harness();
    const err = await failure(h.client.createCryptoWithdrawal({ ...withdrawalBody, amount: '1e3' }));
    expect(err).toMatchObject({ kind: 'unprocessable', status: undefined, fieldPath: 'amount' });
    expect(err.outcomeUnknown).toBe(false);
    const extra = { ...withdrawalBody, wallet_identity_attributes: {} } as unknown as typeof withdrawalBody;
    expect(await failure(h.client.createCryptoWithdrawal(extra))).toMatchObject({
      kind: 'unprocessable',
      fieldPath: 'wallet_identity_attributes',
    });
    expect(h.rec.requests).toHaveLength(0);
  });
});

describe('error answers', () => {
  it('422 keeps the exchange messages', async () => {
    const h = harness();
    h.scope.post(`${API}/crypto/withdrawals`).reply(422, { errors: [{ message: 'Recipient information is missing' }] });
    const err = await failure(h.client.createCryptoWithdrawal(withdrawalBody));
    expect(err).toMatchObject({
      kind: 'unprocessable',
      status: 422,
      operation: 'createCryptoWithdrawal',
      messages: ['Recipient information is missing'],
    });
    expect(err.message).toBe('createCryptoWithdrawal failed (unprocessable 422): Recipient information is missing');
    h.rec.expectAllSigned();
  });

  it('tolerates non-JSON and odd error bodies', async () => {
    const h = harness({ retry: false });
    h.scope.get(`${API}/accounts/balances`).reply(502, '<html>Bad gateway</html>', { 'content-type': 'text/html' });
    h.scope.get(`${API}/accounts/balances`).reply(400, { errors: [{ message: 'first' }, { code: 7 }, 'junk'] });
    h.scope.get(`${API}/accounts/balances`).reply(403, { error: 'Key lacks scope' });
    h.scope.get(`${API}/accounts/balances`).reply(404, '');
    expect(await failure(h.client.listBalances())).toMatchObject({ kind: 'server', status: 502, messages: [] });
    expect(await failure(h.client.listBalances())).toMatchObject({
      kind: 'unprocessable',
      status: 400,
      messages: ['first'],
    });
    expect(await failure(h.client.listBalances())).toMatchObject({
      kind: 'forbidden',
      status: 403,
      messages: ['Key lacks scope'],
    });
    expect(await failure(h.client.listBalances())).toMatchObject({ kind: 'not_found', status: 404, messages: [] });
  });

  it('keeps the server time of a 401 so clock skew can be told apart', async () => {
    const h = harness();
    h.scope
      .get(`${API}/accounts/balances`)
      .reply(401, { errors: [{ message: 'Unauthorized' }] }, { Date: 'Tue, 14 Nov 2023 22:13:20 GMT' });
    expect(await failure(h.client.listBalances())).toMatchObject({
      kind: 'unauthorized',
      serverTimeMs: Date.parse('Tue, 14 Nov 2023 22:13:20 GMT'),
    });
  });

  it('does not follow a redirect to a URL that was not signed', async () => {
    const h = harness();
    h.scope.get(`${API}/accounts/balances`).reply(301, '', { Location: 'https://elsewhere.test/' });
    expect(await failure(h.client.listBalances())).toMatchObject({ kind: 'invalid_response', status: 301 });
    expect(h.rec.requests).toHaveLength(1);
  });
});

describe('2xx bodies', () => {
  it.each([
    ['not JSON', 'hello', { 'content-type': 'application/json' }, /body is not JSON/],
    ['empty', '', {}, /empty body/],
    ['HTML', '<p>maintenance</p>', { 'content-type': 'text/html' }, /unexpected content type/],
  ])('a %s body is an invalid_response', async (_n, body, headers, detail) => {
    const h = harness();
    h.scope.get(`${API}/accounts/balances`).reply(200, body, headers);
    const err = await failure(h.client.listBalances());
    expect(err).toMatchObject({ kind: 'invalid_response', operation: 'listBalances', status: 200 });
    expect(err.detail).toMatch(detail);
    expect(h.rec.requests).toHaveLength(1); // not retried: the exchange did answer
  });

  it('accepts application/vnd.api+json and charset parameters as JSON', async () => {
    const h = harness();
    h.scope
      .get(`${API}/accounts/balances`)
      .reply(200, JSON.stringify([balanceBTC]), { 'content-type': 'application/vnd.api+json; charset=utf-8' });
    await expect(h.client.listBalances()).resolves.toEqual([balanceBTC]);
  });
});

describe('retries', () => {
  it('retries a GET after 500 and 503, signing each attempt afresh with a fresh timestamp', async () => {
    const h = harness();
    h.scope.get(`${API}/crypto/withdrawals/${withdrawalId}`).reply(500);
    h.scope.get(`${API}/crypto/withdrawals/${withdrawalId}`).reply(503);
    h.scope.get(`${API}/crypto/withdrawals/${withdrawalId}`).reply(200, cryptoWithdrawalFull);
    await expect(h.client.getCryptoWithdrawal(withdrawalId)).resolves.toMatchObject({ id: withdrawalId });
    h.rec.expectAllSigned();
    expect(h.clock.sleeps).toEqual([188, 375]); // 250*2^(n-1), half fixed, half jitter at 0.5
    const stamps = h.rec.requests.map((r) => Number(r.timestamp));
    expect(stamps[1]! - stamps[0]!).toBe(188);
    expect(stamps[2]! - stamps[1]!).toBe(375);
    expect(new Set(h.rec.requests.map((r) => r.headers['x-api-signature'])).size).toBe(3);
  });

  it('waits what Retry-After says on 429 and reports rate_limited once attempts run out', async () => {
    const h = harness();
    h.scope
      .get(`${API}/accounts/balances`)
      .times(3)
      .reply(429, { errors: [{ message: 'Too many requests' }] }, { 'Retry-After': '2' });
    const err = await failure(h.client.listBalances());
    expect(err).toMatchObject({
      kind: 'rate_limited',
      status: 429,
      retryAfterMs: 2_000,
      messages: ['Too many requests'],
    });
    expect(h.clock.sleeps).toEqual([2_000, 2_000]);
    expect(h.rec.requests).toHaveLength(3);
    h.rec.expectAllSigned();
  });

  it('retries a GET after a dropped connection', async () => {
    const h = harness();
    h.scope.get(`${API}/orders/o-1`).replyWithError(DROP);
    h.scope.get(`${API}/orders/o-1`).reply(200, orderItem);
    await expect(h.client.getOrder('o-1')).resolves.toMatchObject({ id: 'o-1' });
    h.rec.expectAllSigned();
    expect(h.rec.requests).toHaveLength(2);
    expect(h.rec.requests[0]!.timestamp).not.toBe(h.rec.requests[1]!.timestamp);
  });

  it('gives up after maxAttempts network failures with kind network', async () => {
    const h = harness({ retry: { maxAttempts: 2, random: () => 0 } });
    h.scope.get(`${API}/accounts/balances`).times(2).replyWithError(DROP);
    const err = await failure(h.client.listBalances());
    expect(err).toMatchObject({ kind: 'network', status: undefined });
    expect(err.outcomeUnknown).toBe(true);
    expect(h.clock.sleeps).toEqual([125]);
  });

  it.each([
    ['503', (i: nock.Interceptor) => i.reply(503)],
    ['429 with Retry-After', (i: nock.Interceptor) => i.reply(429, '', { 'Retry-After': '1' })],
    ['a dropped connection', (i: nock.Interceptor) => i.replyWithError(DROP)],
  ])('never retries a POST after %s', async (_n, answer) => {
    const h = harness();
    answer(h.scope.post(`${API}/crypto/withdrawals`).once());
    await failure(h.client.createCryptoWithdrawal(withdrawalBody));
    expect(h.rec.requests).toHaveLength(1);
    expect(h.clock.sleeps).toEqual([]);
    h.rec.expectAllSigned();
  });

  it('never retries an order or a quote either', async () => {
    const h = harness();
    h.scope.post(`${API}/orders`).once().reply(500);
    h.scope.post(`${API}/order_quotes`).once().replyWithError(DROP);
    await failure(h.client.createOrder({ execution_type: 'rfq', order_quote_id: 'q-1', client_order_id: 'c-1' }));
    await failure(
      h.client.createQuote({ symbol: 'BTC-SGD', side: 'buy', quantity: '100', payment_method: 'user_balance' }),
    );
    expect(h.rec.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
  });
});

describe('timeouts', () => {
  it('a slow answer to a POST is kind timeout, outcome unknown, sent once', async () => {
    const h = harness({ timeoutMs: 300 });
    h.scope.post(`${API}/crypto/withdrawals`).once().delay(2_000).reply(201, cryptoWithdrawalFull);
    const started = Date.now();
    const err = await failure(h.client.createCryptoWithdrawal(withdrawalBody));
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(err).toMatchObject({ kind: 'timeout', operation: 'createCryptoWithdrawal', status: undefined });
    expect(err.outcomeUnknown).toBe(true);
    expect(h.rec.requests).toHaveLength(1);
  });

  it('a slow GET is retried and can then succeed', async () => {
    const h = harness({ timeoutMs: 300 });
    h.scope.get(`${API}/accounts/balances`).delay(2_000).reply(200, []);
    h.scope.get(`${API}/accounts/balances`).reply(200, [balanceBTC]);
    await expect(h.client.listBalances()).resolves.toEqual([balanceBTC]);
    h.rec.expectAllSigned();
  });
});

describe('rate cap', () => {
  it('spaces requests at the configured rate, on the injected clock', async () => {
    const h = harness({ rateLimit: { perSecond: 2 } });
    h.scope.get(`${API}/accounts/balances`).times(5).reply(200, []);
    for (let i = 0; i < 5; i++) await h.client.listBalances();
    const stamps = h.rec.requests.map((r) => Number(r.timestamp) - Number(h.rec.requests[0]!.timestamp));
    // Two per window, the next pair one window (plus the jitter guard) later: never three in a second.
    expect(stamps).toEqual([0, 0, 1_020, 1_020, 2_040]);
  });
});

describe('logging and secrecy', () => {
  it('logs method, path, status and duration per attempt, and nothing secret', async () => {
    const entries: RequestLogEntry[] = [];
    const h = harness({ logger: (e) => entries.push(e) });
    h.scope.get(`${API}/bank_accounts`).query(true).reply(500);
    h.scope.get(`${API}/bank_accounts`).query(true).reply(200, []);
    await collect(h.client.listBankAccounts({ currency: 'SGD' }));
    expect(entries.map(({ durationMs: _d, ...rest }) => rest)).toEqual([
      {
        operation: 'listBankAccounts',
        method: 'GET',
        route: '/bank_accounts',
        path: `${API}/bank_accounts`,
        attempt: 1,
        status: 500,
        kind: 'server',
      },
      {
        operation: 'listBankAccounts',
        method: 'GET',
        route: '/bank_accounts',
        path: `${API}/bank_accounts`,
        attempt: 2,
        status: 200,
      },
    ]);
    expect(entries.every((e) => e.durationMs >= 0)).toBe(true);
    const text = JSON.stringify(entries);
    for (const r of h.rec.requests) expect(text).not.toContain(r.headers['x-api-signature']);
    expect(text).not.toContain(TEST_API_KEY);
  });

  it('a logger that throws does not fail the call', async () => {
    const h = harness({
      logger: () => {
        throw new Error('log sink down');
      },
    });
    h.scope.get(`${API}/accounts/balances`).reply(200, [balanceBTC]);
    await expect(h.client.listBalances()).resolves.toEqual([balanceBTC]);
  });

  it('errors of every kind carry no key, signature or header', async () => {
    const h = harness({ retry: false, timeoutMs: 300 });
    h.scope.get(`${API}/accounts/balances`).reply(401, { errors: [{ message: 'Bad signature' }] });
    h.scope.get(`${API}/accounts/balances`).replyWithError(DROP);
    h.scope.get(`${API}/accounts/balances`).delay(2_000).reply(200, []);
    h.scope.get(`${API}/accounts/balances`).reply(200, [{ currency: 1 }]);
    const errors = [];
    for (let i = 0; i < 4; i++) errors.push(await failure(h.client.listBalances()));
    // A request nock has no answer for: its own error message lists the request headers.
    errors.push(await failure(h.client.getOrder('no-such-interceptor')));
    expect(errors.map((e) => e.kind)).toEqual(['unauthorized', 'network', 'timeout', 'invalid_response', 'network']);
    const signatures = h.rec.requests.map((r) => r.headers['x-api-signature']!);
    for (const err of errors) {
      for (const text of [
        err.message,
        err.stack ?? '',
        JSON.stringify(err),
        inspect(err, { depth: 10, showHidden: true }),
      ]) {
        expect(text.toLowerCase()).not.toContain(TEST_PRIVATE_KEY_HEX);
        expect(text).not.toMatch(/x-api-signature/i);
        for (const s of signatures) expect(text).not.toContain(s);
      }
    }
  });
});

describe("the exchange's clock offset, from its Date header", () => {
  it('is unknown before any answer, then the header second plus half a second minus the round trip midpoint', async () => {
    const h = harness();
    expect(h.client.clockOffsetMs()).toBeUndefined();
    // Our clock reads T; the exchange says T + 42 s (to the second).
    const ours = h.clock.now();
    h.scope
      .get(`${API}/accounts/balances`)
      .reply(200, [balanceBTC], { Date: new Date(Math.floor((ours + 42_000) / 1000) * 1000).toUTCString() });
    await h.client.listBalances();
    const offset = h.client.clockOffsetMs()!;
    expect(Math.abs(offset - 42_000)).toBeLessThanOrEqual(1_000);
  });

  it('follows the newest answer, and ignores one without a usable Date', async () => {
    const h = harness();
    const ours = h.clock.now();
    h.scope.get(`${API}/accounts/balances`).reply(200, [balanceBTC], { Date: new Date(ours - 5_000).toUTCString() });
    h.scope.get(`${API}/accounts/balances`).reply(200, [balanceBTC], { Date: 'not a date' });
    await h.client.listBalances();
    await h.client.listBalances();
    expect(Math.abs(h.client.clockOffsetMs()! + 5_000)).toBeLessThanOrEqual(1_000);
  });
});
