/**
 * The polling budget: `ratePerSecond` tokens a second, at most `burst` saved up, over an injected
 * time source. A poller that finds no token leaves the rest for the next cycle instead of waiting.
 * (The hard cap on requests to the exchange is the client's RateWindow, rate-window.ts.)
 */
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

  /**
   * Takes a token whether or not one is available: for a request already made. The balance may go
   * below zero; that debt is repaid before tryTake succeeds again, so the rate still holds.
   */
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
