/**
 * Step-up secrets at rest: AES-256-GCM under STEP_UP_ENCRYPTION_KEY, bound to their user (the user id
 * is the additional data), so a sealed secret copied to another user's row does not open.
 * Format: "v1." + base64url(12-byte IV | 16-byte tag | ciphertext).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const STEP_UP_KEY_BYTES = 32;

/** Why a sealed secret did not open: another key (changed without `npm run store -- rotate-step-up-key`), or a damaged value. */
export class SealedSecretError extends Error {
  override name = 'SealedSecretError';
}

/**
 * STEP_UP_ENCRYPTION_KEY as written: 64 hex digits or base64 of exactly 32 bytes. The key, or a
 * sentence saying what is wrong that never quotes it.
 */
export function parseStepUpKey(text: string): { ok: true; key: Uint8Array } | { ok: false; problem: string } {
  const value = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(value)
    ? Buffer.from(value, 'hex')
    : /^[A-Za-z0-9+/]{43}=?$/.test(value)
      ? Buffer.from(value, 'base64')
      : undefined;
  if (key?.length !== STEP_UP_KEY_BYTES)
    return {
      ok: false,
      problem:
        'must be 32 random bytes as 64 hex digits or as base64 (generate one with: openssl rand -hex 32); the value is not shown here',
    };
  return { ok: true, key: new Uint8Array(key) };
}

/** `secret` encrypted for `userId` with a fresh IV. */
export function sealSecret(key: Uint8Array, userId: string, secret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(userId, 'utf8'));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The secret sealed for `userId`; SealedSecretError when the key or the user differs, or the value is damaged. */
export function openSecret(key: Uint8Array, userId: string, sealed: string): string {
  if (!sealed.startsWith(VERSION)) throw new SealedSecretError('not a sealed step-up secret');
  const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) throw new SealedSecretError('sealed step-up secret is too short');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(userId, 'utf8'));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SealedSecretError(
      'a step-up secret did not open with STEP_UP_ENCRYPTION_KEY (another key, or a damaged value)',
    );
  }
}
