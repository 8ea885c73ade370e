/**
 * In-process mutual exclusion by key: one request driven at a time, one quote per trade key at
 * a time. Waiters run in arrival order.
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `fn` once every earlier holder of `key` has finished. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => current);
    this.#tails.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }

  /** True while someone holds or waits for `key`. */
  isBusy(key: string): boolean {
    return this.#tails.has(key);
  }
}
