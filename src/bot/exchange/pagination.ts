// Paged lists as async iterators, always bounded (as stripe-node): stops at `maxItems` or `maxPages`
// and calls `onTruncated` when the list may go on. Each page is signed afresh with its full URL.
import type { ListOptions } from '../ports/list-options.js';
import { MAX_PAGE_SIZE } from './assumptions.js';
import { ExchangeError } from '../ports/exchange-error.js';
import { HEADER } from './protocol.js';
import type { z } from 'zod';
import type { Call, TransportResponse } from './transport.js';

/** Defaults when the caller gives no bound: generous for a desk, finite for a bug. */
export const DEFAULT_MAX_ITEMS = 1_000;
export const DEFAULT_MAX_PAGES = 50;

/** Cursor lists can also be walked by page number (`page[enable_offset]=true`). */
export interface CursorListOptions extends ListOptions {
  mode?: 'cursor' | 'offset';
}

export type PageQuery = Array<[string, string | number | boolean]>;
/** Fetches one page, given the page parameters to add to the operation's own query. */
export type PageFetcher<T> = (page: PageQuery) => Promise<TransportResponse<T[]>>;

interface Bounds {
  maxItems: number;
  maxPages: number;
  pageSize: number;
}

function bounds(operation: string, opts: ListOptions | undefined): Bounds {
  const maxItems = opts?.maxItems ?? DEFAULT_MAX_ITEMS;
  const maxPages = opts?.maxPages ?? DEFAULT_MAX_PAGES;
  // Ask for more than the server's default of 2, never beyond the assumed maximum.
  const pageSize = Math.min(opts?.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE, maxItems);
  for (const [name, value] of Object.entries({ maxItems, maxPages, pageSize })) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new ExchangeError({
        kind: 'unprocessable',
        operation,
        messages: [`Request not sent: ${name} must be a positive whole number`],
      });
    }
  }
  return { maxItems, maxPages, pageSize };
}

/** `X-Next-Page` is sent as the next `page[cursor]`; an empty page with a cursor is followed (it proves nothing alone). */
export async function* cursorItems<T>(
  operation: string,
  fetchPage: PageFetcher<T>,
  opts?: CursorListOptions,
): AsyncGenerator<T, void, undefined> {
  if (opts?.mode === 'offset') {
    yield* numberedItems(operation, fetchPage, opts, [['page[enable_offset]', true]]);
    return;
  }
  const b = bounds(operation, opts);
  let cursor: string | undefined;
  const seen = { items: 0 };
  for (let pages = 0; pages < b.maxPages; pages++) {
    const page: PageQuery = [['page[size]', b.pageSize]];
    if (cursor !== undefined) page.push(['page[cursor]', cursor]);
    opts?.onPage?.();
    const res = await fetchPage(page);
    const next = res.headers.get(HEADER.nextPage);
    const last = next === null || next === '';
    if (!(yield* pageWithin(res.data, last, seen, b.maxItems, opts)) || last) return;
    if (next === cursor) {
      throw new ExchangeError({
        kind: 'invalid_response',
        operation,
        status: res.status,
        detail: 'X-Next-Page repeats the cursor just used',
      });
    }
    cursor = next;
  }
  opts?.onTruncated?.();
}

/** `page[number]` from 1: stops at the first page shorter than asked for, an empty one included. */
export async function* numberedItems<T>(
  operation: string,
  fetchPage: PageFetcher<T>,
  opts?: ListOptions,
  extra: PageQuery = [],
): AsyncGenerator<T, void, undefined> {
  const b = bounds(operation, opts);
  const seen = { items: 0 };
  for (let number = 1; number <= b.maxPages; number++) {
    opts?.onPage?.();
    const res = await fetchPage([...extra, ['page[number]', number], ['page[size]', b.pageSize]]);
    const last = res.data.length < b.pageSize;
    if (!(yield* pageWithin(res.data, last, seen, b.maxItems, opts)) || last) return;
  }
  opts?.onTruncated?.();
}

/** False when the item bound stopped the walk; `onTruncated` if more may follow (a full page at the bound may have a next). */
function* pageWithin<T>(
  data: readonly T[],
  last: boolean,
  seen: { items: number },
  maxItems: number,
  opts: ListOptions | undefined,
): Generator<T, boolean, undefined> {
  for (const [i, item] of data.entries()) {
    yield item;
    if (++seen.items >= maxItems) {
      if (i < data.length - 1 || !last) opts?.onTruncated?.();
      return false;
    }
  }
  return true;
}

/** An operation's own filters followed by the page parameters, as one ordered query. */
export function withPage(
  query: Record<string, string | number | undefined>,
  page: PageQuery,
): Array<[string, string | number | boolean | undefined]> {
  return [...Object.entries(query), ...page];
}

/** A paged GET list: the operation's own filters on every page, walked by cursor or by page number. */
export interface PagedList<T> {
  operation: string;
  path: string;
  /** The schema of one page's body. */
  response: z.ZodType<T[]>;
  paging: 'cursor' | 'numbered';
  filters?: Record<string, string | number | undefined>;
}

/** The items of a paged list, bounded by `opts` (cursor lists may also be walked by page number). */
export function pagedList<T>(
  call: Call,
  list: PagedList<T>,
  opts?: CursorListOptions,
): AsyncGenerator<T, void, undefined> {
  const { operation, path, response } = list;
  const fetchPage: PageFetcher<T> = (page) =>
    call({ operation, method: 'GET', path, query: withPage(list.filters ?? {}, page), response });
  return list.paging === 'cursor' ? cursorItems(operation, fetchPage, opts) : numberedItems(operation, fetchPage, opts);
}
