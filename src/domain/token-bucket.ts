/**
 * One token bucket for every rate cap of the bot: `ratePerSecond` tokens a second, at most
 * `burst` saved up, over an injected time source. Pure arithmetic: callers decide whether to skip
 * (polling: `tryTake`) or to wait their turn (the exchange client: `reserve`).
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
   * Takes a token now even if none is left (the balance may go negative) and says how many ms the
   * caller must wait before using it: waiting callers thus queue in arrival order with no list.
   */
  reserve(): number {
    this.#refill();
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : Math.ceil((-this.#tokens / this.ratePerSecond) * 1000);
  }

  #refill(): void {
    const now = this.now();
    this.#tokens = Math.min(this.burst, this.#tokens + ((now - this.#at) / 1000) * this.ratePerSecond);
    this.#at = now;
  }
}
