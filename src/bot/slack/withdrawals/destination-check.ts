/** A saved address may receive only when verified and out of its withdrawal cooldown. */
import { durationText } from '../kit/format.js';

export interface DestinationState {
  verified: boolean;
  /** Epoch ms, or null/undefined for none. */
  cooldownUntil?: number | null;
}

/** The reason a destination cannot be used now, or undefined when it can. */
export function destinationProblem(d: DestinationState, now: number): string | undefined {
  if (!d.verified) return 'This address is not verified yet. Verify it in the exchange\'s mobile app, then ask again.';
  if (d.cooldownUntil != null && d.cooldownUntil > now) {
    // A duration, not a clock time: field errors are plain text and read the same in every zone.
    const left = durationText(d.cooldownUntil - now) ?? 'a moment';
    return `This address is in its withdrawal cooldown for another ${left}. Choose another address or ask again then.`;
  }
  return undefined;
}
