/** Time as the engine and the exchange client see it: injected everywhere, so tests move it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` of this clock's time (a fake clock resolves when advanced). */
  sleep(ms: number): Promise<void>;
}
