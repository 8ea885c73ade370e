import { inspect } from 'node:util';

/** A value never printed (logs, errors, JSON, snapshots see "[redacted]"); `reveal()` at the one place that needs it. */
export class Secret<T> {
  readonly #value: T;
  constructor(value: T) {
    this.#value = value;
  }
  reveal(): T {
    return this.#value;
  }
  toString(): string {
    return '[redacted]';
  }
  toJSON(): string {
    return '[redacted]';
  }
  [inspect.custom](): string {
    return 'Secret([redacted])';
  }
}
