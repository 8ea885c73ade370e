import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  openSecret,
  parseStepUpKey,
  sealSecret,
  SealedSecretError,
} from '../../../../src/bot/domain/step-up/sealed-secret.js';

const KEY = new Uint8Array(randomBytes(32));

describe('sealed step-up secrets (AES-256-GCM)', () => {
  it('opens for its user with its key, and never shows the secret sealed', () => {
    const sealed = sealSecret(KEY, 'U0AAAAAA1', 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DP');
    expect(sealSecret(KEY, 'U0AAAAAA1', 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).not.toBe(sealed);
    expect(openSecret(KEY, 'U0AAAAAA1', sealed)).toBe('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
  });

  it('refuses another key, another user, and a changed byte', () => {
    const sealed = sealSecret(KEY, 'U0AAAAAA1', 'JBSWY3DPEHPK3PXP');
    expect(() => openSecret(new Uint8Array(randomBytes(32)), 'U0AAAAAA1', sealed)).toThrow(SealedSecretError);
    expect(() => openSecret(KEY, 'U0AAAAAA2', sealed)).toThrow(SealedSecretError);
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1);
    expect(() => openSecret(KEY, 'U0AAAAAA1', flipped)).toThrow(SealedSecretError);
    expect(() => openSecret(KEY, 'U0AAAAAA1', 'plain')).toThrow(SealedSecretError);
  });

  it('reads the key as 64 hex digits or base64 of 32 bytes, and says what is wrong without quoting it', () => {
    const bytes = randomBytes(32);
    const hex = parseStepUpKey(bytes.toString('hex'));
    const b64 = parseStepUpKey(` ${bytes.toString('base64')}\n`);
    expect(hex.ok && Buffer.from(hex.key).equals(bytes)).toBe(true);
    expect(b64.ok && Buffer.from(b64.key).equals(bytes)).toBe(true);
    for (const bad of [bytes.toString('hex').slice(2), randomBytes(16).toString('base64'), 'not a key at all', '']) {
      const parsed = parseStepUpKey(bad);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok && bad !== '') expect(parsed.problem).not.toContain(bad);
    }
  });
});
