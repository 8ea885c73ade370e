import { describe, expect, it } from 'vitest';
import { generateSync } from 'otplib';
import {
  matchedStep,
  newTotpSecret,
  normalizedCode,
  otpauthUri,
  totpCode,
} from '../../../../src/bot/domain/step-up/totp.js';

// RFC 6238 Appendix B, SHA-1: the seed "12345678901234567890", 8-digit codes at these times.
const RFC_SEED = new TextEncoder().encode('12345678901234567890');
const RFC_6238_SHA1: ReadonlyArray<readonly [number, string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];
const BASE32_OF_RFC_SEED = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP (RFC 6238, SHA-1, 30 s)', () => {
  it.each(RFC_6238_SHA1)('at T=%i the library gives the RFC code %s', (seconds, code) => {
    expect(generateSync({ secret: RFC_SEED, epoch: seconds, digits: 8, period: 30, algorithm: 'sha1' })).toBe(code);
  });

  it.each(RFC_6238_SHA1)('at T=%i our six-digit code is the last six digits of the RFC code', (seconds, code) => {
    // Dynamic truncation takes the number mod 10^digits: a 6-digit code is the 8-digit one's tail.
    expect(totpCode(BASE32_OF_RFC_SEED, seconds * 1000)).toBe(code.slice(2));
  });

  it('accepts a code one step either side of now, and refuses two steps away', () => {
    const secret = newTotpSecret();
    const t = 1_700_000_000_000 - (1_700_000_000_000 % 30_000);
    const code = totpCode(secret, t);
    const step = t / 30_000;
    expect(matchedStep(secret, code, t)).toBe(step);
    expect(matchedStep(secret, code, t + 30_000)).toBe(step);
    expect(matchedStep(secret, code, t - 30_000)).toBe(step);
    expect(matchedStep(secret, code, t + 60_000)).toBeUndefined();
    expect(matchedStep(secret, code, t - 30_001)).toBeUndefined();
    const other = code === '000000' ? '000001' : '000000';
    expect(matchedStep(secret, other, t)).toBeUndefined();
  });

  it('makes 160-bit base32 secrets and an otpauth URI with the issuer, SHA-1, 6 digits and 30 s', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUri('Desk Bot', 'U0APPROVER', secret));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Desk Bot:U0APPROVER');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Desk Bot');
    expect(uri.searchParams.get('algorithm') ?? 'SHA1').toBe('SHA1');
    expect(uri.searchParams.get('digits') ?? '6').toBe('6');
    expect(uri.searchParams.get('period') ?? '30').toBe('30');
  });

  it('reads a code as six digits, spaces allowed, and nothing else', () => {
    expect(normalizedCode('123 456')).toBe('123456');
    expect(normalizedCode(' 123456 ')).toBe('123456');
    expect(normalizedCode('12345')).toBeUndefined();
    expect(normalizedCode('1234567')).toBeUndefined();
    expect(normalizedCode('12a456')).toBeUndefined();
    expect(normalizedCode('１２３４５６')).toBeUndefined();
  });
});
