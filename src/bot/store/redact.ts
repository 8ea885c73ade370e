/**
 * The last guard before a value reaches a file that is kept for years: known secrets (passed in
 * by main.ts: the exchange private key, Slack tokens, signing secret) and anything shaped like a
 * Slack token or a PEM private key are replaced by [redacted]. Secret<T> values already serialise
 * as [redacted]; this catches a secret that slipped out as a plain string.
 */
export const REDACTED = '[redacted]';

/** A secret as a string, or anything with `reveal()` (exchange/secret.ts's Secret). */
export type SecretLike = string | { reveal(): string };

/** Shapes that are secrets whatever their value. */
const SECRET_SHAPES: readonly RegExp[] = [
  /\bxox[abposre]-[0-9A-Za-z-]{8,}/g, // Slack bot/user/app-level tokens
  /\bxapp-\d-[0-9A-Za-z-]{8,}/g, // Slack app-level tokens
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
];

/** Shortest secret accepted: a shorter one would redact ordinary words all over the log. */
export const MIN_SECRET_LENGTH = 8;

/**
 * Builds a function that returns a redacted deep copy of a JSON value (strings and object keys).
 * Known secrets match case-insensitively, so an upper-cased hex key is caught too. Empty secrets
 * (an unset optional token) are ignored; a secret shorter than 8 characters is refused.
 */
export function makeRedactor(secrets: readonly SecretLike[] = []): (value: unknown) => unknown {
  const redactString = makeTextRedactor(secrets);
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return redactString(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactString(k), walk(v)]));
    }
    return value;
  };
  return walk;
}

/**
 * The same redaction for one string. Run it on values before they are serialised: inside JSON a
 * secret holding `"` or `\` is escaped and no longer matches.
 */
export function makeTextRedactor(secrets: readonly SecretLike[] = []): (text: string) => string {
  const known = secrets
    .map((s) => (typeof s === 'string' ? s : s.reveal()))
    .filter((s) => s.length > 0);
  for (const s of known) {
    if (s.length < MIN_SECRET_LENGTH) throw new Error(`redact: refusing a secret shorter than ${MIN_SECRET_LENGTH} characters`);
  }
  const patterns = [
    ...SECRET_SHAPES,
    // Longest first, so a secret containing another is replaced whole.
    ...[...new Set(known)].sort((a, b) => b.length - a.length).map((s) => new RegExp(escapeRegExp(s), 'gi')),
  ];
  return (text: string): string => patterns.reduce((out, re) => out.replace(re, REDACTED), text);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
