/**
 * Acknowledgements before work. In HTTP mode every request counts as waiting from its arrival
 * at the server until its response (the ack) is sent. A listener that has acked waits, before
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
 */
export class AckGate {
  #waiting = 0;
  #held: (() => void)[] = [];
  #releasing = false;
  #lastArrival = -Infinity;

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
      if (this.#waiting === 0) this.#releaseNext();
    };
  }

  /** Resolves once no request waits for its ack and earlier held work has gone, or after maxWaitMs. */
  clear(): Promise<void> {
    return new Promise((resolve) => {
      let done = false;
      const go = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#held = this.#held.filter((g) => g !== go);
        go();
      }, this.maxWaitMs);
      this.#held.push(go);
      // Always yield once: requests already read get their turn at the middleware first.
      this.#releaseNext();
    });
  }

  get waiting(): number {
    return this.#waiting;
  }

  /** Lets the oldest held listener go on the next turn, then the next one, while nobody waits. */
  #releaseNext(): void {
    if (this.#releasing) return;
    this.#releasing = true;
    setImmediate(() => {
      this.#releasing = false;
      if (this.#waiting > 0) return; // the last ack to leave calls us again
      const quietFor = performance.now() - this.#lastArrival;
      if (quietFor < this.quietMs && this.#held.length > 0) {
        this.#releasing = true;
        setTimeout(() => {
          this.#releasing = false;
          this.#releaseNext();
        }, Math.ceil(this.quietMs - quietFor));
        return;
      }
      const go = this.#held.shift();
      if (!go) return;
      go();
      if (this.#held.length > 0) this.#releaseNext();
    });
  }
}
