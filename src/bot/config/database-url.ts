// What a valid DATABASE_URL looks like, and every form its password could be written in, so the
// redactors can hide each. The value is never quoted in a message.

/** Shortest password the redactors can hide: a shorter one would match ordinary words everywhere. */
export const MIN_DATABASE_PASSWORD_LENGTH = 8;

/** The URL parsed, when it is a postgres:// or postgresql:// URL. */
export function parseDatabaseUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'postgres:' || url.protocol === 'postgresql:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The password as written in the URL and as sent: in the user part, or as a `password` parameter. */
export function databasePasswords(value: string): string[] {
  const url = parseDatabaseUrl(value);
  if (!url) return [];
  const forms = [url.password, safeDecode(url.password), url.searchParams.get('password') ?? ''];
  return [...new Set(forms.filter((p) => p.length > 0))];
}

/** Every string a redactor must hide for this URL: the URL itself and its password's forms. */
export function databaseUrlSecrets(value: string): string[] {
  return [value, ...databasePasswords(value)];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
