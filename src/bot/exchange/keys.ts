// The exchange key from configuration values: EXCHANGE_PRIVATE_KEY (hex) or _FILE (hex or PEM, SEC1
// or PKCS#8 secp256k1), EXCHANGE_API_KEY to send instead of the derived public key. No error shows the key.
import type { Secret } from './secret.js';
import { ExposedSecretFileError, readSecretFile } from './secret-file.js';
import { createSigner, KeyError, parsePrivateKey, publicKeyHex, type Signer } from './signer.js';

export interface KeyConfig {
  /** EXCHANGE_PRIVATE_KEY: 64 hex digits, optional 0x. */
  privateKey?: string | undefined;
  /** EXCHANGE_PRIVATE_KEY_FILE: path to a file holding the hex key or a PEM block. */
  privateKeyFile?: string | undefined;
  /** EXCHANGE_API_KEY: public key hex as registered with the operator (defaults to the derived one). */
  apiKey?: string | undefined;
}

export interface LoadedKey {
  privateKey: Secret<Uint8Array>;
  /** What goes into X-API-KEY. */
  apiKey: string;
  signer: Signer;
}

/** True when some key is configured at all (to tell "no key" from "bad key"). */
export function hasKeyConfig(config: KeyConfig): boolean {
  return Boolean(config.privateKey?.trim() || config.privateKeyFile?.trim());
}

/** Throws KeyError (missing | unreadable | invalid). @example loadExchangeKey({ privateKeyFile: '/run/secrets/exchange.pem' }).signer */
export function loadExchangeKey(config: KeyConfig, readFile: (path: string) => string = readSecretFile): LoadedKey {
  const inline = config.privateKey?.trim() || undefined;
  const file = config.privateKeyFile?.trim() || undefined;
  if (inline && file)
    throw new KeyError('set only one of EXCHANGE_PRIVATE_KEY and EXCHANGE_PRIVATE_KEY_FILE', 'invalid');
  if (!inline && !file)
    throw new KeyError('no exchange key configured: set EXCHANGE_PRIVATE_KEY or EXCHANGE_PRIVATE_KEY_FILE', 'missing');

  const source = inline ? 'EXCHANGE_PRIVATE_KEY' : `EXCHANGE_PRIVATE_KEY_FILE (${file})`;
  const text = inline ?? readKeyFile(file!, readFile);
  let privateKey: Secret<Uint8Array>;
  try {
    privateKey = parsePrivateKey(text);
  } catch (e) {
    // parsePrivateKey's messages are key-free by construction; anything else is replaced.
    const why = e instanceof KeyError ? e.message : 'the key could not be parsed';
    throw new KeyError(`${source}: ${why}`, 'invalid');
  }

  const apiKey = config.apiKey?.trim() || publicKeyHex(privateKey);
  if (config.apiKey?.trim()) checkApiKey(apiKey, privateKey);
  return { privateKey, apiKey, signer: createSigner(privateKey, apiKey) };
}

function readKeyFile(path: string, readFile: (path: string) => string): string {
  try {
    return readFile(path);
  } catch (e) {
    if (e instanceof ExposedSecretFileError)
      throw new KeyError(`EXCHANGE_PRIVATE_KEY_FILE: ${e.message}`, 'unreadable');
    const code = (e as { code?: unknown }).code;
    throw new KeyError(
      `EXCHANGE_PRIVATE_KEY_FILE (${path}) could not be read${typeof code === 'string' ? ` (${code})` : ''}`,
      'unreadable',
    );
  }
}

/** An override must still be this key's public key (compressed or not, any case): else every call fails 401. */
function checkApiKey(apiKey: string, privateKey: Secret<Uint8Array>): void {
  if (!/^(?:[0-9a-fA-F]{66}|[0-9a-fA-F]{130})$/.test(apiKey)) {
    throw new KeyError('EXCHANGE_API_KEY must be the public key in hex (66 or 130 digits)', 'invalid');
  }
  const given = apiKey.toUpperCase();
  if (given !== publicKeyHex(privateKey, true) && given !== publicKeyHex(privateKey, false)) {
    throw new KeyError('EXCHANGE_API_KEY is not the public key of the configured private key', 'invalid');
  }
}
