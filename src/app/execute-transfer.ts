/**
 * Executing an approved withdrawal or bank account removal: check again what can have changed,
 * then one attempt with a fresh idempotency key. A destination in cooldown schedules the
 * execution; checks that cannot read the exchange are retried later, a bounded number of times.
 */
import type { DeskRequest } from '../domain/record.js';
import { isExchangeError, type ExchangeError } from '../exchange/errors.js';
import { sendAttempt } from './attempt.js';
import { checkBeforeExecution, type CheckOutcome } from './checks.js';
import { inDoubtTwin, withTerms } from './claims.js';
import { persistStep, type EngineContext } from './context.js';
import { markFailed, markScheduled } from './outcomes.js';

export async function executeTransfer(ctx: EngineContext, request: DeskRequest): Promise<boolean> {
  const scheduledAt = request.execution?.scheduledAt ?? null;
  if (scheduledAt !== null && scheduledAt > ctx.clock.now()) return false;
  let check: CheckOutcome;
  try {
    check = await checkBeforeExecution(ctx, request);
  } catch (err) {
    if (!isExchangeError(err)) throw err;
    return retryLater(ctx, request, 'checks', err);
  }
  if (!check.ok) {
    if (check.action === 'schedule') await markScheduled(ctx, request, check.at, check.reason);
    else await markFailed(ctx, request, ['approved'], { stage: 'checks', reason: check.reason, exchangeMessage: null });
    return false;
  }
  return withTerms(ctx, request, () => sendUnlessTwinInDoubt(ctx, request));
}

/** A look-alike request whose outcome is in doubt goes first: its reconcile must not see ours (claims.ts). */
async function sendUnlessTwinInDoubt(ctx: EngineContext, request: DeskRequest): Promise<boolean> {
  const twin = await inDoubtTwin(ctx, request);
  if (twin !== undefined) {
    await retryAt(ctx, request, ctx.clock.now() + ctx.config.reconcileSettleMs, request.execution?.retry?.failures ?? 0);
    ctx.logger.info('waiting for a look-alike request in doubt to settle', { requestId: request.id, twin: twin.id });
    return false;
  }
  return sendAttempt(ctx, request, 'approved', { key: ctx.ids.uuid(), quote: null });
}

/**
 * A read the execution needs failed (nothing was sent): try again after `checkRetryMs`, and fail
 * the request once `maxCheckFailures` reads in a row have failed.
 */
export async function retryLater(ctx: EngineContext, request: DeskRequest, stage: 'checks' | 'quote', err: ExchangeError): Promise<boolean> {
  const failures = (request.execution?.retry?.failures ?? 0) + 1;
  if (failures >= ctx.config.maxCheckFailures) {
    const what = stage === 'checks' ? 'check the request before executing it' : 'get a quote';
    await markFailed(ctx, request, ['approved'], { stage, reason: `Could not ${what} after ${failures} tries: ${err.userMessage}`, exchangeMessage: err.messages.join('; ') || null });
    return false;
  }
  await retryAt(ctx, request, ctx.clock.now() + ctx.config.checkRetryMs, failures);
  ctx.logger.warn('exchange read failed before execution; will retry', { requestId: request.id, stage, error: err.message });
  return false;
}

/** Persists when an approved request is tried again (a schedule in the record survives a restart). */
async function retryAt(ctx: EngineContext, request: DeskRequest, nextAt: number, failures: number): Promise<void> {
  await persistStep(ctx, request.id, ['approved'], 'schedule', (current) => ({ execution: { ...current.execution!, retry: { nextAt, failures } } }));
}
