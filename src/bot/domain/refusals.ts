// Expected refusals are data: a stable reason to branch on and a sentence for the person who
// clicked. The engine audits each.
export const REFUSAL_MESSAGES = {
  own_request: 'You requested this, so your approval cannot count.',
  already_approved: 'You already approved this.',
  not_approver: 'You are not an approver.',
  not_in_group: 'You are not in a group this request still needs.',
  no_rule: 'No rule of the approval policy covers this request, so it cannot be made.',
  destination_not_allowed: 'The approval policy does not allow withdrawals of this asset to this destination.',
  over_limit: 'This would go over a limit of the approval policy.',
  already_decided: 'This request is already decided.',
  stale_snapshot: 'This request changed since you saw it; look at the latest version and approve that.',
  not_found: 'No such request.',
  reason_required: 'A reason is required to reject.',
  not_requester: 'Only the person who requested this can cancel it.',
  not_allowed_to_request: 'You are not allowed to make requests.',
  invalid_input: 'Some input is not valid.',
  exchange_error: 'The exchange could not be asked right now.',
  not_priced: "The policy needs this request's value, and it could not be priced; it was not made.",
  not_waiting_for_person: 'This request is not waiting for a decision any more.',
  own_request_decision: 'You requested this, so you cannot decide how its execution is settled; another approver must.',
  decision_pending:
    "Another person's decision on this request waits for the bot's look on the exchange; the thread will say whether it was carried out. Decide again after that if needed.",
  question_changed:
    'The question changed since you saw it (something may have appeared on the exchange); nothing was done. Look at the request message again.',
  checked_required: 'Say what you checked on the exchange before deciding.',
  not_a_candidate: 'That record is not one of the candidates any more; look at the latest message.',
  execution_busy:
    'The bot is on the exchange for this request right now (sending it or looking for it); try again once that is done.',
  step_up_required: 'This approval needs the current code from your authenticator app; approve again to enter it.',
  twin_in_doubt:
    'Another request with the same amount and destination is being settled; send this one again once that one is settled.',
} as const;

export type RefusalReason = keyof typeof REFUSAL_MESSAGES;

export interface Refusal {
  ok: false;
  reason: RefusalReason;
  /** Plain sentence for the person; for invalid_input and exchange_error it says what exactly. */
  message: string;
  /** For invalid_input: the field at fault (amount, destination, limit ...). */
  field?: string;
}

/** A refusal with its standard sentence, or a more specific one. */
export function refuse(reason: RefusalReason, message?: string, field?: string): Refusal {
  const refusal: Refusal = { ok: false, reason, message: message ?? REFUSAL_MESSAGES[reason] };
  if (field !== undefined) refusal.field = field;
  return refusal;
}
