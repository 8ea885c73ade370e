/**
 * Acknowledgements before work. In HTTP mode every request counts as waiting from its arrival
 * at the server until its response (the ack) is sent. A listener that has acked waits, before
 * its own work (store writes, exchange signing), until no request waits for its ack, bounded so
 * work is never starved. Under a burst every ack leaves first; without one the wait is a single
 * turn of the event loop (Socket Mode: always just that turn).
 */
export class AckGate {
  #waiting = 0;
  #waiters: (() => void)[] = [];

  constructor(private readonly maxWaitMs = 200) {}

  /** A request arrived; the returned function (idempotent) marks it answered. */
  enter(): () => void {
    this.#waiting++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#waiting--;
      if (this.#waiting === 0) for (const wake of this.#waiters.splice(0)) wake();
    };
  }

  /** Resolves once no request waits for its ack, or after maxWaitMs. */
  clear(): Promise<void> {
    return new Promise((resolve) => {
      // Always yield once: requests already read get their turn at the middleware first.
      setImmediate(() => {
        if (this.#waiting === 0) return resolve();
        const timer = setTimeout(wake, this.maxWaitMs);
        const self = this;
        function wake(): void {
          clearTimeout(timer);
          self.#waiters = self.#waiters.filter((w) => w !== wake);
          resolve();
        }
        this.#waiters.push(wake);
      });
    });
  }

  get waiting(): number {
    return this.#waiting;
  }
}
