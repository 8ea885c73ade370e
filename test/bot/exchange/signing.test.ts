/**
 * Signing against independent implementations: golden vectors asserted literally, node:crypto
 * (OpenSSL) verifying every signature, and a BigInt reference DER encoder.
 */
import { verify } from 'node:crypto';
import * as secp from '@noble/secp256k1';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compactToDer,
  contentDigest,
  derToCompact,
  signatureHash,
  signatureInput,
} from '../../../src/bot/exchange/protocol.js';
import { createSigner, parsePrivateKey, publicKeyHex, signInput } from '../../../src/bot/exchange/signer.js';
import { API, harness, TEST_API_KEY, useNock } from './support/client.js';
import { fakeClock } from './support/clock.js';
import { cryptoWithdrawalFull, cryptoWithdrawalItem } from './support/fixtures.js';
import { expectedApiKey, nodePublicKey, TEST_PRIVATE_KEY_HEX } from './support/keys.js';
import { checkSignedRequest, ORIGIN } from './support/signed-mock.js';

useNock();

const KEY = parsePrivateKey(TEST_PRIVATE_KEY_HEX);
const PUBLIC = nodePublicKey(TEST_PRIVATE_KEY_HEX);
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function nodeVerifies(input: string, derHex: string, key = PUBLIC): boolean {
  return verify('sha256', Buffer.from(input, 'utf8'), { key, dsaEncoding: 'der' }, Buffer.from(derHex, 'hex'));
}

describe('golden vectors (fixed key, fixed time, fixed request)', () => {
  const getUrl = `${ORIGIN}/public_api/v1/crypto/withdrawals?from_time=1699990000000&page%5Bsize%5D=100&page%5Bcursor%5D=abc%2B%2F%3D`;
  const getInput =
    'method=GET&target-uri=https://exchange.test/public_api/v1/crypto/withdrawals?from_time=1699990000000&page%5Bsize%5D=100&page%5Bcursor%5D=abc%2B%2F%3D' +
    '&content-digest=E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855&created=1700000000000&alg=ecdsa-secp256k1-sha256';
  const getSignature =
    '30450221008A3537DF488E7967F82F3990FFF6D524A15A53DD0E3A5B3684202C167C6EE92D02205CEF282BD08D4AF68A425EC22905C4ADC368D416F03ADD20D63E9788BC7B08F6';
  const postBody =
    '{"crypto_currency_id":42,"amount":"0.1","address_book_address_id":"5d0c6a1e-1f2b-4c3d-8e9f-0a1b2c3d4e5f","request_id":"r-1"}';
  const postDigest = '3D404B383B1A4C0161A1408793301B7A950E07CE50F7BFA6A67BA8CEF4A49680';
  const postInput = `method=POST&target-uri=https://exchange.test/public_api/v1/crypto/withdrawals&content-digest=${postDigest}&created=1700000000123&alg=ecdsa-secp256k1-sha256`;

  it('derives the X-API-KEY as the compressed public key in uppercase hex', () => {
    expect(publicKeyHex(KEY)).toBe('032C8C31FC9F990C6B55E3865A184A4CE50E09481F2EAEB3E60EC1CEA13A6AE645');
    expect(publicKeyHex(KEY)).toBe(expectedApiKey(TEST_PRIVATE_KEY_HEX));
  });

  it('digests: empty body and a JSON body, uppercase SHA-256', () => {
    expect(contentDigest(undefined)).toBe('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855');
    expect(contentDigest(postBody)).toBe(postDigest);
  });

  it('GET with a query: exact input string, exact deterministic signature, verified by OpenSSL', () => {
    const input = signatureInput({ method: 'GET', targetUri: getUrl, body: undefined, timestampMs: 1_700_000_000_000 });
    expect(input).toBe(getInput);
    const sig = signInput(KEY, input);
    expect(sig).toBe(getSignature);
    expect(nodeVerifies(getInput, getSignature)).toBe(true);
  });

  it('POST with a body: exact input string, signature verified by OpenSSL', () => {
    const input = signatureInput({
      method: 'POST',
      targetUri: `${ORIGIN}/public_api/v1/crypto/withdrawals`,
      body: postBody,
      timestampMs: 1_700_000_000_123,
    });
    expect(input).toBe(postInput);
    expect(signInput(KEY, input)).toBe(
      '304402204DA9A922D5ACFB47CECEEB93B8B5896823F719B6844FC24039B0158CA3D364CE02204866588BCE1E4E08ACD6C114B0094CB15A3E066247FD04F014EB9E9EFF1A54C1',
    );
    expect(nodeVerifies(postInput, signInput(KEY, input))).toBe(true);
  });

  it('hashes exactly once: a signature over the double hash does not verify', () => {
    const doubleHashed = secp.sign(signatureHash(getInput), KEY.reveal()); // noble prehashes by default
    expect(nodeVerifies(getInput, Buffer.from(compactToDer(doubleHashed)).toString('hex'))).toBe(false);
  });

  it('the client sends exactly the golden GET: same URL, timestamp, headers and signature', async () => {
    const h = harness({ clock: fakeClock(1_700_000_000_000) });
    h.scope
      .get(`${API}/crypto/withdrawals`)
      .query(true)
      .reply(200, [cryptoWithdrawalItem], { 'X-Next-Page': 'abc+/=' });
    h.scope.get(`${API}/crypto/withdrawals`).query(true).reply(200, []);
    const items = h.client.listCryptoWithdrawals({ from_time: 1_699_990_000_000 });
    for await (const _ of items) void _;
    h.rec.expectAllSigned();
    const second = h.rec.requests[1]!;
    expect(second.url).toBe(getUrl);
    expect(second.headers).toMatchObject({
      'x-api-key': TEST_API_KEY,
      'x-api-timestamp': '1700000000000',
      'x-api-algorithm': 'ecdsa-secp256k1-sha256',
      'x-api-signature': getSignature,
    });
  });

  it('the client signs the exact POST bytes it sends', async () => {
    const h = harness({ clock: fakeClock(1_700_000_000_123) });
    h.scope.post(`${API}/crypto/withdrawals`).reply(201, cryptoWithdrawalFull);
    await h.client.createCryptoWithdrawal({
      crypto_currency_id: 42,
      amount: '0.1',
      address_book_address_id: '5d0c6a1e-1f2b-4c3d-8e9f-0a1b2c3d4e5f',
      request_id: 'r-1',
    });
    h.rec.expectAllSigned();
    expect(h.rec.requests[0]!.body).toBe(postBody);
    expect(h.rec.requests[0]!.headers['content-type']).toBe('application/json');
    expect(h.rec.requests[0]!.headers['x-api-signature']).toBe(signInput(KEY, postInput));
  });
});

describe('the test verifier itself can fail', () => {
  it('flags a request signed with another key', async () => {
    const other = createSigner(parsePrivateKey('11'.repeat(32)), TEST_API_KEY);
    const h = harness({ signer: other });
    h.scope.get(`${API}/accounts/balances`).reply(200, []);
    await h.client.listBalances();
    expect(h.rec.requests[0]!.verified).toBe(false);
    expect(h.rec.requests[0]!.problem).toMatch(/node:crypto rejects/);
  });

  it('flags a signature whose target-uri differs from the wire URL by encoding alone', () => {
    const signedUrl = `${ORIGIN}${API}/x?page[cursor]=a`;
    const sig = signInput(
      KEY,
      signatureInput({ method: 'GET', targetUri: signedUrl, body: undefined, timestampMs: 1_700_000_000_000 }),
    );
    const headers = {
      'x-api-key': TEST_API_KEY,
      'x-api-algorithm': 'ecdsa-secp256k1-sha256',
      'x-api-timestamp': '1700000000000',
      'x-api-signature': sig,
    };
    expect(
      checkSignedRequest(PUBLIC, TEST_API_KEY, { method: 'GET', url: signedUrl, headers, body: '' }),
    ).toBeUndefined();
    expect(
      checkSignedRequest(PUBLIC, TEST_API_KEY, {
        method: 'GET',
        url: `${ORIGIN}${API}/x?page%5Bcursor%5D=a`,
        headers,
        body: '',
      }),
    ).toMatch(/rejects/);
    expect(checkSignedRequest(PUBLIC, TEST_API_KEY, { method: 'GET', url: signedUrl, headers, body: '{}' })).toMatch(
      /rejects/,
    );
  });
});

// ---- DER ----------------------------------------------------------------------------------------

/** Reference DER encoder over BigInt: written differently from protocol.ts on purpose. */
function referenceDer(compact: Uint8Array): string {
  const int = (bytes: Uint8Array): string => {
    let hex = BigInt(`0x${Buffer.from(bytes).toString('hex')}`).toString(16);
    if (hex.length % 2) hex = `0${hex}`;
    if (parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`;
    return `02${(hex.length / 2).toString(16).padStart(2, '0')}${hex}`;
  };
  const body = int(compact.subarray(0, 32)) + int(compact.subarray(32));
  return `30${(body.length / 2).toString(16).padStart(2, '0')}${body}`.toUpperCase();
}

/** A 32-byte value with `zeros` leading zero bytes and, optionally, the top bit of the first non-zero byte set. */
const scalarBytes = fc
  .tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 0, max: 32 }), fc.boolean())
  .map(([bytes, zeros, high]) => {
    const out = Uint8Array.from(bytes);
    out.fill(0, 0, zeros);
    if (zeros < 32) out[zeros] = high ? out[zeros]! | 0x80 : out[zeros]! & 0x7f;
    return out;
  });
const compactSig = fc.tuple(scalarBytes, scalarBytes).map(([r, s]) => Uint8Array.from([...r, ...s]));

describe('DER encoding', () => {
  it('matches a BigInt reference encoder for any r and s, leading zeros and high bits included', () => {
    fc.assert(
      fc.property(compactSig, (compact) => {
        expect(Buffer.from(compactToDer(compact)).toString('hex').toUpperCase()).toBe(referenceDer(compact));
        expect(derToCompact(compactToDer(compact))).toEqual(compact);
      }),
      { numRuns: 1_000 },
    );
  });

  it('every signature over random keys and inputs verifies with node:crypto', () => {
    const validKey = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => secp.utils.isValidSecretKey(k));
    fc.assert(
      fc.property(validKey, fc.string(), (keyBytes, text) => {
        const hex = Buffer.from(keyBytes).toString('hex');
        const input = `method=GET&target-uri=${ORIGIN}/${encodeURIComponent(text)}`;
        expect(nodeVerifies(input, signInput(parsePrivateKey(hex), input), nodePublicKey(hex))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('real signatures with short r, short s and high-bit s (n - s) all verify with node:crypto', () => {
    const found = { shortR: 0, shortS: 0, highR: 0 };
    for (let i = 0; i < 6_000 && (found.shortR < 2 || found.shortS < 2); i++) {
      const input = `probe ${i}`;
      const compact = secp.sign(signatureHash(input), KEY.reveal(), { prehash: false });
      const r = compact.subarray(0, 32);
      const s = compact.subarray(32);
      const interesting = r[0] === 0 || s[0] === 0 || (i < 50 && (r[0]! & 0x80) !== 0);
      if (!interesting) continue;
      if (r[0] === 0) found.shortR++;
      if (s[0] === 0) found.shortS++;
      if ((r[0]! & 0x80) !== 0) found.highR++;
      const der = Buffer.from(compactToDer(compact)).toString('hex');
      expect(der.toUpperCase()).toBe(referenceDer(compact));
      expect(nodeVerifies(input, der)).toBe(true);
      // The high-S look-alike is valid too (OpenSSL accepts it) and always has its top bit set.
      const highS = (N - BigInt(`0x${Buffer.from(s).toString('hex')}`)).toString(16).padStart(64, '0');
      const twin = Uint8Array.from([...r, ...Buffer.from(highS, 'hex')]);
      expect(twin[32]! & 0x80).toBe(0x80);
      expect(nodeVerifies(input, Buffer.from(compactToDer(twin)).toString('hex'))).toBe(true);
    }
    expect(found.shortR).toBeGreaterThanOrEqual(2);
    expect(found.shortS).toBeGreaterThanOrEqual(2);
    expect(found.highR).toBeGreaterThanOrEqual(1);
  });

  it('OpenSSL rejects a non-minimal encoding, so the checks above could fail', () => {
    const input = 'non-minimal';
    const compact = secp.sign(signatureHash(input), KEY.reveal(), { prehash: false });
    const good = Buffer.from(compactToDer(compact));
    // Pad s with a needless zero byte: same number, not DER.
    const rLen = good[3]!;
    const sStart = 4 + rLen;
    const s = good.subarray(sStart + 2);
    const bad = Buffer.concat([
      Buffer.from([0x30, good[1]! + 1]),
      good.subarray(2, sStart),
      Buffer.from([0x02, s.length + 1, 0x00]),
      s,
    ]);
    expect(nodeVerifies(input, good.toString('hex'))).toBe(true);
    expect(nodeVerifies(input, bad.toString('hex'))).toBe(false);
    expect(() => derToCompact(bad)).toThrow(/non-minimal/);
  });
});
