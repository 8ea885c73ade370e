/** The withdraw form's words for a saved address that may not receive now (the rule is the domain's). */
import {
  destinationBar,
  destinationBarText,
  type DestinationReadinessFacts,
} from '../../domain/destination-readiness.js';
import { durationText } from '../kit/format.js';

export type DestinationState = DestinationReadinessFacts;

/** The reason a destination cannot be used now, or undefined when it can. */
export function destinationProblem(d: DestinationState, now: number): string | undefined {
  const bar = destinationBar(d, now);
  if (!bar) return undefined;
  if (bar.reason === 'unverified') return destinationBarText(bar, 'This address');
  // A duration, not a clock time: field errors are plain text and read the same in every zone.
  const left = durationText(bar.until - now) ?? 'a moment';
  return `${destinationBarText(bar, 'This address', left)} Choose another address or ask again then.`;
}
