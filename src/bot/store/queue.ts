// Tasks run one after another in arrival order so read-modify-writes never interleave; a failure
// rejects its own caller only.
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
