/**
 * Delivers events to the notifier one at a time, in order, without making the engine wait for
 * them: a slow chat API must never delay an order. A failing delivery is logged and dropped.
 */
import type { DeskEvent } from './events.js';
import type { Logger, Notifier } from './ports.js';

export class NoticeQueue {
  #tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly notifier: Notifier,
    private readonly logger: Logger,
  ) {}

  push(event: DeskEvent): void {
    this.#tail = this.#tail.then(() => this.#deliver(event));
  }

  /** Resolves once everything pushed so far is delivered (or dropped). */
  drained(): Promise<void> {
    return this.#tail;
  }

  async #deliver(event: DeskEvent): Promise<void> {
    try {
      await this.notifier.notify(event);
    } catch (err) {
      this.logger.warn('notifier failed; event dropped', { type: event.type, requestId: event.requestId, error: String(err) });
    }
  }
}
