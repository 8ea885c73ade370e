/**
 * The runner of an unknown outcome: when the doubt's next look is due, look on the exchange
 * (executing/search.ts), let the pure decision (executing/in-doubt.ts) say what follows, persist
 * it, then act. A withdrawal is never sent again here: only a person can decide that
 * (executing/person.ts). Every next look is a time in the record, so a restart resumes it.
 */
import type { DeskRequest, InDoubt } from '../domain/record.js';
import { quoteKey, type TradeSnapshot } from '../domain/request.js';
import { sendAttempt } from './attempt.js';
import { withTerms } from './claims.js';
import { audit, emit, SYSTEM, type EngineContext } from './context.js';
import { settleDefinitiveNo } from './definitive-no.js';
import { decideLook, openInDoubt, type Look, type LookDecision } from './executing/in-doubt.js';
import { lookOnExchange } from './executing/search.js';
import { markCompleted, markSubmitted } from './outcomes.js';

/** The request's doubt; one opened now for a record that went `unknown` before doubts were recorded. */
export function inDoubtOf(ctx: EngineContext, request: DeskRequest): InDoubt {
  const execution = request.execution!;
  return execution.inDoubt ?? openInDoubt(request, execution.unknownSince ?? ctx.clock.now(), ctx.config, execution.clockOffsetMs);
}

export function reconcile(ctx: EngineContext, request: DeskRequest): Promise<boolean> {
  if (ctx.clock.now() < inDoubtOf(ctx, request).nextLookAt) return Promise.resolve(false);
  return withTerms(ctx, request, () => lookAndDecide(ctx, request));
}

async function lookAndDecide(ctx: EngineContext, request: DeskRequest): Promise<boolean> {
  const inDoubt = inDoubtOf(ctx, request);
  const lookedAt = ctx.clock.now();
  const look = await lookOnExchange(ctx, request, inDoubt);
  if (look.kind === 'inconclusive') logInconclusive(ctx, request, look);
  const decision = decideLook(request, inDoubt, look, lookedAt, ctx.config, request.execution!.clockOffsetMs);
  return act(ctx, request, inDoubt, lookedAt, decision);
}

async function act(ctx: EngineContext, request: DeskRequest, inDoubt: InDoubt, lookedAt: number, decision: LookDecision): Promise<boolean> {
  switch (decision.kind) {
    case 'adopt':
      if (request.kind === 'bank_account_removal') await markCompleted(ctx, request, 'found removed after an unknown outcome');
      else await markSubmitted(ctx, request, decision.exchangeId, undefined, 'reconciled', { matchedBy: decision.why, searchWindow: inDoubt.window });
      return false;
    case 'wait':
      await saveLook(ctx, request, { ...inDoubt, looks: inDoubt.looks + 1, lastLookAt: lookedAt, nextLookAt: decision.nextLookAt });
      return false;
    case 'ask':
      return ask(ctx, request, inDoubt, lookedAt, decision);
    case 'requote':
      await reportNotFound(ctx, request, { action: 'requote', message: decision.message });
      return settleDefinitiveNo(ctx, request, { quoteUnusable: true, message: decision.message });
    case 'refusal_stands': {
      const last = request.execution!.attempts.at(-1)!;
      await reportNotFound(ctx, request, { action: 'settle_refusal', idempotencyKey: last.key, message: last.message });
      return settleDefinitiveNo(ctx, request, { quoteUnusable: false, message: last.message ?? 'The exchange refused the request.' });
    }
    case 'resend': {
      const sends = request.execution!.attempts.filter((a) => a.key === decision.key).length;
      await reportNotFound(ctx, request, { action: 'resend', idempotencyKey: decision.key, sends });
      const last = request.execution!.attempts.at(-1)!;
      // Only orders and bank account removals reach here: a second order with the same
      // client_order_id is refused, and a second removal of a removed account answers 404.
      const plan = { key: decision.key, quote: last.quote };
      if (request.kind !== 'trade') return sendAttempt(ctx, request, 'unknown', plan);
      return ctx.quotes.withKey(quoteKey(request.snapshot as TradeSnapshot), () => sendAttempt(ctx, request, 'unknown', plan));
    }
  }
}

/** The exchange cannot settle it: a person is asked (once per question; the bot keeps looking). */
async function ask(ctx: EngineContext, request: DeskRequest, inDoubt: InDoubt, lookedAt: number, decision: Extract<LookDecision, { kind: 'ask' }>): Promise<boolean> {
  const isNew = inDoubt.question !== decision.question;
  const saved = await saveLook(ctx, request, { ...inDoubt, looks: inDoubt.looks + 1, lastLookAt: lookedAt, nextLookAt: decision.nextLookAt, question: decision.question });
  if (saved === undefined || !isNew) return false;
  const { question } = decision;
  await audit(ctx, 'execution.needs_person', SYSTEM, request.id, {
    kind: question.kind,
    candidates: question.candidates.map((c) => ({ exchangeId: c.exchangeId, createdAt: c.createdAt, status: c.status })),
    searchWindow: inDoubt.window,
  });
  ctx.logger.warn('an unknown outcome needs a person', { requestId: request.id, kind: question.kind, candidates: question.candidates.length });
  emit(ctx, saved, { type: 'execution.needs_person', question });
  return false;
}

/** Persists a look's result on a request still in `unknown` (no state change). */
async function saveLook(ctx: EngineContext, request: DeskRequest, inDoubt: InDoubt): Promise<DeskRequest | undefined> {
  return ctx.requests.mutate(request.id, (current) => {
    if (current === undefined || current.state !== 'unknown' || current.execution === null) return { result: undefined };
    const next = { ...current, execution: { ...current.execution, inDoubt } };
    return { next, result: next };
  });
}

function logInconclusive(ctx: EngineContext, request: DeskRequest, look: Extract<Look, { kind: 'inconclusive' }>): void {
  if (look.cut) ctx.logger.error('cannot prove what is on the exchange for an unknown outcome; will look again, and a person should check', { requestId: request.id, error: look.message });
  else ctx.logger.warn('could not read the exchange for an unknown outcome; will look again', { requestId: request.id, error: look.message });
}

async function reportNotFound(ctx: EngineContext, request: DeskRequest, data: Record<string, unknown>): Promise<void> {
  await audit(ctx, 'execution.reconciled', SYSTEM, request.id, { found: false, ...data });
  emit(ctx, request, { type: 'execution.reconciled', found: false, exchangeId: null });
}
