// How a request is signed, defined once for the client (signs) and the sandbox (verifies);
// api-reference.md "Authentication".
import { createHash } from 'node:crypto';

/** Every operation lives under this prefix (api-facts.md "Paths"). */
export const API_PREFIX = '/public_api/v1';

/** The only `X-API-Algorithm` value we send and the sandbox accepts. */
export const SIGNATURE_ALGORITHM = 'ecdsa-secp256k1-sha256';

export const HEADER = {
  apiKey: 'x-api-key',
  signature: 'x-api-signature',
  timestamp: 'x-api-timestamp',
  algorithm: 'x-api-algorithm',
  nextPage: 'x-next-page',
  retryAfter: 'retry-after',
} as const;

/** SHA-256 of `data`, uppercase hex, as the reference writes every digest. */
export function sha256HexUpper(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex').toUpperCase();
}

/** A request without a body signs the empty string's digest (api-facts.md "Signing"): E3B0C442...B855. */
export function contentDigest(body: string | Uint8Array | undefined): string {
  return sha256HexUpper(body ?? '');
}

export interface SignatureInputParts {
  method: string;
  /** The full absolute URL exactly as sent on the wire, query string included. */
  targetUri: string;
  /** Body as sent, or undefined for none. */
  body: string | undefined;
  /** Milliseconds since the epoch: the same value goes into X-API-Timestamp. */
  timestampMs: number;
}

/**
 * @example signatureInput({method:'GET', targetUri:'https://x/public_api/v1/accounts/balances', body: undefined, timestampMs: 1700000000000})
 * // 'method=GET&target-uri=https://x/public_api/v1/accounts/balances&content-digest=E3B0...&created=1700000000000&alg=ecdsa-secp256k1-sha256'
 */
export function signatureInput(p: SignatureInputParts): string {
  return signatureInputFromDigest({
    method: p.method,
    targetUri: p.targetUri,
    digest: contentDigest(p.body),
    timestampMs: p.timestampMs,
  });
}

/** For the sandbox, which digests the raw body bytes it received and so cannot go through a string body. */
export function signatureInputFromDigest(p: {
  method: string;
  targetUri: string;
  digest: string;
  timestampMs: number | string;
}): string {
  return [
    `method=${p.method.toUpperCase()}`,
    `target-uri=${p.targetUri}`,
    `content-digest=${p.digest}`,
    `created=${p.timestampMs}`,
    `alg=${SIGNATURE_ALGORITHM}`,
  ].join('&');
}

/** The 32-byte message hash that is signed: SHA-256 of the signature input, exactly once. */
export function signatureHash(input: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(input, 'utf8').digest());
}

// ---- DER (ASN.1 SEQUENCE { INTEGER r, INTEGER s }) ------------------------------------------

/** Minimal big-endian two's-complement INTEGER content for an unsigned 32-byte value. */
function derInteger(bytes: Uint8Array): Uint8Array {
  let start = 0;
  // Strip leading zero bytes: DER integers are minimal.
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  let body = bytes.subarray(start);
  // A set high bit would read as negative: prefix one zero byte.
  if ((body[0]! & 0x80) !== 0) {
    const padded = new Uint8Array(body.length + 1);
    padded.set(body, 1);
    body = padded;
  }
  const out = new Uint8Array(2 + body.length);
  out[0] = 0x02;
  out[1] = body.length;
  out.set(body, 2);
  return out;
}

/** Encode a 64-byte compact (r||s) signature as DER. */
export function compactToDer(compact: Uint8Array): Uint8Array {
  if (compact.length !== 64) throw new Error('compact signature must be 64 bytes');
  const r = derInteger(compact.subarray(0, 32));
  const s = derInteger(compact.subarray(32, 64));
  const len = r.length + s.length; // at most 70, so short-form length always suffices
  const out = new Uint8Array(2 + len);
  out[0] = 0x30;
  out[1] = len;
  out.set(r, 2);
  out.set(s, 2 + r.length);
  return out;
}

/** Decode a strict DER signature into 64-byte compact form; throws on any non-canonical input. */
export function derToCompact(der: Uint8Array): Uint8Array {
  const fail = (why: string): never => {
    throw new Error(`invalid DER signature: ${why}`);
  };
  if (der.length < 8 || der[0] !== 0x30) fail('not a SEQUENCE');
  if (der[1] !== der.length - 2) fail('bad SEQUENCE length');
  const out = new Uint8Array(64);
  let pos = 2;
  for (let i = 0; i < 2; i++) {
    if (der[pos] !== 0x02) fail('not an INTEGER');
    const len = der[pos + 1]!;
    const body = der.subarray(pos + 2, pos + 2 + len);
    if (len === 0 || body.length !== len) fail('bad INTEGER length');
    if ((body[0]! & 0x80) !== 0) fail('negative INTEGER');
    if (len > 1 && body[0] === 0 && (body[1]! & 0x80) === 0) fail('non-minimal INTEGER');
    const value = body[0] === 0 ? body.subarray(1) : body;
    if (value.length > 32) fail('INTEGER too long');
    out.set(value, i * 32 + (32 - value.length));
    pos += 2 + len;
  }
  if (pos !== der.length) fail('trailing bytes');
  return out;
}

export function toHexUpper(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex').toUpperCase();
}

export function fromHex(hex: string): Uint8Array {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new Error('not a hex string');
  return new Uint8Array(Buffer.from(hex, 'hex'));
}
