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
