// The reference's paging and time filters, with 422s for bad values: cursor lists (page[size] default 2,
// X-Next-Page, or page[enable_offset]) and page-number lists (page[size] 50).
import { DEFAULT_CURSOR_PAGE_SIZE, DEFAULT_NUMBERED_PAGE_SIZE, MAX_PAGE_SIZE } from '../../bot/exchange/assumptions.js';
import { HEADER } from '../../bot/exchange/protocol.js';
import { fail } from './router.js';

function positiveInt(query: URLSearchParams, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const n = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) {
    fail(
      422,
      max === Number.MAX_SAFE_INTEGER
        ? `${name} must be a positive integer`
        : `${name} must be an integer from 1 to ${max}`,
    );
  }
  return n;
}

function cursorFor(id: string): string {
  return Buffer.from(`after:${id}`, 'utf8').toString('base64url');
}

function afterId(cursor: string): string | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return text.startsWith('after:') ? text.slice('after:'.length) : undefined;
}

export interface Page<T> {
  items: T[];
  headers: Record<string, string>;
}

/** The cursor names the last item served, so items created meanwhile (newest first) do not shift the next page. */
export function cursorPage<T>(items: readonly T[], query: URLSearchParams, idOf: (item: T) => string): Page<T> {
  const size = positiveInt(query, 'page[size]', DEFAULT_CURSOR_PAGE_SIZE, MAX_PAGE_SIZE);
  const offsetMode = query.get('page[enable_offset]');
  if (offsetMode !== null && offsetMode !== 'true' && offsetMode !== 'false')
    fail(422, 'page[enable_offset] must be true or false');
  if (offsetMode === 'true') {
    const number = positiveInt(query, 'page[number]', 1);
    return { items: items.slice((number - 1) * size, number * size), headers: {} };
  }
  let start = 0;
  const cursor = query.get('page[cursor]');
  if (cursor !== null) {
    const id = afterId(cursor);
    const at = id === undefined ? -1 : items.findIndex((i) => idOf(i) === id);
    if (at < 0) fail(422, 'page[cursor] is not a cursor this list issued');
    start = at + 1;
  }
  const page = items.slice(start, start + size);
  const headers: Record<string, string> = {};
  if (start + size < items.length && page.length > 0)
    headers[HEADER.nextPage] = cursorFor(idOf(page[page.length - 1]!));
  return { items: page, headers };
}

/** One page of a page-number list (page[number] from 1, page[size] default 50). */
export function numberedPage<T>(items: readonly T[], query: URLSearchParams): T[] {
  const size = positiveInt(query, 'page[size]', DEFAULT_NUMBERED_PAGE_SIZE, MAX_PAGE_SIZE);
  const number = positiveInt(query, 'page[number]', 1);
  return items.slice((number - 1) * size, number * size);
}

/** An optional epoch-milliseconds filter; anything but a non-negative integer is a 422. */
export function timeParam(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const n = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n))
    fail(422, `Invalid time parameter ${name}: expected epoch milliseconds as a non-negative integer`);
  return n;
}

/** Newest first, ties broken by id so pages are stable. */
export function newestFirst<T extends { created_at: number }>(
  items: readonly T[],
  idOf: (item: T) => string | number,
): T[] {
  return [...items].sort((a, b) => b.created_at - a.created_at || String(idOf(a)).localeCompare(String(idOf(b))));
}
