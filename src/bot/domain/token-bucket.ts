// The polling budget: `ratePerSecond` tokens, at most `burst` saved. A poller without a token leaves
// the rest for the next cycle; the hard cap on exchange calls is the client's RateWindow.
export class TokenBucket {
  #tokens: number;
  #at: number;

  constructor(
    private readonly now: () => number,
    private readonly ratePerSecond: number,
    private readonly burst: number,
  ) {
    if (!(ratePerSecond > 0) || !Number.isFinite(ratePerSecond)) throw new RangeError('rate must be a positive number');
    if (!(burst >= 1) || !Number.isFinite(burst)) throw new RangeError('burst must be at least 1');
    this.#tokens = burst;
    this.#at = now();
  }

  /** Takes a token if one is available now; otherwise takes nothing. */
  tryTake(): boolean {
    this.#refill();
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  /** For a request already made: may go below zero, and the debt is repaid before tryTake succeeds again. */
  take(): void {
    this.#refill();
    this.#tokens -= 1;
  }

  #refill(): void {
    const now = this.now();
    this.#tokens = Math.min(this.burst, this.#tokens + ((now - this.#at) / 1000) * this.ratePerSecond);
    this.#at = now;
  }
}
