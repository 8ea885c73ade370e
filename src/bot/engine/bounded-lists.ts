/** Reads a bounded async list into an array (lists are always bounded: never unbounded auto-paging). */
export async function collect<T>(items: AsyncIterable<T>, limit = 10_000): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}

/** First item matching `predicate`, stopping the listing there. */
export async function findFirst<T>(items: AsyncIterable<T>, predicate: (item: T) => boolean): Promise<T | undefined> {
  for await (const item of items) if (predicate(item)) return item;
  return undefined;
}

/**
 * A list the exchange serves newest first, read only until it is past `from` (an item created
 * before it: everything after is older still). The order is checked, not assumed: a stop needs a
 * newer item before the old one, and once an item is newer than the one before it the list is read
 * on to its bounds. Items without a time neither stop it nor count for the order.
 */
export async function* untilOlderThan<T>(
  items: AsyncIterable<T>,
  from: number,
  createdAt: (item: T) => number | null,
): AsyncGenerator<T, void, undefined> {
  let previous: number | undefined;
  let newestFirst = true;
  for await (const item of items) {
    const t = createdAt(item);
    if (t !== null) {
      if (previous !== undefined && t > previous) newestFirst = false;
      if (newestFirst && previous !== undefined && t < from) return;
      previous = t;
    }
    yield item;
  }
}
