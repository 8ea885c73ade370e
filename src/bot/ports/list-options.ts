/**
 * How far an auto-paging list of the exchange may read: the engine sets the bounds, the exchange
 * client honours them (iteration stops at whichever bound comes first). A leaf module, so that
 * both sides import it without importing each other.
 */
export interface ListOptions {
  maxItems?: number;
  maxPages?: number;
  /** page[size] to ask for (cursor lists default to 2 on the server: ask for more). */
  pageSize?: number;
  /**
   * Called when maxItems or maxPages stops the list while it may go on. A search that must prove
   * absence (reconcile) needs to know it did not see everything.
   */
  onTruncated?: () => void;
  /** Called just before each page is requested (budgets count what is really fetched). */
  onPage?: () => void;
}
