/**
 * Acknowledgements before work. In HTTP mode every request counts as waiting from the moment its
 * signature is verified until its response (the ack) is sent; an unsigned or unfinished request
 * never counts (a client holding one open would otherwise hold every listener to the bound). A listener that has acked waits, before
 * its own work (store writes, exchange signing, Slack calls), until no request waits for its ack,
 * bounded so work is never starved. Under a burst every ack leaves first; without one the wait is
 * a single turn of the event loop (Socket Mode: always just that turn).
 *
 * Held work is let go one listener per turn of the event loop, not all at once: fifty listeners
 * woken together would run back to back (tens of milliseconds) while new requests sit unread in
 * their sockets. One per turn lets the loop read and acknowledge whatever arrived in between, and
 * if a request did arrive, the rest wait again until it is answered. And a request answered
 * does not mean the burst is over: the next may still sit unread in its socket. So work waits
 * until no request has arrived for `quietMs` too (a burst's requests arrive within a few ms).
 * Work held for `maxWaitMs` goes even while requests wait, but still one per turn: under a steady
 * stream, many listeners reach their bound together, and letting them all go at once would be
 * the very pile-up the gate is for.
 */
interface Held {
  go: () => void;
  deadline: number;
}

export class AckGate {
  #waiting = 0;
  #held: Held[] = [];
  #lastArrival = -Infinity;
  #turnScheduled = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly maxWaitMs = 200,
    private readonly quietMs = 3,
  ) {}

  /** A request arrived; the returned function (idempotent) marks it answered. */
  enter(): () => void {
    this.#waiting++;
    this.#lastArrival = performance.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#waiting--;
      if (this.#waiting === 0) this.#scheduleTurn();
    };
  }

  /** Resolves when this listener's turn comes (see the file comment), at the latest after about maxWaitMs. */
  clear(): Promise<void> {
    return new Promise((resolve) => {
      this.#held.push({ go: resolve, deadline: performance.now() + this.maxWaitMs });
      // Always yield once: requests already read get their turn at the middleware first.
      this.#scheduleTurn();
    });
  }

  get waiting(): number {
    return this.#waiting;
  }

  #scheduleTurn(): void {
    if (this.#turnScheduled) return;
    this.#turnScheduled = true;
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    setImmediate(() => this.#turn());
  }

  /** One turn: let the oldest held listener go if it may, else sleep until it may. */
  #turn(): void {
    this.#turnScheduled = false;
    const oldest = this.#held[0];
    if (!oldest) return;
    const now = performance.now();
    const quietFor = now - this.#lastArrival;
    const free = this.#waiting === 0 && quietFor >= this.quietMs;
    if (free || now >= oldest.deadline) {
      this.#held.shift();
      oldest.go();
      if (this.#held.length > 0) this.#scheduleTurn();
      return;
    }
    // Not yet: wake at its deadline, or when the quiet period ends; the last ack to leave wakes us sooner.
    const wakeIn = Math.min(
      oldest.deadline - now,
      this.#waiting === 0 ? this.quietMs - quietFor : Number.POSITIVE_INFINITY,
    );
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#scheduleTurn();
      },
      Math.max(1, Math.ceil(wakeIn)),
    );
  }
}
