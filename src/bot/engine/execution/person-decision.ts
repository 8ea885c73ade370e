/**
 * What a person can decide about an execution the exchange could not settle (an unknown outcome
 * whose record did not appear within the settle window, or appeared more than once). The engine's
 * `decide` takes one of these; only an approver who is not the requester may send again, mark as
 * not sent or choose a candidate; anyone who may approve or the requester may ask to look again.
 */
import type { DeskRequest } from '../../domain/record.js';
import type { Refusal } from '../../domain/refusals.js';

export type PersonDecision =
  /** Look on the exchange again now (nothing else changes). */
  | { action: 'look_again' }
  /** Send the withdrawal again: the exchange does not prevent duplicates, so the person says what they checked. */
  | { action: 'send_again'; checked: string }
  /** It was not sent: the request ends as failed. */
  | { action: 'mark_not_sent'; checked: string }
  /** Which of the candidates is ours; null for "none of them" (then the bot treats it as not found). */
  | { action: 'choose'; exchangeId: string | null; checked: string };

/**
 * `outcome`: carried out; withheld (a send again or mark as not sent the look made for it did not
 * allow: the request's record was found, a record that may be ours appeared, or the exchange could
 * not be read; the thread says which and asks again); pending (recorded, its look not back yet).
 */
export type PersonDecisionResult = { ok: true; request: DeskRequest; outcome: 'carried_out' | 'withheld' | 'pending' } | Refusal;
