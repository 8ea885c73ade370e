/** The loops that run only while this process is leader (the port and LeadershipState: ports/leadership.ts). */
import type { Leadership } from '../ports/leadership.js';

/**
 * Runs `term` each time this process becomes leader (at once if it is), with a signal that aborts
 * when that leadership ends or `signal` does; returns once `signal` aborts and the last term has
 * returned. `term` should stop soon after its signal aborts (runEvery does).
 */
export async function whileLeader(
  leadership: Leadership,
  signal: AbortSignal,
  term: (termSignal: AbortSignal) => Promise<void>,
): Promise<void> {
  while (!signal.aborted) {
    await untilLeader(leadership, signal);
    if (signal.aborted) return;
    const ended = new AbortController();
    const end = () => ended.abort();
    signal.addEventListener('abort', end, { once: true });
    const unsubscribe = leadership.onChange((role) => role === 'follower' && end());
    // Lost between the wake-up and the subscription: this term is already over.
    if (!leadership.isLeader()) end();
    try {
      await term(ended.signal);
      // A term that returned early is not run again before the next leadership.
      if (!ended.signal.aborted)
        await new Promise((resolve) => ended.signal.addEventListener('abort', resolve, { once: true }));
    } finally {
      unsubscribe();
      signal.removeEventListener('abort', end);
    }
  }
}

/** Resolves once this process is leader (at once if it is), or `signal` aborts. */
export function untilLeader(leadership: Leadership, signal: AbortSignal): Promise<void> {
  if (leadership.isLeader() || signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      unsubscribe();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const unsubscribe = leadership.onChange((role) => role === 'leader' && done());
    signal.addEventListener('abort', done, { once: true });
  });
}
