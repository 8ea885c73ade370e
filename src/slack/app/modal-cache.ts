/**
 * What a modal was filled with (entries, fees, balances, destinations), kept by view id while
 * the modal is open, so refreshes and the submit check need no exchange call before their ack.
 * Bounded in size and age; after a restart it is empty and the form asks to be opened again.
 */
import type { Clock } from '../../app/ports.js';

export class ModalCache<T> {
  readonly #entries = new Map<string, { value: T; until: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = 60 * 60_000,
    private readonly maxEntries = 500,
  ) {}

  set(viewId: string, value: T): void {
    this.#entries.delete(viewId);
    this.#entries.set(viewId, { value, until: this.clock.now() + this.ttlMs });
    // Maps iterate in insertion order: the first key is the oldest.
    while (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
  }

  get(viewId: string | undefined): T | undefined {
    if (!viewId) return undefined;
    const hit = this.#entries.get(viewId);
    if (!hit) return undefined;
    if (hit.until < this.clock.now()) {
      this.#entries.delete(viewId);
      return undefined;
    }
    return hit.value;
  }

  delete(viewId: string): void {
    this.#entries.delete(viewId);
  }
}
