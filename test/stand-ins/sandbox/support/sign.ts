/**
 * An independent signer for tests: node:crypto (OpenSSL) only, nothing from src/bot/exchange, so a
 * request the sandbox accepts proves the sandbox follows the reference, not just our own code.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export interface TestKey {
  privateKey: KeyObject;
  /** The private scalar, 64 lowercase hex digits: what EXCHANGE_PRIVATE_KEY holds. */
  privateKeyHex: string;
  /** Compressed public key, uppercase hex (33 bytes). */
  compressedHex: string;
  /** Uncompressed public key, lowercase hex (65 bytes). */
  uncompressedHex: string;
}

/** A fresh secp256k1 key pair. */
export function makeKey(): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x!, 'base64url');
  const y = Buffer.from(jwk.y!, 'base64url');
  const prefix = (y[y.length - 1]! & 1) === 1 ? '03' : '02';
  return {
    privateKey,
    privateKeyHex: Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url')
      .toString('hex')
      .padStart(64, '0'),
    compressedHex: (prefix + x.toString('hex')).toUpperCase(),
    uncompressedHex: `04${x.toString('hex')}${y.toString('hex')}`,
  };
}

export interface SignParts {
  method: string;
  /** Full absolute URL exactly as it will be sent. */
  url: string;
  body?: string | Buffer;
  timestamp: string;
  algorithm?: string;
}

/** The reference's signature input, written out here a second time on purpose. */
export function referenceSignatureInput(p: SignParts): string {
  const digest = createHash('sha256')
    .update(p.body ?? '')
    .digest('hex')
    .toUpperCase();
  return `method=${p.method}&target-uri=${p.url}&content-digest=${digest}&created=${p.timestamp}&alg=${p.algorithm ?? 'ecdsa-secp256k1-sha256'}`;
}

/** DER signature, uppercase hex, by OpenSSL: SHA-256 of the input, signed once. */
export function opensslSign(key: KeyObject, input: string): string {
  return sign('sha256', Buffer.from(input, 'utf8'), { key, dsaEncoding: 'der' }).toString('hex').toUpperCase();
}

export function signedHeaders(key: TestKey, p: SignParts, apiKey = key.compressedHex): Record<string, string> {
  return {
    'X-API-KEY': apiKey,
    'X-API-Signature': opensslSign(key.privateKey, referenceSignatureInput(p)),
    'X-API-Timestamp': p.timestamp,
    'X-API-Algorithm': p.algorithm ?? 'ecdsa-secp256k1-sha256',
  };
}
