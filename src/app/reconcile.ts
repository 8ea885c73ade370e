/**
 * Reconciling an unknown outcome, before anything else is done with the request:
 *   found on the exchange                       -> submitted (or completed, for a removed bank account)
 *   not found, the last send was refused        -> settle the refusal (definitive-no.ts)
 *   not found, the send is recent               -> look again once it has had time to show up
 *   not found, a trade whose quote is dead      -> re-quote (definitive-no.ts): no order can exist
 *   not found, sends of the key left            -> send again with the SAME key
 *   not found, no sends left                    -> keep looking; fail with "check manually" after unknownGiveUpMs
 */
import { lastAttempt, type Attempt, type DeskRequest } from '../domain/record.js';
import { quoteKey, type IndicativeQuote, type TradeSnapshot } from '../domain/request.js';
import { sendAttempt } from './attempt.js';
import { withTerms } from './claims.js';
import { audit, emit, SYSTEM, type EngineContext } from './context.js';
import { settleDefinitiveNo } from './definitive-no.js';
import { findAndSettle, isInconclusiveSearch, SearchIncompleteError } from './find.js';
import { markFailed } from './outcomes.js';

export function reconcile(ctx: EngineContext, request: DeskRequest): Promise<boolean> {
  if (ctx.clock.now() < (ctx.schedules.reconcile.get(request.id) ?? 0)) return Promise.resolve(false);
  return withTerms(ctx, request, () => reconcileHoldingTerms(ctx, request));
}

async function reconcileHoldingTerms(ctx: EngineContext, request: DeskRequest): Promise<boolean> {
  const lookedAt = ctx.clock.now();
  let found: boolean;
  try {
    found = await findAndSettle(ctx, request);
  } catch (err) {
    if (!isInconclusiveSearch(err)) throw err;
    ctx.schedules.reconcile.set(request.id, lookedAt + ctx.config.reconcileIntervalMs);
    if (err instanceof SearchIncompleteError) ctx.logger.error('reconcile cannot prove the request is absent from the exchange; will look again, and a person should check', { requestId: request.id, error: err.message });
    else ctx.logger.warn('reconcile could not read the exchange; will look again', { requestId: request.id, error: err.message });
    return false;
  }
  ctx.schedules.reconcile.delete(request.id);
  return found ? false : notFound(ctx, request, lookedAt);
}

/** Nothing on the exchange carries the request, as of a look that started at `lookedAt`. */
async function notFound(ctx: EngineContext, request: DeskRequest, lookedAt: number): Promise<boolean> {
  const now = ctx.clock.now();
  const last = lastAttempt(request);
  if (last === undefined) throw new Error(`request ${request.id} is unknown without an attempt`);
  if (last.outcome === 'refused' || last.outcome === 'quote_unusable') {
    // The last send was refused (a definitive answer) and only the look after it was missing.
    await reportNotFound(ctx, request, { action: 'settle_refusal', idempotencyKey: last.key, message: last.message });
    return settleDefinitiveNo(ctx, request, { quoteUnusable: last.outcome === 'quote_unusable', message: last.message ?? 'The exchange refused the request.' });
  }
  const settledAt = last.startedAt + ctx.config.reconcileSettleMs;
  if (now < settledAt) {
    ctx.schedules.reconcile.set(request.id, settledAt);
    return false;
  }
  const deadAt = quoteDeadAt(ctx, last);
  if (deadAt !== undefined && lookedAt >= Math.max(deadAt, settledAt)) {
    const message = `The quote ${last.quote!.quoteId} expired at ${new Date(last.quote!.expiresAt).toISOString()} and no order carries this request's keys.`;
    await reportNotFound(ctx, request, { action: 'requote', idempotencyKey: last.key, message });
    return settleDefinitiveNo(ctx, request, { quoteUnusable: true, message });
  }
  const sends = request.execution!.attempts.filter((a) => a.key === last.key).length;
  if (sends < ctx.config.maxSendsPerKey) {
    await reportNotFound(ctx, request, { action: 'resend', idempotencyKey: last.key, sends });
    return resend(ctx, request, last.key, last.quote);
  }
  const unknownSince = request.execution!.unknownSince ?? last.startedAt;
  if (now - unknownSince >= ctx.config.unknownGiveUpMs) {
    const reason = `The outcome stayed unknown and nothing matching was found on the exchange after ${sends} sends; check the exchange by hand.`;
    await markFailed(ctx, request, ['unknown'], { stage: 'reconcile', reason, exchangeMessage: last.message });
    return false;
  }
  // A trade's quote dies soon: look again then, when that comes before the usual interval.
  const next = now + ctx.config.reconcileIntervalMs;
  ctx.schedules.reconcile.set(request.id, deadAt !== undefined && deadAt > now ? Math.min(next, deadAt) : next);
  return false;
}

/**
 * When an order on this attempt's quote can no longer exist: the exchange refuses an expired
 * quote, and its clock may differ from ours by up to clockSkewMs. A look that starts after this
 * (and after the send had time to show up) and finds no order means none will ever appear.
 */
function quoteDeadAt(ctx: EngineContext, attempt: Attempt): number | undefined {
  return attempt.quote === null ? undefined : attempt.quote.expiresAt + ctx.config.clockSkewMs;
}

async function reportNotFound(ctx: EngineContext, request: DeskRequest, data: Record<string, unknown>): Promise<void> {
  await audit(ctx, 'execution.reconciled', SYSTEM, request.id, { found: false, ...data });
  emit(ctx, request, { type: 'execution.reconciled', found: false, exchangeId: null });
}

function resend(ctx: EngineContext, request: DeskRequest, key: string, quote: IndicativeQuote | null): Promise<boolean> {
  const plan = { key, quote };
  if (request.kind !== 'trade') return sendAttempt(ctx, request, 'unknown', plan);
  return ctx.quotes.withKey(quoteKey(request.snapshot as TradeSnapshot), () => sendAttempt(ctx, request, 'unknown', plan));
}
