/**
 * A clock for tests and benchmarks: time moves only when told to, and sleepers wake when it
 * passes their time.
 */
import type { Clock } from '../../src/bot/ports/clock.js';

export class FakeClock implements Clock {
  #now: number;
  #sleepers: { at: number; wake: () => void }[] = [];

  constructor(start = Date.UTC(2026, 0, 5, 9, 0, 0)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((wake) => this.#sleepers.push({ at: this.#now + ms, wake }));
  }

  /** Moves time forward and wakes every sleeper whose time has come. */
  advance(ms: number): void {
    if (ms < 0) throw new RangeError('time only moves forward');
    this.#now += ms;
    const due = this.#sleepers.filter((s) => s.at <= this.#now);
    this.#sleepers = this.#sleepers.filter((s) => s.at > this.#now);
    for (const sleeper of due) sleeper.wake();
  }

  /** Number of sleepers waiting (to assert that a loop is parked). */
  get sleeping(): number {
    return this.#sleepers.length;
  }
}
