/**
 * Use case: a person settles an unknown outcome the exchange could not. Only an approver who is
 * not the requester may send again, mark as not sent or say which record is ours; the requester
 * or an approver may ask to look again. Each decision is persisted with who and what they checked,
 * audited, announced, and then acted on (a send again is persisted as `executing` before the call).
 */
import { isApprover } from '../../domain/policy.js';
import { mustAdvance, type DeskRequest, type InDoubt, type PersonDecisionRecord } from '../../domain/record.js';
import { refuse, type Refusal } from '../../domain/refusals.js';
import { announceAttempt, sendStarted, withAttempt } from '../attempt.js';
import { audit, emit, type EngineContext } from '../context.js';
import { drive } from '../drive.js';
import type { Mutation } from '../ports.js';
import type { PersonDecision, PersonDecisionResult } from './person-decision.js';

/** The longest "what I checked" kept; the rest of a pasted page is not needed to audit it. */
export const CHECKED_MAX_LENGTH = 1_000;

type Decided = { ok: true; request: DeskRequest; decision: PersonDecisionRecord } | { ok: false; refusal: Refusal };

/**
 * Decides holding the request's lock, so a look on the exchange under way finishes first (it may
 * find the withdrawal, and then there is nothing left to decide). Resolves once the decision is
 * persisted and audited; a send again goes on under the lock after that.
 */
export function decideByPerson(ctx: EngineContext, requestId: string, userId: string, decision: PersonDecision): Promise<PersonDecisionResult> {
  let answer!: (result: PersonDecisionResult) => void;
  let fail!: (err: unknown) => void;
  const result = new Promise<PersonDecisionResult>((resolve, reject) => ((answer = resolve), (fail = reject)));
  const work = ctx.requestLocks.run(requestId, async () => {
    const now = ctx.clock.now();
    const written = await ctx.requests.mutate<Decided>(requestId, (current) => apply(ctx, current, userId, decision, now, ctx.ids.uuid()));
    if (!written.ok) {
      await audit(ctx, 'execution.decision_refused', userId, requestId, { action: decision.action, reason: written.refusal.reason });
      answer(written.refusal);
      return undefined;
    }
    const { request, decision: record } = written;
    await audit(ctx, 'execution.person_decided', userId, request.id, { action: record.action, exchangeId: record.exchangeId, checked: record.checked, state: request.state });
    emit(ctx, request, { type: 'execution.person_decided', decision: record });
    await report(ctx, request, record);
    answer({ ok: true, request });
    if (request.state === 'executing') {
      const attempt = request.execution!.attempts.at(-1)!;
      await sendStarted(ctx, request, { key: attempt.key, quote: null });
    }
    return request.state;
  });
  work.catch(fail);
  // Look again (or "none of these"): the look is due now, once the lock is free.
  const followed = work.then((state) => (state === 'unknown' ? drive(ctx, requestId) : undefined));
  void ctx.background.start(`decision on ${requestId}`, followed);
  return result;
}

/** What the decision changes, in the one write that also checks who may make it. */
function apply(ctx: EngineContext, current: DeskRequest | undefined, userId: string, d: PersonDecision, now: number, key: string): Mutation<DeskRequest, Decided> {
  const refused = (refusal: Refusal): Mutation<DeskRequest, Decided> => ({ result: { ok: false, refusal } });
  if (current === undefined) return refused(refuse('not_found'));
  const inDoubt = current.state === 'unknown' ? current.execution?.inDoubt : null;
  if (!inDoubt) return refused(refuse('not_waiting_for_person'));
  const approver = isApprover(ctx.policy, userId);
  if (d.action === 'look_again') {
    if (!approver && userId !== current.requester) return refused(refuse('not_approver'));
    const record: PersonDecisionRecord = { by: userId, at: now, action: 'look_again', exchangeId: null, checked: null };
    return withDecision(current, record, { ...inDoubt, nextLookAt: now }, now);
  }
  if (userId === current.requester) return refused(refuse('own_request_decision'));
  if (!approver) return refused(refuse('not_approver'));
  const checked = d.checked.trim().slice(0, CHECKED_MAX_LENGTH);
  if (checked === '') return refused(refuse('checked_required'));
  const question = inDoubt.question;
  if (question === null) return refused(refuse('not_waiting_for_person'));
  const record: PersonDecisionRecord = { by: userId, at: now, action: d.action, exchangeId: d.action === 'choose' ? d.exchangeId : null, checked };
  switch (d.action) {
    case 'send_again': {
      if (question.kind !== 'not_found' || current.kind === 'trade' || current.kind === 'bank_account_removal') return refused(refuse('not_waiting_for_person'));
      const execution = withAttempt({ ...current.execution!, decisions: [...current.execution!.decisions, record] }, { key, quote: null }, now);
      return done(mustAdvance(current, 'execute', now, { execution }), record);
    }
    case 'mark_not_sent': {
      const failure = { stage: 'reconcile' as const, reason: `Marked as not sent by a person after checking the exchange: ${checked}`, exchangeMessage: null };
      return done(mustAdvance(current, 'fail', now, { failure, execution: { ...current.execution!, decisions: [...current.execution!.decisions, record], inDoubt: null } }), record);
    }
    case 'choose': {
      if (d.exchangeId === null) {
        // None of them is ours: they never count again, and the question becomes "not found".
        const excluded = [...inDoubt.excluded, ...question.candidates.map((c) => c.exchangeId)];
        return withDecision(current, record, { ...inDoubt, excluded, question: { askedAt: now, kind: 'not_found', candidates: [] }, nextLookAt: now }, now);
      }
      if (!question.candidates.some((c) => c.exchangeId === d.exchangeId)) return refused(refuse('not_a_candidate'));
      const execution = { ...current.execution!, decisions: [...current.execution!.decisions, record], exchangeId: d.exchangeId, submittedAt: now, inDoubt: null };
      const last = execution.attempts.at(-1)!;
      execution.attempts = [...execution.attempts.slice(0, -1), { ...last, outcome: 'reconciled' }];
      return done(mustAdvance(current, 'submitted', now, { execution }), record);
    }
  }
}

function withDecision(current: DeskRequest, record: PersonDecisionRecord, inDoubt: InDoubt, now: number): Mutation<DeskRequest, Decided> {
  return done({ ...current, updatedAt: now, execution: { ...current.execution!, decisions: [...current.execution!.decisions, record], inDoubt } }, record);
}

function done(next: DeskRequest, decision: PersonDecisionRecord): Mutation<DeskRequest, Decided> {
  return { next, result: { ok: true, request: next, decision } };
}

/** Audits and announces what the decision ended or started (the decision itself is already reported). */
async function report(ctx: EngineContext, request: DeskRequest, decision: PersonDecisionRecord): Promise<void> {
  switch (request.state) {
    case 'executing': {
      const attempt = request.execution!.attempts.at(-1)!;
      await announceAttempt(ctx, request, { key: attempt.key, quote: null }, true);
      return;
    }
    case 'failed':
      await audit(ctx, 'request.failed', decision.by, request.id, { ...request.failure });
      emit(ctx, request, { type: 'execution.failed', ...request.failure! });
      return;
    case 'submitted':
      await audit(ctx, 'execution.reconciled', decision.by, request.id, { outcome: 'submitted', exchangeId: decision.exchangeId, matchedBy: 'person' });
      emit(ctx, request, { type: 'execution.reconciled', found: true, exchangeId: decision.exchangeId });
      emit(ctx, request, { type: 'execution.submitted', exchangeId: decision.exchangeId! });
      return;
    default:
      return;
  }
}
