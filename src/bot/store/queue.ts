/**
 * One queue per store: tasks run one after the other in arrival order, so a read-modify-write
 * never interleaves with another. A failing task rejects its own caller only.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();
  #pending = 0;

  /** Runs `task` after every task enqueued before it has settled. */
  run<T>(task: () => T | Promise<T>): Promise<T> {
    this.#pending++;
    const result = this.#tail.then(task);
    this.#tail = result.then(
      () => this.#pending--,
      () => this.#pending--,
    );
    return result;
  }

  /** Resolves once every task enqueued so far has settled. */
  async drain(): Promise<void> {
    await this.#tail;
  }

  get pending(): number {
    return this.#pending;
  }
}
