/**
 * Store leases as the fault suite runs them: short (2 s, proper-lockfile's shortest), so a bot
 * killed by a trial is taken over quickly; and a wait for a killed life's leases to run out, as
 * a supervisor's restart meets it.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setLockTiming } from '../../../src/store/lock.js';

export const LEASE_MS = 2_000;

export function useShortLeases(): void {
  setLockTiming({ staleMs: LEASE_MS, updateMs: 1_000 });
}

/** Resolves once no store lease in `dir` is fresh (a renewal rounds the mtime up to the second: 1 s more). */
export async function leasesOver(dir: string): Promise<void> {
  const leases = ['requests.lock', 'kv.lock', 'audit.jsonl.lock'].map((name) => join(dir, name));
  const fresh = () => leases.some((p) => existsSync(p) && statSync(p).mtimeMs > Date.now() - LEASE_MS - 1_000);
  while (fresh()) await new Promise((r) => setTimeout(r, 100));
}
