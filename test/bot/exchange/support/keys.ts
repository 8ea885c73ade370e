/**
 * Fixed test keys and an independent public key for node:crypto (OpenSSL), built from the
 * secp256k1 point as a JWK, so verification never goes through our own signing code.
 */
import { createPublicKey, createPrivateKey, type KeyObject } from 'node:crypto';
import * as secp from '@noble/secp256k1';

/** A fixed private key (test only; it guards nothing). */
export const TEST_PRIVATE_KEY_HEX = 'c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721';

function b64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

/** node:crypto public key object for a private key given in hex. */
export function nodePublicKey(privateKeyHex: string): KeyObject {
  const point = secp.getPublicKey(Buffer.from(privateKeyHex, 'hex'), false); // 04 || x || y
  return createPublicKey({
    key: { kty: 'EC', crv: 'secp256k1', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33, 65)) },
    format: 'jwk',
  });
}

/** node:crypto private key object (via JWK), to export PEM files in SEC1 or PKCS#8 form. */
export function nodePrivateKey(privateKeyHex: string): KeyObject {
  const d = Buffer.from(privateKeyHex, 'hex');
  const point = secp.getPublicKey(d, false);
  return createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'secp256k1',
      d: b64url(d),
      x: b64url(point.subarray(1, 33)),
      y: b64url(point.subarray(33, 65)),
    },
    format: 'jwk',
  });
}

/** Compressed public key, uppercase hex, computed from node:crypto's own export (not our signer). */
export function expectedApiKey(privateKeyHex: string): string {
  const jwk = nodePublicKey(privateKeyHex).export({ format: 'jwk' });
  const x = Buffer.from(jwk.x!, 'base64url');
  const y = Buffer.from(jwk.y!, 'base64url');
  const prefix = (y[31]! & 1) === 0 ? '02' : '03';
  return (prefix + x.toString('hex')).toUpperCase();
}
