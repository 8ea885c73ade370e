// The sandbox's own clock, read by everything that moves by itself, so a test moves the exchange minutes
// ahead in one call instead of sleeping.

export interface SandboxClock {
  /** Milliseconds since the epoch, as the exchange sees them. */
  now(): number;
  /** Move the exchange's time forward (never backwards). */
  advance(ms: number): void;
  /** Where the clock stands, to resume it after a restart (persist.ts). */
  reading(): ClockReading;
}

/** A clock as saved: its time, and how far ahead of the wall clock it runs (null: it moves only by advance()). */
export interface ClockReading {
  now: number;
  aheadMs: number | null;
}

export interface SandboxClockOptions {
  /** Exchange time at creation; defaults to the wall clock. */
  startMs?: number;
  /** When true (default) the clock also moves with real time; when false only advance() moves it. */
  followRealTime?: boolean;
  /** Continue a saved clock: one that followed real time keeps its lead, so time between runs passes; never before the saved time. */
  resume?: ClockReading;
  wallNow?: () => number;
}

/** A clock that is the wall clock plus an offset (default), or a manual clock for tests. */
export function createSandboxClock(options: SandboxClockOptions = {}): SandboxClock {
  const wallNow = options.wallNow ?? Date.now;
  const createdAt = wallNow();
  const resume = options.resume;
  const follow = resume ? resume.aheadMs !== null : (options.followRealTime ?? true);
  const start = resume
    ? Math.max(resume.now, resume.aheadMs === null ? resume.now : createdAt + resume.aheadMs)
    : (options.startMs ?? createdAt);
  let offset = 0;
  return {
    now: () => start + offset + (follow ? wallNow() - createdAt : 0),
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the sandbox clock only moves forward (ms >= 0)');
      offset += ms;
    },
    reading: () => ({
      now: start + offset + (follow ? wallNow() - createdAt : 0),
      aheadMs: follow ? start + offset - createdAt : null,
    }),
  };
}
