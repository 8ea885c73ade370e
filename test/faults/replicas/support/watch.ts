/** Waiting on the replicas: async probes polled until they give a value, and who leads now. */
import type { Replica } from './replica-set.js';

/** Polls `probe` every 50 ms until it gives a value, which it returns; throws naming `what` after `timeoutMs`. */
export async function poll<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The replica whose /readyz says leader (exactly one, waited for up to `timeoutMs`). */
export function leaderOf(replicas: readonly Replica[], timeoutMs = 15_000): Promise<Replica> {
  return poll(
    'exactly one leader',
    async () => {
      const roles = await Promise.all(replicas.map((r) => r.readyz()));
      const leaders = replicas.filter((_, i) => roles[i]?.role === 'leader');
      return leaders.length === 1 ? leaders[0] : undefined;
    },
    timeoutMs,
  );
}
