// Request URLs, encoded exactly once: the string is both signed (`target-uri`) and fetched, so every
// reserved character is percent-encoded (`[` `]` too) and normalised through `new URL()` once, in
// the form fetch's parser leaves alone.
import { API_PREFIX } from './protocol.js';

export type QueryValue = string | number | boolean | undefined;
export type Query = Record<string, QueryValue> | ReadonlyArray<readonly [string, QueryValue]>;

/** Also encodes `!'()*`: fetch escapes `'` in a query itself, which would make the wire URL differ from the signed one. */
export function encodeComponent(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `a=1&page%5Bsize%5D=100` in the given order; undefined values are left out. */
export function encodeQuery(query: Query | undefined): string {
  if (!query) return '';
  const entries: readonly (readonly [string, unknown])[] = Array.isArray(query) ? query : Object.entries(query);
  return entries
    .filter((e): e is readonly [string, string | number | boolean] => e[1] !== undefined)
    .map(([k, v]) => `${encodeComponent(k)}=${encodeComponent(String(v))}`)
    .join('&');
}

/** Origin plus any path prefix of a configured base URL, without a trailing slash. */
export function normaliseBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`exchange base URL is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError('exchange base URL must be http(s)');
  if (url.search || url.hash || url.username || url.password) {
    throw new TypeError('exchange base URL must not carry a query, fragment or credentials');
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** base + API_PREFIX + path + query; `path` starts with `/`, parameters already encoded (`pathParam`). */
export function buildUrl(normalisedBase: string, path: string, query?: Query): string {
  const qs = encodeQuery(query);
  return new URL(`${normalisedBase}${API_PREFIX}${path}${qs ? `?${qs}` : ''}`).href;
}

/** `.` and `..` are refused: URL parsing resolves them (encoded or not) and the call would hit another resource. */
export function pathParam(value: string | number): string {
  const text = String(value);
  if (text === '' || text === '.' || text === '..')
    throw new RangeError(`invalid path parameter ${JSON.stringify(text)}`);
  return encodeComponent(text);
}
