/**
 * One money-moving attempt, in the order that makes it exactly-once:
 *   1. persist `executing` with the idempotency key (and the quote, for an order);
 *   2. audit the attempt; 3. send; 4. persist what the answer settles.
 * A crash after 1 leaves `executing`, which recovery treats as an unknown outcome.
 */
import { lastAttempt, settleLastAttempt, type DeskRequest, type Execution } from '../domain/record.js';
import type { IndicativeQuote } from '../domain/request.js';
import { recipientDetailsAdvice } from './compliance/recipient-advice.js';
import { audit, emit, persistStep, SYSTEM, type EngineContext } from './context.js';
import { markCompleted, markFailed, markRefusedInDoubt, markSubmitted, markUnknown } from './outcomes.js';
import { send, type SendOutcome } from './send.js';

export interface AttemptPlan {
  key: string;
  quote: IndicativeQuote | null;
  /** For the audit line: why this quote (fresh, or re-quoted and why). */
  quoteNote?: string;
}

/**
 * Persists the attempt, sends it, and persists the answer. Returns true when the request should
 * be driven further at once (unknown outcome to reconcile, or an order to re-quote).
 */
export async function sendAttempt(ctx: EngineContext, request: DeskRequest, from: 'approved' | 'unknown', plan: AttemptPlan): Promise<boolean> {
  const now = ctx.clock.now();
  const started = await persistStep(ctx, request.id, [from], 'execute', (current) => ({ execution: withAttempt(current.execution!, plan, now) }));
  if (started === undefined) return false;
  await announceAttempt(ctx, started, plan, from === 'unknown');
  return sendStarted(ctx, started, plan);
}

/** The execution with a new in-flight attempt: what is persisted before the call. */
export function withAttempt(execution: Execution, plan: AttemptPlan, now: number): Execution {
  return {
    ...execution,
    attempts: [...execution.attempts, { key: plan.key, startedAt: now, quote: plan.quote, outcome: 'in_flight', message: null, endedAt: null }],
    retry: null,
    inDoubt: null,
  };
}

/** Audits the persisted attempt (appended at once: it joins any line appended just before) and queues its event. */
export function announceAttempt(ctx: EngineContext, started: DeskRequest, plan: AttemptPlan, retry: boolean): Promise<void> {
  const attempt = started.execution!.attempts.length;
  const line = audit(ctx, 'execution.attempt', SYSTEM, started.id, {
    attempt,
    idempotencyKey: plan.key,
    retry,
    snapshotHash: started.snapshotHash,
    approvers: started.approvals.map((a) => a.userId),
    ...(plan.quote ? { quoteId: plan.quote.quoteId, price: plan.quote.price, quoteExpiresAt: plan.quote.expiresAt, quoteNote: plan.quoteNote } : {}),
  });
  emit(ctx, started, { type: 'execution.started', attempt, idempotencyKey: plan.key, retry });
  return line;
}

/** Sends an attempt already persisted as `executing`, and persists what the answer settles. */
export async function sendStarted(ctx: EngineContext, started: DeskRequest, plan: AttemptPlan): Promise<boolean> {
  return settle(ctx, started, await send(ctx, started, plan.key, plan.quote));
}

async function settle(ctx: EngineContext, started: DeskRequest, outcome: SendOutcome): Promise<boolean> {
  switch (outcome.kind) {
    case 'submitted':
      await markSubmitted(ctx, started, outcome.exchangeId, outcome.view, 'answer');
      return false;
    case 'completed':
      await markCompleted(ctx, started, 'removed', true);
      return false;
    case 'unknown':
      return (await markUnknown(ctx, started, outcome.message, outcome.duplicate ? 'duplicate' : 'unknown')) !== undefined;
    case 'refused':
      return settleRefusal(ctx, started, outcome);
  }
}

async function settleRefusal(ctx: EngineContext, started: DeskRequest, refusal: Extract<SendOutcome, { kind: 'refused' }>): Promise<boolean> {
  await audit(ctx, 'exchange.answer', 'exchange', started.id, { outcome: 'refused', status: refusal.status, message: refusal.message });
  if (started.execution!.unknownSince !== null) {
    // An earlier send had an unknown outcome: this refusal may only mean "already done". Look first.
    const outcome = started.kind === 'trade' && refusal.quoteUnusable ? 'quote_unusable' : 'refused';
    return (await markRefusedInDoubt(ctx, started, { outcome, message: refusal.message })) !== undefined;
  }
  if (started.kind === 'trade' && refusal.quoteUnusable) return requoteOrFail(ctx, started, refusal.message);
  await markFailed(ctx, started, ['executing'], { stage: 'exchange', reason: refusalReason(started.kind, refusal.status, refusal.message), exchangeMessage: refusal.message });
  return false;
}

/**
 * The failure's sentence for people. A crypto withdrawal refused (422) for missing recipient or
 * VASP details gets what to do next: the fix is in the exchange's app, not in a new request.
 */
export function refusalReason(kind: DeskRequest['kind'], status: number | undefined, message: string): string {
  const base = `The exchange refused: ${message}`;
  const advice = kind === 'crypto_withdrawal' && status === 422 ? recipientDetailsAdvice(message) : undefined;
  return advice === undefined ? base : `${base.replace(/[.\s]+$/, '')}. ${advice}`;
}

/**
 * A definitive "no order for this key, the quote is unusable": back to `approved` for a fresh
 * quote (the next attempt gets a new key), or failed once the re-quotes are used up. The request
 * is `executing` with that attempt last.
 */
export async function requoteOrFail(ctx: EngineContext, started: DeskRequest, message: string): Promise<boolean> {
  const execution = started.execution!;
  if (execution.unusableRequotes >= ctx.config.maxUnusableRequotes) {
    const reason = `The quote could not be used (${message}); re-quoted ${execution.unusableRequotes} times without success.`;
    await markFailed(ctx, started, ['executing', 'unknown'], { stage: 'quote', reason, exchangeMessage: message });
    return false;
  }
  const now = ctx.clock.now();
  // A refusal in flight settles as quote_unusable; an unknown outcome keeps its outcome (orderKeyFor).
  const back = await persistStep(ctx, started.id, ['executing', 'unknown'], 'requote', (current) => ({
    execution: {
      ...(lastAttempt(current)?.outcome === 'in_flight' ? settleLastAttempt(current.execution!, { outcome: 'quote_unusable', message, endedAt: now }) : current.execution!),
      unusableRequotes: current.execution!.unusableRequotes + 1,
      unknownSince: null,
      inDoubt: null,
    },
  }));
  return back !== undefined;
}
