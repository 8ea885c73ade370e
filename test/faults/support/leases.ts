/**
 * Store leases as the fault suite runs them: short (2 s), so a holder the suite cannot prove dead
 * is taken over quickly. A bot killed on this machine is taken over at once whatever the length.
 */
import { setLockTiming } from '../../../src/bot/store/lock.js';

export const LEASE_MS = 2_000;

export function useShortLeases(): void {
  setLockTiming({ staleMs: LEASE_MS, updateMs: LEASE_MS / 4 });
}
