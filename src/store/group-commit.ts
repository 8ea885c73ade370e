import { SerialQueue } from './queue.js';

/**
 * Group commit: work that arrives while a commit is being written waits and is then committed
 * together, with one write and one fsync for all of it, instead of one each. Under a burst (fifty
 * approvals at once) this turns fifty blocking fsyncs into a handful; alone, an item is committed
 * at once as before. `flush` gets the items in arrival order and settles each one itself.
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
    void this.#queue.run(async () => {
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
