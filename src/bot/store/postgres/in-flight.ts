/** The operations a store has under way, so close() can wait for them and refuse new ones. */
import { StoreClosedError } from '../errors.js';

export class InFlight {
  readonly #running = new Set<Promise<unknown>>();
  #closed = false;

  constructor(private readonly where: string) {}

  /** Runs `work`, refused with StoreClosedError once close() was called. */
  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new StoreClosedError(this.where));
    const running = work();
    this.#running.add(running);
    const forget = () => this.#running.delete(running);
    running.then(forget, forget);
    return running;
  }

  /** Refuses new work and resolves once the work under way has settled. */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }
}
