// The file store is always leader: lock.ts refuses a second process on the same files, so no other
// replica can share this store.
import { LeadershipState, type Leadership } from '../ports/leadership.js';

export function fileStoreLeadership(): Leadership {
  return new LeadershipState('leader');
}
