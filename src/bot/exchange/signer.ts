// Signs requests with a secp256k1 key that leaves its Secret only to be handed to noble, and never
// enters an error message.
import {
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  verify as cryptoVerify,
  type KeyObject,
} from 'node:crypto';
import * as secp from '@noble/secp256k1';
import { Secret } from './secret.js';
import {
  compactToDer,
  derToCompact,
  fromHex,
  HEADER,
  signatureHash,
  signatureInput,
  SIGNATURE_ALGORITHM,
  toHexUpper,
  type SignatureInputParts,
} from './protocol.js';

// noble's sync API needs hash functions; node:crypto provides them (no extra dependency).
secp.hashes.sha256 = (msg: Uint8Array) => new Uint8Array(createHash('sha256').update(msg).digest());
secp.hashes.hmacSha256 = (key: Uint8Array, msg: Uint8Array) =>
  new Uint8Array(createHmac('sha256', key).update(msg).digest());

/** Why a key could not be used: `missing` (none configured), `unreadable` (file), `invalid`. */
export type KeyErrorReason = 'missing' | 'unreadable' | 'invalid';

/** A key problem, described without any key material. */
export class KeyError extends Error {
  override name = 'KeyError';
  readonly reason: KeyErrorReason;
  constructor(message: string, reason: KeyErrorReason = 'invalid') {
    super(message);
    this.reason = reason;
  }
}

export interface Signer {
  /** Public key, uppercase hex (33-byte compressed unless configured otherwise). */
  readonly apiKey: string;
  /** The four authentication headers for one request. */
  headers(parts: SignatureInputParts): Record<string, string>;
}

/** Parse a private key given as hex (64 digits, optional 0x) or PEM (SEC1 or PKCS#8, secp256k1). */
export function parsePrivateKey(text: string): Secret<Uint8Array> {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) return new Secret(pemToScalar(trimmed));
  const hex = trimmed.replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new KeyError('private key is neither 64 hex digits nor a PEM block');
  }
  const bytes = fromHex(hex);
  if (!secp.utils.isValidSecretKey(bytes)) throw new KeyError('private key is not a valid secp256k1 scalar');
  return new Secret(bytes);
}

function pemToScalar(pem: string): Uint8Array {
  let jwk: { crv?: string; d?: string };
  try {
    jwk = createPrivateKey({ key: pem, format: 'pem' }).export({ format: 'jwk' });
  } catch {
    // The OpenSSL message can quote key material in some versions: say only what failed.
    throw new KeyError('PEM private key could not be read (expected an EC PRIVATE KEY or PKCS#8 PRIVATE KEY)');
  }
  if (jwk.crv !== 'secp256k1' || !jwk.d) throw new KeyError('PEM private key is not on the secp256k1 curve');
  return new Uint8Array(Buffer.from(jwk.d, 'base64url'));
}

/** Public key of a private key, uppercase hex, compressed (as the platform's web app sends it). */
export function publicKeyHex(privateKey: Secret<Uint8Array>, compressed = true): string {
  return toHexUpper(secp.getPublicKey(privateKey.reveal(), compressed));
}

/** DER signature over the signature input, uppercase hex. Hashes exactly once. */
export function signInput(privateKey: Secret<Uint8Array>, input: string): string {
  const compact = secp.sign(signatureHash(input), privateKey.reveal(), { prehash: false });
  return toHexUpper(compactToDer(compact));
}

/** A signer for one key. `apiKey` overrides the derived public key (EXCHANGE_API_KEY). */
export function createSigner(privateKey: Secret<Uint8Array>, apiKey?: string): Signer {
  const key = apiKey ?? publicKeyHex(privateKey);
  return {
    apiKey: key,
    headers(parts) {
      return {
        [HEADER.apiKey]: key,
        [HEADER.signature]: signInput(privateKey, signatureInput(parts)),
        [HEADER.timestamp]: String(parts.timestampMs),
        [HEADER.algorithm]: SIGNATURE_ALGORITHM,
      };
    },
  };
}

/**
 * For the sandbox. Strict DER only (derToCompact); OpenSSL's curve maths, about five times faster
 * than noble and independent of the signer. High-S is accepted: OpenSSL produces it.
 */
export function verifyInput(publicKey: Uint8Array, input: string, derHex: string): boolean {
  let der: Uint8Array;
  try {
    der = fromHex(derHex);
    derToCompact(der);
  } catch {
    return false;
  }
  try {
    return cryptoVerify(
      'sha256',
      Buffer.from(input, 'utf8'),
      { key: publicKeyObject(publicKey), dsaEncoding: 'der' },
      der,
    );
  } catch {
    return false;
  }
}

const publicKeyCache = new Map<string, KeyObject>();

/** node:crypto key for a raw secp256k1 point (compressed or not), cached per key. */
function publicKeyObject(point: Uint8Array): KeyObject {
  const id = Buffer.from(point).toString('hex');
  let key = publicKeyCache.get(id);
  if (!key) {
    const raw = secp.Point.fromBytes(point).toBytes(false); // 04 || x || y
    key = createPublicKey({
      key: {
        kty: 'EC',
        crv: 'secp256k1',
        x: Buffer.from(raw.subarray(1, 33)).toString('base64url'),
        y: Buffer.from(raw.subarray(33, 65)).toString('base64url'),
      },
      format: 'jwk',
    });
    publicKeyCache.set(id, key);
  }
  return key;
}
