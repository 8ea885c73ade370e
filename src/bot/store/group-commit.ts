import { SerialQueue } from './queue.js';

/**
 * Group commit: work that arrives while a commit is being written waits and is then committed
 * together, with one write and one fsync for all of it, instead of one each. Under a burst (fifty
 * approvals at once) this turns fifty blocking fsyncs into a handful. When nothing is being written,
 * the commit waits one turn of the event loop (setImmediate) before it starts: writers woken
 * together (fifty approvals resuming after their acknowledgements) reach `add` in the same turn,
 * and this is what lets them share a commit instead of the first one going alone. A lone item
 * pays that one turn, a fraction of a millisecond. `flush` gets the items in arrival order and
 * settles each one itself.
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
