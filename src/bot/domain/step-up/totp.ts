/**
 * The desk's one-time codes: RFC 6238 TOTP (HMAC-SHA-1, 6 digits, 30 s steps) through otplib, the
 * library the authenticator apps' own docs point to; no HMAC of ours. Times are epoch milliseconds
 * from the injected clock, never Date.now().
 */
import { generateSecret, generateSync, generateURI, verifySync } from 'otplib';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Codes one step either side of now still count (a phone's clock a little off). */
export const TOTP_DRIFT_STEPS = 1;

/** A new base32 secret of 20 random bytes (160 bits, RFC 4226's recommended length). */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The otpauth:// URI an authenticator app scans or takes pasted. */
export function otpauthUri(issuer: string, account: string, secret: string): string {
  return generateURI({
    issuer,
    label: account,
    secret,
    algorithm: 'sha1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
}

/** The code for `secret` at `atMs` (tests and the local desk's story use it). */
export function totpCode(secret: string, atMs: number): string {
  return generateSync({ secret, epoch: Math.floor(atMs / 1000), digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS });
}

/** Six digits, spaces allowed ("123 456" as apps show it): the code, or undefined. */
export function normalizedCode(typed: string): string | undefined {
  const code = typed.replace(/\s+/g, '');
  return /^\d{6}$/.test(code) ? code : undefined;
}

/**
 * The time step whose code `code` is, within TOTP_DRIFT_STEPS of `atMs`, or undefined. `code` must
 * already be six digits (normalizedCode).
 */
export function matchedStep(secret: string, code: string, atMs: number): number | undefined {
  const result = verifySync({
    secret,
    token: code,
    epoch: Math.floor(atMs / 1000),
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    // Seconds either side: floor((t ± 30) / 30) is exactly one step either side.
    epochTolerance: TOTP_DRIFT_STEPS * TOTP_PERIOD_SECONDS,
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}
