// The last guard before a value reaches a file kept for years: known secrets and anything shaped like
// a Slack token or PEM key become [redacted], catching a secret that slipped out as a plain string.
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

/** Case-insensitive (an upper-cased hex key is caught); empty secrets ignored, shorter than 8 characters refused. */
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

/** Run it before serialising: inside JSON a secret holding `"` or `\` is escaped and no longer matches. */
export function makeTextRedactor(secrets: readonly SecretLike[] = []): (text: string) => string {
  const known = secrets.map((s) => (typeof s === 'string' ? s : s.reveal())).filter((s) => s.length > 0);
  for (const s of known) {
    if (s.length < MIN_SECRET_LENGTH)
      throw new Error(`redact: refusing a secret shorter than ${MIN_SECRET_LENGTH} characters`);
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
