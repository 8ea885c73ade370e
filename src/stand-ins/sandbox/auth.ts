// Authentication exactly as the reference describes it (1-7), in the order a developer would debug it,
// each refusal naming its check. The signed string is rebuilt with exchange/protocol.ts from the wire bytes.
import type { IncomingHttpHeaders } from 'node:http';
import {
  contentDigest,
  derToCompact,
  fromHex,
  HEADER,
  SIGNATURE_ALGORITHM,
  signatureInputFromDigest,
} from '../../bot/exchange/protocol.js';
import { verifyInput } from '../../bot/exchange/signer.js';
import type { KeyRegistry, RegisteredKey } from './keys.js';

export interface IncomingSigned {
  method: string;
  /** `http://host:port` + the request target exactly as received (no decoding, no re-encoding). */
  fullUrl: string;
  headers: IncomingHttpHeaders;
  rawBody: Uint8Array;
}

export type AuthOutcome =
  { ok: true; key: RegisteredKey } | { ok: false; message: string; extra?: Record<string, unknown> };

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

const refuse = (message: string, extra?: Record<string, unknown>): AuthOutcome => ({
  ok: false,
  message,
  ...(extra ? { extra } : {}),
});

/** Check key, algorithm, timestamp window and signature; `nowMs` is the verifier's wall clock. */
export function authenticate(req: IncomingSigned, registry: KeyRegistry, nowMs: number, windowMs: number): AuthOutcome {
  const apiKey = header(req.headers, HEADER.apiKey);
  const algorithm = header(req.headers, HEADER.algorithm);
  const timestamp = header(req.headers, HEADER.timestamp);
  const signature = header(req.headers, HEADER.signature);

  if (!apiKey) return refuse('Missing X-API-KEY header');
  const key = registry.lookup(apiKey);
  if (!key) return refuse('Unknown API key: X-API-KEY is not a registered public key');

  if (!algorithm) return refuse('Missing X-API-Algorithm header');
  if (algorithm !== SIGNATURE_ALGORITHM) return refuse(`Unsupported X-API-Algorithm: expected ${SIGNATURE_ALGORITHM}`);

  if (!timestamp) return refuse('Missing X-API-Timestamp header');
  if (!/^\d{1,16}$/.test(timestamp))
    return refuse('Invalid X-API-Timestamp: expected Unix time in milliseconds (digits only)');
  const skew = nowMs - Number(timestamp);
  if (Math.abs(skew) > windowMs) {
    const hint = timestamp.length <= 10 ? ' (it looks like seconds, not milliseconds)' : '';
    return refuse(`Stale X-API-Timestamp: outside the accepted window of ±${windowMs} ms${hint}`, { skew_ms: skew });
  }

  if (!signature) return refuse('Missing X-API-Signature header');
  if (!/^[0-9A-F]+$/.test(signature)) return refuse('Invalid X-API-Signature: expected uppercase hexadecimal');
  try {
    derToCompact(fromHex(signature));
  } catch {
    return refuse('Invalid X-API-Signature: not a DER (ASN.1) encoded ECDSA signature');
  }
  const input = signatureInputFromDigest({
    method: req.method,
    targetUri: req.fullUrl,
    digest: contentDigest(req.rawBody),
    timestampMs: timestamp,
  });
  if (!verifyInput(key.point, input, signature)) {
    // The string we verified is no secret (method, URL, digest, time): showing it makes a
    // client's signing bug a one-line diff instead of an afternoon.
    return refuse(
      'Invalid signature: it does not match the method, full URL, body digest and timestamp of this request',
      {
        signature_input: input,
      },
    );
  }
  return { ok: true, key };
}
