// A strict cap: at most `limit` starts in any window of `windowMs` (a token bucket lets rate + burst
// through in a sliding second; this never does). Time comes from the caller.
export class RateWindow {
  /** Start times given out, ascending; only the last `limit` matter. */
  readonly #starts: number[] = [];

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a whole number of at least 1');
    if (!(windowMs > 0) || !Number.isFinite(windowMs)) throw new RangeError('windowMs must be a positive number');
  }

  /** Books the earliest start that keeps the cap; callers wait until it, so they queue in arrival order without a list. */
  reserve(now: number): number {
    const blocking = this.#starts.length >= this.limit ? this.#starts[this.#starts.length - this.limit]! : undefined;
    const start = blocking === undefined ? now : Math.max(now, blocking + this.windowMs);
    this.#starts.push(start);
    if (this.#starts.length > this.limit) this.#starts.splice(0, this.#starts.length - this.limit);
    return start;
  }
}
