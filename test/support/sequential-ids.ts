/** Predictable ids for tests: uuids 00000000-0000-4000-8000-000000000001 ..., request ids R00001 ... */
import type { Ids } from '../../src/bot/ports/ids.js';

export class SequentialIds implements Ids {
  #uuid = 0;
  #request = 0;

  constructor(private readonly prefix = 'R') {}

  uuid(): string {
    this.#uuid += 1;
    return `00000000-0000-4000-8000-${this.#uuid.toString(16).padStart(12, '0')}`;
  }

  requestId(): string {
    this.#request += 1;
    return `${this.prefix}${this.#request.toString().padStart(5, '0')}`;
  }
}
