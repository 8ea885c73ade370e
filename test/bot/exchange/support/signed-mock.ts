/**
 * Every request nock sees is checked with an independent implementation of the reference's
 * signing rules and node:crypto (OpenSSL) verification. Problems are recorded, not thrown, so a
 * bad signature can never hide behind an expected error: `expectAllSigned()` asserts them away.
 */
import { createHash, verify, type KeyObject } from 'node:crypto';
import type nock from 'nock';
import { expect } from 'vitest';

export const ORIGIN = 'https://exchange.test';
export const API = '/public_api/v1';

/** nock replyWithError argument for a connection dropped before any answer. */
export const DROP = { code: 'ECONNRESET', message: 'socket hang up' };

export interface Captured {
  method: string;
  /** Path and query exactly as on the wire. */
  path: string;
  url: string;
  headers: Record<string, string>;
  /** Raw body as sent (utf8). */
  body: string;
  timestamp: string;
  signed: boolean;
  verified: boolean;
  problem?: string;
}

export interface Recorder {
  requests: Captured[];
  /** Record and check every request that reaches one of `scope`'s interceptors. */
  watch(scope: nock.Scope): void;
  /** Assert that at least one request came and that every one verified. */
  expectAllSigned(): void;
}

function headerMap(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((raw ?? {}) as Record<string, unknown>))
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  return out;
}

/** The reference's signature input, written out again here independently of src/bot/exchange/protocol.ts. */
export function referenceSignatureInput(method: string, url: string, body: string, created: string): string {
  const digest = createHash('sha256').update(Buffer.from(body, 'utf8')).digest('hex').toUpperCase();
  return `method=${method}&target-uri=${url}&content-digest=${digest}&created=${created}&alg=ecdsa-secp256k1-sha256`;
}

/** What is wrong with a request's authentication, or undefined when node:crypto verifies it. */
export function checkSignedRequest(
  publicKey: KeyObject,
  apiKey: string,
  r: { method: string; url: string; headers: Record<string, string>; body: string },
): string | undefined {
  const h = r.headers;
  if (h['x-api-key'] !== apiKey) return 'X-API-KEY is not the expected public key';
  if (h['x-api-algorithm'] !== 'ecdsa-secp256k1-sha256') return 'bad X-API-Algorithm';
  if (!/^\d{13}$/.test(h['x-api-timestamp'] ?? '')) return 'X-API-Timestamp is not 13-digit milliseconds';
  const sig = h['x-api-signature'] ?? '';
  if (!/^(?:[0-9A-F]{2})+$/.test(sig)) return 'X-API-Signature is not uppercase hex';
  const input = referenceSignatureInput(r.method, r.url, r.body, h['x-api-timestamp']!);
  const ok = verify(
    'sha256',
    Buffer.from(input, 'utf8'),
    { key: publicKey, dsaEncoding: 'der' },
    Buffer.from(sig, 'hex'),
  );
  return ok ? undefined : `node:crypto rejects the signature over ${input}`;
}

export function createRecorder(publicKey: KeyObject, apiKey: string): Recorder {
  const requests: Captured[] = [];
  return {
    requests,
    watch(scope) {
      scope.on(
        'request',
        (req: { method: string; path: string; headers: unknown }, _interceptor: unknown, body: string) => {
          const headers = headerMap(req.headers);
          const c: Captured = {
            method: req.method,
            path: req.path,
            url: ORIGIN + req.path,
            headers,
            body: body ?? '',
            timestamp: headers['x-api-timestamp'] ?? '',
            signed: 'x-api-signature' in headers,
            verified: false,
          };
          const problem = c.signed ? checkSignedRequest(publicKey, apiKey, c) : 'not signed';
          c.verified = problem === undefined;
          if (problem !== undefined) c.problem = problem;
          requests.push(c);
        },
      );
    },
    expectAllSigned() {
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.filter((r) => !r.verified).map((r) => `${r.method} ${r.path}: ${r.problem}`)).toEqual([]);
    },
  };
}
