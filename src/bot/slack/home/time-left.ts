// How long a request waiting for approvals has left, in words that read the same in every time zone.
import { durationText } from '../kit/format.js';

/** "2 h 5 min left", or "expiring now" once the deadline is reached. */
export function timeLeftText(expiresAt: number, now: number): string {
  const left = durationText(expiresAt - now);
  return expiresAt > now && left !== null ? `${left} left` : 'expiring now';
}
