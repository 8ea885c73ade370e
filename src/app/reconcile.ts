/**
 * Reconciling an unknown outcome, before anything else is done with the request:
 *   found on the exchange            -> submitted (or completed, for a removed bank account)
 *   not found, the send is recent    -> look again once it has had time to show up
 *   not found, sends of the key left -> send again with the SAME key
 *   not found, no sends left         -> keep looking; fail with "check manually" after unknownGiveUpMs
 */
import { lastAttempt, type DeskRequest } from '../domain/record.js';
import { quoteKey, type IndicativeQuote, type TradeSnapshot } from '../domain/request.js';
import { isExchangeError } from '../exchange/errors.js';
import { sendAttempt } from './attempt.js';
import { withTerms } from './claims.js';
import { audit, emit, SYSTEM, type EngineContext } from './context.js';
import { findAndSettle } from './find.js';
import { markFailed } from './outcomes.js';

export function reconcile(ctx: EngineContext, request: DeskRequest): Promise<boolean> {
  if (ctx.clock.now() < (ctx.schedules.reconcile.get(request.id) ?? 0)) return Promise.resolve(false);
  return withTerms(ctx, request, () => reconcileHoldingTerms(ctx, request));
}

async function reconcileHoldingTerms(ctx: EngineContext, request: DeskRequest): Promise<boolean> {
  const now = ctx.clock.now();
  let found: boolean;
  try {
    found = await findAndSettle(ctx, request);
  } catch (err) {
    if (!isExchangeError(err)) throw err;
    ctx.schedules.reconcile.set(request.id, now + ctx.config.reconcileIntervalMs);
    ctx.logger.warn('reconcile could not read the exchange; will look again', { requestId: request.id, error: err.message });
    return false;
  }
  ctx.schedules.reconcile.delete(request.id);
  return found ? false : notFound(ctx, request);
}

async function notFound(ctx: EngineContext, request: DeskRequest): Promise<boolean> {
  const now = ctx.clock.now();
  const last = lastAttempt(request);
  if (last === undefined) throw new Error(`request ${request.id} is unknown without an attempt`);
  const settledAt = last.startedAt + ctx.config.reconcileSettleMs;
  if (now < settledAt) {
    ctx.schedules.reconcile.set(request.id, settledAt);
    return false;
  }
  const sends = request.execution!.attempts.filter((a) => a.key === last.key).length;
  if (sends < ctx.config.maxSendsPerKey) {
    await audit(ctx, 'execution.reconciled', SYSTEM, request.id, { found: false, action: 'resend', idempotencyKey: last.key, sends });
    emit(ctx, request, { type: 'execution.reconciled', found: false, exchangeId: null });
    return resend(ctx, request, last.key, last.quote);
  }
  const unknownSince = request.execution!.unknownSince ?? last.startedAt;
  if (now - unknownSince >= ctx.config.unknownGiveUpMs) {
    const reason = `The outcome stayed unknown and nothing matching was found on the exchange after ${sends} sends; check the exchange by hand.`;
    await markFailed(ctx, request, ['unknown'], { stage: 'reconcile', reason, exchangeMessage: last.message });
    return false;
  }
  ctx.schedules.reconcile.set(request.id, now + ctx.config.reconcileIntervalMs);
  return false;
}

function resend(ctx: EngineContext, request: DeskRequest, key: string, quote: IndicativeQuote | null): Promise<boolean> {
  const plan = { key, quote };
  if (request.kind !== 'trade') return sendAttempt(ctx, request, 'unknown', plan);
  return ctx.quotes.withKey(quoteKey(request.snapshot as TradeSnapshot), () => sendAttempt(ctx, request, 'unknown', plan));
}
