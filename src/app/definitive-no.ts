/**
 * Settling a request in doubt once the exchange's "no" for its key is definitive: the exchange
 * refused a send of the key and a look after that found nothing, or (a trade) the key's quote is
 * dead past the clock-skew margin and a look after that found no order with any of the request's
 * keys. Settled like the first send's refusal: an unusable quote is re-quoted (the next attempt
 * gets a NEW key: this one is known not to be an order), anything else fails with the exchange's
 * words. A new key is thus only ever used after a definitive "no" for every earlier key.
 */
import { lastAttempt, settleLastAttempt, type DeskRequest } from '../domain/record.js';
import { refusalReason, requoteOrFail } from './attempt.js';
import { persistStep, type EngineContext } from './context.js';
import { markFailed } from './outcomes.js';

export interface DefinitiveNo {
  /** The quote cannot be used (expired, superseded, used): a fresh quote can help. */
  quoteUnusable: boolean;
  /** The exchange's words, or ours for a quote found dead. */
  message: string;
  status?: number;
}

/**
 * Settles a request in `unknown` whose look found nothing. Re-quoting needs `approved`, which the
 * state machine reaches from `executing` only: the request first moves back to `executing` with
 * the attempt settled as `quote_unusable` (nothing is sent), then re-quotes. A crash between the
 * two writes is resumed by `resumeSettled`. True when the request should be driven on at once.
 */
export async function settleDefinitiveNo(ctx: EngineContext, request: DeskRequest, no: DefinitiveNo): Promise<boolean> {
  // Straight back to `approved`: the attempt keeps its outcome, so the next order reuses its client_order_id.
  if (request.kind === 'trade' && no.quoteUnusable) return requoteOrFail(ctx, request, no.message);
  await markFailed(ctx, request, ['unknown'], { stage: 'exchange', reason: refusalReason(request.kind, no.status, no.message), exchangeMessage: no.message });
  return false;
}

/**
 * An `executing` request whose last attempt is already settled as a refusal: the process stopped
 * between settling a definitive "no" and acting on it. Nothing is in flight; finish the job.
 */
export async function resumeSettled(ctx: EngineContext, request: DeskRequest): Promise<boolean> {
  const last = lastAttempt(request)!;
  const message = last.message ?? 'The exchange refused the order.';
  if (request.kind === 'trade' && last.outcome === 'quote_unusable') return requoteOrFail(ctx, request, message);
  await markFailed(ctx, request, ['executing'], { stage: 'exchange', reason: refusalReason(request.kind, undefined, message), exchangeMessage: message });
  return false;
}

/** True when the last attempt of an `executing` request has a settled refusal rather than a call in flight. */
export function hasSettledRefusal(request: DeskRequest): boolean {
  const outcome = lastAttempt(request)?.outcome;
  return outcome === 'quote_unusable' || outcome === 'refused';
}
