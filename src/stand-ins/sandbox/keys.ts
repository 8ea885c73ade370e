// Registered API keys, compared as secp256k1 points: the same key may be written compressed or not, in any case.
import * as secp from '@noble/secp256k1';
import { SCOPES, type Scope } from '../../bot/exchange/assumptions.js';

export interface KeySpec {
  /** Public key hex, compressed (33 bytes) or uncompressed (65 bytes), any case, optional 0x. */
  publicKeyHex: string;
  scopes: readonly Scope[];
  /** The account the key acts on; defaults to the sandbox's main account. */
  account?: string;
}

export interface RegisteredKey {
  /** Canonical form: compressed, uppercase hex. */
  id: string;
  point: Uint8Array;
  scopes: ReadonlySet<Scope>;
  account: string;
}

/** The point as compressed bytes, or undefined when `hex` is not a valid secp256k1 public key. */
export function parsePublicKey(hex: string): Uint8Array | undefined {
  const clean = hex.trim().replace(/^0x/i, '').toLowerCase();
  if (!/^(?:0[23][0-9a-f]{64}|04[0-9a-f]{128})$/.test(clean)) return undefined;
  try {
    return secp.Point.fromHex(clean).toBytes(true);
  } catch {
    return undefined;
  }
}

export class KeyRegistry {
  private readonly keys = new Map<string, RegisteredKey>();

  constructor(private readonly defaultAccount: string) {}

  /** Register (or re-register with new scopes) a key; throws on a malformed key or scope. */
  register(spec: KeySpec): RegisteredKey {
    const point = parsePublicKey(spec.publicKeyHex);
    if (!point) throw new Error('publicKeyHex is not a secp256k1 public key in hex (33 or 65 bytes)');
    for (const s of spec.scopes) if (!(SCOPES as readonly string[]).includes(s)) throw new Error(`unknown scope ${s}`);
    const id = Buffer.from(point).toString('hex').toUpperCase();
    const key: RegisteredKey = {
      id,
      point,
      scopes: new Set(spec.scopes),
      account: spec.account ?? this.defaultAccount,
    };
    this.keys.set(id, key);
    return key;
  }

  /** The registered key for a header value, whatever its encoding. */
  lookup(headerValue: string): RegisteredKey | undefined {
    // The canonical form as sent (what the client sends) needs no curve arithmetic.
    const canonical = this.keys.get(headerValue.trim().replace(/^0x/i, '').toUpperCase());
    if (canonical) return canonical;
    const point = parsePublicKey(headerValue);
    return point ? this.keys.get(Buffer.from(point).toString('hex').toUpperCase()) : undefined;
  }

  /** Every registered key as it would be registered again (persist.ts: a write taken late is checked with its key after a restart). */
  specs(): KeySpec[] {
    return [...this.keys.values()].map((k) => ({ publicKeyHex: k.id, scopes: [...k.scopes], account: k.account }));
  }

  accounts(): string[] {
    return [...new Set([...this.keys.values()].map((k) => k.account))];
  }
}
