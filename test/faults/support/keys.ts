/** A fresh exchange key pair for a fault test, in every form a test needs to look for (and never find). */
import { makeKey } from '../../stand-ins/sandbox/support/sign.js';

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
  const key = makeKey();
  const pem = key.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  return {
    hex: key.privateKeyHex,
    pem,
    pemBody: pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''),
    publicKeyHex: key.compressedHex,
  };
}
