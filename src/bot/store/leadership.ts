/**
 * The file store's leadership: always leader. The store's files are locked by the one process that
 * opened them (lock.ts refuses a second), so no other replica can share this store, and the process
 * holding it is the only one there is.
 */
import { LeadershipState, type Leadership } from '../ports/leadership.js';

export function fileStoreLeadership(): Leadership {
  return new LeadershipState('leader');
}
