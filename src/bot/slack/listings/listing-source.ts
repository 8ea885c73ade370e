// One page of a /desk listing. The port hides cursors, so lists are walked from the start with a bound:
// a page costs at most offset + size + 1 records, and offsets stop at MAX_LIST_OFFSET.
import type { ExchangeListings } from '../../ports/exchange-listings.js';
import {
  bankLine,
  depositLine,
  fiatRecordLine,
  MAX_LIST_OFFSET,
  orderLine,
  withdrawalLine,
  type ListName,
  type MoreCursor,
} from './listing-lines.js';

export const PAGE_SIZE = 10;
const MAX_PAGE_REQUEST = 100;

export interface FetchedPage {
  lines: string[];
  more?: MoreCursor;
}

export const LIST_TITLES: Record<ListName, string> = {
  withdrawals: 'Crypto withdrawals',
  deposits: 'Crypto deposits',
  orders: 'Orders',
  banks: 'Bank accounts',
  fiat_deposits: 'Fiat deposits',
  fiat_withdrawals: 'Fiat withdrawals',
};

export const LIST_EMPTY: Record<ListName, string> = {
  withdrawals: 'No crypto withdrawals on the exchange.',
  deposits: 'No crypto deposits on the exchange.',
  orders: 'No orders on the exchange.',
  banks: 'No bank accounts on the exchange.',
  fiat_deposits: 'No fiat deposits on the exchange.',
  fiat_withdrawals: 'No fiat withdrawals on the exchange.',
};

/** `size` records of a listing from index `offset`, and the cursor of the next ones if any. */
export async function fetchListPage(
  exchange: ExchangeListings,
  list: ListName,
  offset: number,
  size = PAGE_SIZE,
  arg?: string,
): Promise<FetchedPage> {
  const want = offset + size + 1;
  const opts = { maxItems: want, pageSize: Math.min(want, MAX_PAGE_REQUEST) };
  const take = async <T>(items: AsyncIterable<T>, line: (t: T) => string): Promise<FetchedPage> => {
    const all: T[] = [];
    for await (const item of items) {
      all.push(item);
      if (all.length >= want) break;
    }
    const slice = all.slice(offset, offset + size);
    const next = offset + size;
    const hasMore = all.length > next && next <= MAX_LIST_OFFSET;
    return { lines: slice.map(line), ...(hasMore ? { more: { list, offset: next, ...(arg ? { arg } : {}) } } : {}) };
  };
  switch (list) {
    case 'withdrawals':
      return take(exchange.withdrawals(opts), withdrawalLine);
    case 'deposits':
      return take(exchange.deposits(opts), depositLine);
    case 'orders':
      return take(exchange.orders(opts), orderLine);
    case 'banks':
      return take(exchange.bankAccounts(arg ? { currency: arg } : undefined, opts), bankLine);
    case 'fiat_deposits':
      return take(exchange.fiatDeposits(opts), fiatRecordLine);
    case 'fiat_withdrawals':
      return take(exchange.fiatWithdrawals(opts), fiatRecordLine);
  }
}
