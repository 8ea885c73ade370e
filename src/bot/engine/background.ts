/** Work the engine started without awaiting (executions after a last approval), so `idle()` can wait for it. */
import type { Logger } from '../ports/logger.js';
import { errorText } from '../domain/error-text.js';

export class Background {
  readonly #running = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  /** Tracks `work`; its failure is logged here, and the returned promise never rejects. */
  start(what: string, work: Promise<void>): Promise<void> {
    const tracked = work.catch((err: unknown) => this.logger.error(`${what} failed`, { error: errorText(err) }));
    this.#running.add(tracked);
    void tracked.finally(() => this.#running.delete(tracked));
    return tracked;
  }

  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }
}
