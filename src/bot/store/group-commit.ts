import { SerialQueue } from './queue.js';

/**
 * Work arriving during a commit shares the next write and fsync. An idle commit waits one setImmediate so
 * writers woken together share it (docs/store.md "Group commit"); `flush` settles each item in arrival order.
 */
export class GroupCommit<I> {
  readonly #queue = new SerialQueue();
  #items: I[] = [];
  #scheduled = false;

  constructor(private readonly flush: (items: I[]) => Promise<void>) {}

  add(item: I): void {
    this.#items.push(item);
    if (this.#scheduled) return;
    this.#scheduled = true;
    const idle = this.#queue.pending === 0;
    void this.#queue.run(async () => {
      if (idle) await new Promise<void>((resolve) => setImmediate(resolve));
      // Everything that arrived until now is in this commit; later arrivals schedule the next.
      this.#scheduled = false;
      await this.flush(this.#items.splice(0));
    });
  }

  /** Resolves once every item added so far is committed (or refused). */
  drain(): Promise<void> {
    return this.#queue.drain();
  }
}
