/** A fresh exchange key pair for a fault test, in every form a test needs to look for (and never find). */
import { generateKeyPairSync } from 'node:crypto';

export interface FaultKey {
  /** 64 lowercase hex digits: what DESK_PRIVATE_KEY holds in these tests. */
  hex: string;
  /** The same key as PKCS#8 PEM. */
  pem: string;
  /** The base64 body of the PEM (the part a leak would show), without header or line breaks. */
  pemBody: string;
  /** Compressed public key, uppercase hex: registered with the sandbox. */
  publicKeyHex: string;
}

export function makeFaultKey(): FaultKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
  const d = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url');
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x!, 'base64url');
  const y = Buffer.from(jwk.y!, 'base64url');
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  return {
    hex: d.toString('hex').padStart(64, '0'),
    pem,
    pemBody: pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''),
    publicKeyHex: (((y[y.length - 1]! & 1) === 1 ? '03' : '02') + x.toString('hex')).toUpperCase(),
  };
}
