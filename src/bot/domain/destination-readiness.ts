/** The one rule for a saved address receiving a withdrawal now: verified, and out of its cooldown. */

export interface DestinationReadinessFacts {
  verified: boolean;
  /** Epoch ms the withdrawal cooldown ends; null or absent for none. */
  cooldownUntil?: number | null;
}

export type DestinationBar = { reason: 'unverified' } | { reason: 'cooldown'; until: number };

/** Why the address cannot receive at `now`, or undefined when it can (a cooldown ending exactly now is over). */
export function destinationBar(d: DestinationReadinessFacts, now: number): DestinationBar | undefined {
  if (!d.verified) return { reason: 'unverified' };
  if (d.cooldownUntil != null && d.cooldownUntil > now) return { reason: 'cooldown', until: d.cooldownUntil };
  return undefined;
}

/**
 * The one wording of a bar. `subject` names the address as the place it is said ("This address",
 * `The destination "Cold"`); `left` is the cooldown's time left, written the way that place writes durations.
 */
export function destinationBarText(bar: DestinationBar, subject: string, left?: string): string {
  if (bar.reason === 'unverified') return `${subject} is not verified yet. Verify it in the exchange's mobile app.`;
  return `${subject} is in its withdrawal cooldown${left === undefined ? '' : ` for another ${left}`}.`;
}
