import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, errorBody } from '../../../src/bot/exchange/schemas.js';
import { createSigner, parsePrivateKey } from '../../../src/bot/exchange/signer.js';
import { SCOPE_FAILURE_STATUS } from '../../../src/bot/exchange/assumptions.js';
import { makeKey } from './support/sign.js';
import { expectSchema, startTestSandbox, V1, type TestSandbox } from './support/sandbox.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

const BALANCES = `${V1}/accounts/balances`;

function refusal(answer: { status: number; body: unknown }): string {
  expect(answer.status).toBe(401);
  return expectSchema(errorBody, answer.body).errors[0]!.message;
}

describe('authentication', () => {
  it('accepts a request signed with node:crypto (compressed key)', async () => {
    const a = await t.api('GET', BALANCES);
    expect(a.status).toBe(200);
    expect(a.body.length).toBeGreaterThan(0);
    for (const item of a.body) expectSchema(balance, item);
  });

  it('matches keys as points: uncompressed and lowercase forms of the same key are the same key', async () => {
    const a = await t.api('GET', BALANCES, { headers: { 'X-API-KEY': t.key.uncompressedHex } });
    expect(a.status).toBe(200);
    const b = await t.api('GET', BALANCES, { headers: { 'X-API-KEY': t.key.compressedHex.toLowerCase() } });
    expect(b.status).toBe(200);
  });

  it('accepts a POST signed over its raw body and a query with encoded brackets', async () => {
    const a = await t.api('GET', `${V1}/crypto/withdrawals?page%5Bsize%5D=1`);
    expect(a.status).toBe(200);
    expect(a.body).toHaveLength(1);
    const b = await t.api('GET', `${V1}/crypto/withdrawals?page[size]=1`);
    expect(b.status).toBe(200);
    const c = await t.api('POST', `${V1}/order_quotes`, {
      body: { symbol: 'BTC-USD', side: 'buy', quantity: '1000', payment_method: 'user_balance' },
    });
    expect(c.status).toBe(201);
  });

  it("accepts the project's own signer too (one protocol, two implementations)", async () => {
    const signer = createSigner(parsePrivateKey(t.key.privateKeyHex));
    expect(signer.apiKey).toBe(t.key.compressedHex);
    const url = t.sandbox.url + BALANCES;
    const res = await fetch(url, {
      headers: signer.headers({ method: 'GET', targetUri: url, body: undefined, timestampMs: Date.now() }),
    });
    expect(res.status).toBe(200);
  });

  it('refuses a tampered signature', async () => {
    const good = await t.api('GET', BALANCES);
    expect(good.status).toBe(200);
    const other = makeKey();
    // A valid DER signature by another key over the same input.
    const a = await t.api('GET', BALANCES, { key: other, headers: { 'X-API-KEY': t.key.compressedHex } });
    expect(refusal(a)).toMatch(/^Invalid signature/);
  });

  it('refuses a tampered body', async () => {
    const a = await t.api('POST', `${V1}/order_quotes`, {
      body: { symbol: 'BTC-USD', side: 'buy', quantity: '1000', payment_method: 'user_balance' },
      signBody: JSON.stringify({ symbol: 'BTC-USD', side: 'buy', quantity: '10', payment_method: 'user_balance' }),
    });
    expect(refusal(a)).toMatch(/^Invalid signature/);
    expect(a.body.errors[0].signature_input).toContain('content-digest=');
  });

  it('refuses a tampered query (the full URL is signed)', async () => {
    const a = await t.api('GET', `${V1}/crypto/withdrawals?page[size]=3`, {
      signUrl: `${t.sandbox.url}${V1}/crypto/withdrawals?page[size]=1`,
    });
    expect(refusal(a)).toMatch(/^Invalid signature/);
    // Encoding is part of the bytes: %5B signed, [ sent is a different URL.
    const b = await t.api('GET', `${V1}/crypto/withdrawals?page[size]=1`, {
      signUrl: `${t.sandbox.url}${V1}/crypto/withdrawals?page%5Bsize%5D=1`,
    });
    expect(refusal(b)).toMatch(/^Invalid signature/);
  });

  it('refuses a tampered timestamp (inside the window, but not the one signed)', async () => {
    const signedAt = String(Date.now());
    const a = await t.api('GET', BALANCES, {
      timestamp: signedAt,
      headers: { 'X-API-Timestamp': String(Number(signedAt) + 1) },
    });
    expect(refusal(a)).toMatch(/^Invalid signature/);
  });

  it('refuses a stale timestamp, and hints when it looks like seconds', async () => {
    const old = String(Date.now() - 31_000);
    expect(refusal(await t.api('GET', BALANCES, { timestamp: old }))).toMatch(/^Stale X-API-Timestamp/);
    const future = String(Date.now() + 31_000);
    expect(refusal(await t.api('GET', BALANCES, { timestamp: future }))).toMatch(/^Stale X-API-Timestamp/);
    const seconds = String(Math.floor(Date.now() / 1000));
    expect(refusal(await t.api('GET', BALANCES, { timestamp: seconds }))).toMatch(/looks like seconds/);
    expect(refusal(await t.api('GET', BALANCES, { timestamp: '17e11' }))).toMatch(/^Invalid X-API-Timestamp/);
  });

  it('honours a configured timestamp window', async () => {
    const narrow = await startTestSandbox({ timestampWindowMs: 1_000 });
    try {
      expect((await narrow.api('GET', BALANCES, { timestamp: String(Date.now() - 5_000) })).status).toBe(401);
      expect((await narrow.api('GET', BALANCES)).status).toBe(200);
    } finally {
      await narrow.close();
    }
  });

  it('refuses a wrong algorithm even when the signature covers it', async () => {
    const a = await t.api('GET', BALANCES, {
      headers: { 'X-API-Algorithm': 'ecdsa-secp256r1-sha256' },
    });
    expect(refusal(a)).toMatch(/^Unsupported X-API-Algorithm/);
  });

  it('refuses an unknown key and a key that is not a key', async () => {
    const stranger = makeKey();
    expect(refusal(await t.api('GET', BALANCES, { key: stranger }))).toMatch(/^Unknown API key/);
    expect(refusal(await t.api('GET', BALANCES, { headers: { 'X-API-KEY': 'hello' } }))).toMatch(/^Unknown API key/);
  });

  it('refuses missing headers, lowercase hex and non-DER signatures, naming the check', async () => {
    expect(refusal(await t.api('GET', BALANCES, { unsigned: true }))).toBe('Missing X-API-KEY header');
    const good = await t.api('GET', BALANCES);
    expect(good.status).toBe(200);
    const signed = await t.api('GET', BALANCES, { headers: { 'X-API-Signature': '3006020101020101' } });
    expect(refusal(signed)).toMatch(/^Invalid signature|not a DER/);
    const lower = await t.api('GET', BALANCES, { headers: { 'X-API-Signature': 'abcdef' } });
    expect(refusal(lower)).toMatch(/uppercase/);
    const notDer = await t.api('GET', BALANCES, { headers: { 'X-API-Signature': 'ABCDEF' } });
    expect(refusal(notDer)).toMatch(/not a DER/);
  });

  it(`refuses a key without the scope with ${SCOPE_FAILURE_STATUS}`, async () => {
    const readOnly = makeKey();
    const tradeOnly = makeKey();
    t.sandbox.keys.register({ publicKeyHex: readOnly.compressedHex, scopes: ['read'] });
    t.sandbox.keys.register({ publicKeyHex: tradeOnly.uncompressedHex, scopes: ['trade'] });
    const w = await t.api('POST', `${V1}/crypto/withdrawals`, {
      key: readOnly,
      body: {
        crypto_currency_id: 101,
        amount: '0.01',
        address_book_address_id: '00000000-0000-4000-8000-000000000000',
      },
    });
    expect(w.status).toBe(SCOPE_FAILURE_STATUS);
    expect(w.body.errors[0].message).toMatch(/'transfer' scope/);
    const f = await t.api('POST', `${V1}/fiat/withdrawals`, {
      key: tradeOnly,
      body: { bank_account_id: 1, currency: 'USD', amount: '100' },
    });
    expect(f.status).toBe(SCOPE_FAILURE_STATUS);
    const q = await t.api('POST', `${V1}/order_quotes`, {
      key: readOnly,
      body: { symbol: 'BTC-USD', side: 'buy', quantity: '10', payment_method: 'user_balance' },
    });
    expect(q.status).toBe(SCOPE_FAILURE_STATUS);
    expect(q.body.errors[0].message).toMatch(/'trade' scope/);
    expect((await t.api('GET', `${V1}/orders`, { key: readOnly })).status).toBe(SCOPE_FAILURE_STATUS);
    // Reads need only a registered key.
    expect((await t.api('GET', BALANCES, { key: readOnly })).status).toBe(200);
    expect(
      (
        await t.api('POST', `${V1}/order_quotes`, {
          key: tradeOnly,
          body: { symbol: 'BTC-USD', side: 'buy', quantity: '10', payment_method: 'user_balance' },
        })
      ).status,
    ).toBe(201);
  });

  it('serves the spot price without any key', async () => {
    const a = await t.api('GET', `${V1}/price/spots?base_currency=BTC&counter_currency=USD`, { unsigned: true });
    expect(a.status).toBe(200);
    expect(a.body.symbol).toBe('BTC-USD');
  });
});
