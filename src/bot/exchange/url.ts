/**
 * Request URLs, encoded exactly once. The string built here is both signed (as `target-uri`)
 * and handed to fetch, so it must already be in the form fetch's URL parser leaves alone:
 * every reserved character of a name or value is percent-encoded, `[` and `]` included
 * (`page%5Bcursor%5D=...`), and the result is normalised through `new URL()` once.
 */
import { API_PREFIX } from './protocol.js';

export type QueryValue = string | number | boolean | undefined;
export type Query = Record<string, QueryValue> | ReadonlyArray<readonly [string, QueryValue]>;

/**
 * encodeURIComponent plus the five characters it leaves alone (`!'()*`): fetch's parser
 * escapes `'` in a query on its own, which would make the wire URL differ from the signed one.
 */
export function encodeComponent(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `a=1&page%5Bsize%5D=100` in the given order; undefined values are left out. */
export function encodeQuery(query: Query | undefined): string {
  if (!query) return '';
  const entries = Array.isArray(query) ? query : Object.entries(query);
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

/**
 * The absolute URL of an API call: base + API_PREFIX + path + query. `path` starts with `/` and
 * has its parameters already encoded (see `pathParam`).
 */
export function buildUrl(normalisedBase: string, path: string, query?: Query): string {
  const qs = encodeQuery(query);
  return new URL(`${normalisedBase}${API_PREFIX}${path}${qs ? `?${qs}` : ''}`).href;
}

/**
 * One path segment from a caller's id. `.` and `..` are refused: URL parsing would resolve them
 * (encoded or not) and the request would go to another resource.
 */
export function pathParam(value: string | number): string {
  const text = String(value);
  if (text === '' || text === '.' || text === '..') throw new RangeError(`invalid path parameter ${JSON.stringify(text)}`);
  return encodeComponent(text);
}
