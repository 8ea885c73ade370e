/**
 * In-process mutual exclusion by key: one request driven at a time, one quote per trade key at
 * a time. Waiters run in arrival order.
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `fn` once every earlier holder of `key` has finished. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire(key);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** Waits until every earlier holder of `key` has finished; the key is held until the returned release is called. */
  async acquire(key: string): Promise<() => void> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let done!: () => void;
    const current = new Promise<void>((resolve) => (done = resolve));
    const tail = previous.then(() => current);
    this.#tails.set(key, tail);
    await previous;
    return () => {
      done();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    };
  }

  /** True while someone holds or waits for `key`. */
  isBusy(key: string): boolean {
    return this.#tails.has(key);
  }
}
