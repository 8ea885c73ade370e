/** Maps each item as a list is walked (bounds and cursors stay the client's); an item mapped to undefined is left out. */
export async function* mapped<T, U>(items: AsyncIterable<T>, map: (t: T) => U | undefined): AsyncIterable<U> {
  for await (const item of items) {
    const out = map(item);
    if (out !== undefined) yield out;
  }
}
