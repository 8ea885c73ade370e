/**
 * The polling rate cap: `ratePerSecond` tokens a second, at most `burst` saved up. Callers that
 * find no token stop and leave the rest for the next cycle instead of sleeping.
 */
import type { Clock } from './ports.js';

export class TokenBucket {
  #tokens: number;
  #at: number;

  constructor(
    private readonly clock: Clock,
    private readonly ratePerSecond: number,
    private readonly burst: number,
  ) {
    this.#tokens = burst;
    this.#at = clock.now();
  }

  /** Takes a token if one is available. */
  tryTake(): boolean {
    this.#refill();
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  #refill(): void {
    const now = this.clock.now();
    this.#tokens = Math.min(this.burst, this.#tokens + ((now - this.#at) / 1000) * this.ratePerSecond);
    this.#at = now;
  }
}
