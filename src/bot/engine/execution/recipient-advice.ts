/**
 * What to tell a requester whose crypto withdrawal the exchange refused (422) for missing
 * recipient or VASP information. The reference says such details live on the saved address and
 * the withdrawal API does not accept them, so the only fix is in the exchange's mobile app.
 */

/** The advice, in the words shown to the requester. */
export const RECIPIENT_DETAILS_ADVICE =
  "Complete the recipient details of the saved address in the exchange's mobile app; the API cannot add them.";

// The refusal's wording is not shown in the reference: recognise what it is about and that
// something is missing, so an unrelated refusal ("address not verified") gets no advice.
const ABOUT = /\b(recipient|beneficiary|vasp|travel[\s_-]*rule|wallet[\s_-]*identity)/i;
const MISSING =
  /\b(missing|required|requires|incomplete|not\s+(?:provided|complete|completed|filled|set)|empty|blank|needed|must\s+(?:be\s+)?(?:provide|complete|add))/i;

/**
 * The advice when an exchange refusal message says recipient/VASP details are missing, else undefined.
 * Call it for a 422 answer to a crypto withdrawal only.
 * @example recipientDetailsAdvice('Recipient information missing for address "Cold"') // RECIPIENT_DETAILS_ADVICE
 */
export function recipientDetailsAdvice(exchangeMessage: string): string | undefined {
  return ABOUT.test(exchangeMessage) && MISSING.test(exchangeMessage) ? RECIPIENT_DETAILS_ADVICE : undefined;
}
