// What a person can decide about an execution the exchange could not settle. Only an approver who is not
// the requester may send again, mark as not sent or choose; the requester or an approver may look again.
import type { RequestRecord } from '../../domain/record.js';
import type { Refusal } from '../../domain/refusals.js';

/**
 * askedAt: the question the person answered, as they were shown it. Checked under the request's lock: a
 * look may have changed the question (something appeared) between their view and their decision.
 */
type Answer = { checked: string; askedAt?: number };

export type Settlement =
  /** Look on the exchange again now (nothing else changes). */
  | { action: 'look_again' }
  /** Send the withdrawal again: the exchange does not prevent duplicates, so the person says what they checked. */
  | ({ action: 'send_again' } & Answer)
  /** It was not sent: the request ends as failed. */
  | ({ action: 'mark_not_sent' } & Answer)
  /** Which of the candidates is ours; null for "none of them" (then the bot treats it as not found). */
  | ({ action: 'choose'; exchangeId: string | null } & Answer);

/** withheld: the fresh look found the record, a possible one, or nothing readable (the thread says which); pending: look not back yet. */
export type SettlementResult =
  { ok: true; request: RequestRecord; outcome: 'carried_out' | 'withheld' | 'pending' } | Refusal;
