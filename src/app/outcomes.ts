/**
 * The persisted endings of an attempt, each written first, then audited, then notified:
 * submitted, completed, unknown, failed, scheduled.
 */
import { settleLastAttempt, type AttemptOutcome, type DeskRequest, type Failure } from '../domain/record.js';
import type { RequestState } from '../domain/state-machine.js';
import { audit, emit, EXCHANGE, persistStep, SYSTEM, type EngineContext } from './context.js';
import { openInDoubt } from './executing/in-doubt.js';
import { applyRemote } from './poll.js';
import type { RemoteView } from './remote.js';

/** KV key naming the request that removed a bank account (a removal has no exchange record to own). */
function removalClaimKey(bankAccountId: number): string {
  return `claim:bank_account_removal:${bankAccountId}`;
}

/** The exchange has the request (from its answer or found by reconcile): polling follows it from here. */
export async function markSubmitted(
  ctx: EngineContext,
  request: DeskRequest,
  exchangeId: string,
  view: RemoteView | undefined,
  how: 'answer' | 'reconciled',
  detail: Record<string, unknown> = {},
): Promise<void> {
  const now = ctx.clock.now();
  const outcome: AttemptOutcome = how === 'answer' ? 'submitted' : 'reconciled';
  const submitted = await persistStep(ctx, request.id, ['executing', 'unknown'], 'submitted', (current) => ({
    // The doubt is over: its question (and any buttons showing it) goes.
    execution: { ...settleLastAttempt(current.execution!, { outcome, endedAt: current.state === 'executing' ? now : lastEnd(current, now) }), exchangeId, submittedAt: now, inDoubt: null },
  }));
  if (submitted === undefined) return;
  await audit(ctx, how === 'answer' ? 'exchange.answer' : 'execution.reconciled', EXCHANGE, request.id, { outcome: 'submitted', exchangeId, ...detail });
  if (how === 'reconciled') emit(ctx, submitted, { type: 'execution.reconciled', found: true, exchangeId });
  emit(ctx, submitted, { type: 'execution.submitted', exchangeId });
  ctx.schedules.poll.set(request.id, { nextAt: now + ctx.config.poll.intervalMs, intervalMs: ctx.config.poll.intervalMs });
  if (view !== undefined) await applyRemote(ctx, request.id, view);
}

/**
 * Done without polling: a bank account removal answered 204 (`answered`), or found gone after an
 * unknown outcome. Gone but claimed by another request means that one removed it, not this one.
 */
export async function markCompleted(ctx: EngineContext, request: DeskRequest, note: string, answered = false): Promise<void> {
  if (request.snapshot.kind === 'bank_account_removal') {
    const claim = removalClaimKey(request.snapshot.bankAccount.id);
    const owner = await ctx.kv.get<string>(claim);
    if (!answered && owner !== undefined && owner !== request.id) {
      const reason = `The bank account was removed by request ${owner}, not by this one.`;
      return markFailed(ctx, request, ['executing', 'unknown'], { stage: 'reconcile', reason, exchangeMessage: null });
    }
    await ctx.kv.set(claim, request.id);
  }
  const now = ctx.clock.now();
  const completed = await persistStep(ctx, request.id, ['executing', 'unknown'], 'complete', (current) => ({
    execution: settleLastAttempt(current.execution!, { outcome: 'completed', endedAt: now, message: note }),
  }));
  if (completed === undefined) return;
  await audit(ctx, 'request.completed', EXCHANGE, request.id, { note });
  emit(ctx, completed, { type: 'request.completed' });
}

/**
 * Timeout, dropped connection, 5xx, a duplicate client_order_id, or a crash mid-call: the request
 * waits in `unknown` and is looked for on the exchange before anything else (reconcile.ts). The
 * search window is fixed now, from the sends and the exchange's clock offset as last measured.
 */
export async function markUnknown(ctx: EngineContext, request: DeskRequest, message: string, outcome: 'unknown' | 'duplicate' = 'unknown'): Promise<DeskRequest | undefined> {
  const now = ctx.clock.now();
  const offset = measuredOffset(ctx, request);
  const unknown = await persistStep(ctx, request.id, ['executing'], 'outcome_unknown', (current) => {
    const execution = { ...settleLastAttempt(current.execution!, { outcome, message, endedAt: now }), unknownSince: current.execution!.unknownSince ?? now, clockOffsetMs: offset };
    return { execution: { ...execution, inDoubt: openInDoubt({ ...current, execution }, now, ctx.config, offset) } };
  });
  if (unknown === undefined) return undefined;
  const inDoubt = unknown.execution!.inDoubt!;
  await audit(ctx, 'exchange.answer', EXCHANGE, request.id, { outcome, message, clockOffsetMs: offset, searchWindow: inDoubt.window, settleUntil: inDoubt.settleUntil });
  emit(ctx, unknown, { type: 'execution.outcome_unknown', message });
  return unknown;
}

/** The exchange's clock offset as the client last measured it (its Date header), else as measured before. */
function measuredOffset(ctx: EngineContext, request: DeskRequest): number | null {
  const measured = ctx.exchange.clockOffsetMs?.();
  return measured === undefined ? (request.execution?.clockOffsetMs ?? null) : Math.round(measured);
}

function lastEnd(request: DeskRequest, now: number): number {
  return request.execution?.attempts.at(-1)?.endedAt ?? now;
}

/**
 * A resend was refused: a definitive answer for that send, but it may only mean that an earlier
 * send of ours already did it (a duplicate client_order_id, a balance the first withdrawal
 * already took). The request waits in `unknown` with the refusal kept as the attempt's outcome
 * and is looked for at once; the look settles the refusal only when nothing of ours is there.
 */
export async function markRefusedInDoubt(ctx: EngineContext, request: DeskRequest, refusal: { outcome: 'refused' | 'quote_unusable'; message: string }): Promise<DeskRequest | undefined> {
  const now = ctx.clock.now();
  const offset = measuredOffset(ctx, request);
  const unknown = await persistStep(ctx, request.id, ['executing'], 'outcome_unknown', (current) => {
    const execution = { ...settleLastAttempt(current.execution!, { outcome: refusal.outcome, message: refusal.message, endedAt: now }), unknownSince: current.execution!.unknownSince ?? now, clockOffsetMs: offset };
    // Look at once: the refusal is an answer, only an earlier send of ours may still be out there.
    return { execution: { ...execution, inDoubt: { ...openInDoubt({ ...current, execution }, now, ctx.config, offset), nextLookAt: now } } };
  });
  if (unknown === undefined) return undefined;
  const message = `The exchange refused the resend (${refusal.message}); looking for an earlier send on the exchange before settling it.`;
  await audit(ctx, 'exchange.answer', EXCHANGE, request.id, { outcome: 'refused_in_doubt', refused: refusal.outcome, message: refusal.message, searchWindow: unknown.execution!.inDoubt!.window });
  emit(ctx, unknown, { type: 'execution.outcome_unknown', message });
  return unknown;
}

/** Ends the request as failed, keeping the exchange's words. */
export async function markFailed(ctx: EngineContext, request: DeskRequest, from: readonly RequestState[], failure: Failure): Promise<void> {
  const now = ctx.clock.now();
  const failed = await persistStep(ctx, request.id, from, 'fail', (current) => ({
    failure,
    execution: inFlight(current) ? settleLastAttempt(current.execution!, { outcome: 'refused', message: failure.exchangeMessage ?? failure.reason, endedAt: now }) : current.execution,
  }));
  if (failed === undefined) return;
  await audit(ctx, 'request.failed', SYSTEM, request.id, { ...failure });
  emit(ctx, failed, { type: 'execution.failed', ...failure });
}

/** A withdrawal whose destination is cooling down waits until then (said once, when scheduled). */
export async function markScheduled(ctx: EngineContext, request: DeskRequest, executeAt: number, reason: string): Promise<void> {
  if (request.execution?.scheduledAt === executeAt) return;
  const scheduled = await persistStep(ctx, request.id, ['approved'], 'schedule', (current) => ({
    execution: { ...current.execution!, scheduledAt: executeAt, scheduleReason: reason },
  }));
  if (scheduled === undefined) return;
  await audit(ctx, 'execution.scheduled', SYSTEM, request.id, { executeAt, reason });
  emit(ctx, scheduled, { type: 'execution.scheduled', executeAt, reason });
}

function inFlight(request: DeskRequest): boolean {
  const last = request.execution?.attempts.at(-1);
  return last !== undefined && last.outcome === 'in_flight';
}
