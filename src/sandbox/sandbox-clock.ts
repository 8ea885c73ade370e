/**
 * The sandbox's own clock. Everything that moves by itself (withdrawal and order statuses,
 * deposit confirmations, quote expiry, the price walk) reads this clock, so a test can move the
 * exchange forward by minutes in one call instead of sleeping.
 */

export interface SandboxClock {
  /** Milliseconds since the epoch, as the exchange sees them. */
  now(): number;
  /** Move the exchange's time forward (never backwards). */
  advance(ms: number): void;
}

export interface SandboxClockOptions {
  /** Exchange time at creation; defaults to the wall clock. */
  startMs?: number;
  /** When true (default) the clock also moves with real time; when false only advance() moves it. */
  followRealTime?: boolean;
  /** Wall clock source, injectable for tests of the clock itself. */
  wallNow?: () => number;
}

/** A clock that is the wall clock plus an offset (default), or a manual clock for tests. */
export function createSandboxClock(options: SandboxClockOptions = {}): SandboxClock {
  const wallNow = options.wallNow ?? Date.now;
  const createdAt = wallNow();
  const start = options.startMs ?? createdAt;
  const follow = options.followRealTime ?? true;
  let offset = 0;
  return {
    now: () => start + offset + (follow ? wallNow() - createdAt : 0),
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the sandbox clock only moves forward (ms >= 0)');
      offset += ms;
    },
  };
}
