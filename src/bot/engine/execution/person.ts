// A person settles an unknown outcome: persisted with who and what they checked, audited, announced,
// then acted on (a send again is persisted as `executing` before the call).
import { isApprover } from '../../domain/policy.js';
import type { RequestRecord, SettlementRecord } from '../../domain/record.js';
import { refuse, type Refusal } from '../../domain/refusals.js';
import { audit, type EngineContext } from '../context.js';
import type { Settlement, SettlementResult } from './settlement.js';
import { leaseStanding } from './lease.js';
import { claimTerms } from './look-alikes.js';
import { drain, executionSteps } from './runner.js';

/** The longest "what I checked" kept; the rest of a pasted page is not needed to audit it. */
export const CHECKED_MAX_LENGTH = 1_000;

/**
 * Under the request's lock, so a look under way here finishes first (it may settle it); another replica's
 * live lease answers `execution_busy`. A send again or mark as not sent answers once its fresh look acted.
 */
export async function settleByPerson(
  ctx: EngineContext,
  requestId: string,
  userId: string,
  settlement: Settlement,
): Promise<SettlementResult> {
  const release = await ctx.requestLocks.acquire(requestId);
  let rest: AsyncGenerator<RequestRecord, void> | undefined;
  try {
    const current = await ctx.requests.get(requestId);
    let checked = maySettle(ctx, current, userId, settlement, ctx.clock.now());
    // A send again moves the request into `executing`: it holds its terms claim first (it has held
    // it since its first send, unless it was in doubt before the claim existed).
    if (checked.ok && checked.decision.action === 'send_again' && !(await claimTerms(ctx, current!)).held)
      checked = refuse('twin_in_doubt');
    if (!checked.ok) {
      await audit(ctx, 'execution.decision_refused', userId, requestId, {
        action: settlement.action,
        reason: checked.reason,
      });
      return checked;
    }
    const d = checked.decision;
    const answered = d.action === 'look_again' ? undefined : current!.execution!.inDoubt!.question!.askedAt;
    rest = executionSteps(ctx, requestId, {
      kind: 'person',
      decision: d,
      ...(answered !== undefined ? { answered } : {}),
    });
    let first: RequestRecord | undefined;
    for (let step = await rest.next(); !step.done; step = await rest.next()) {
      if (step.value.execution?.inDoubt?.pendingDecision?.at !== d.at)
        return { ok: true, request: step.value, outcome: outcomeOf(step.value, d) };
      first ??= step.value;
    }
    // Written, but the look made for it did not come back here (the lease was lost): whoever looks next carries it out or not.
    if (first !== undefined)
      return { ok: true, request: (await ctx.requests.get(requestId)) ?? first, outcome: 'pending' };
    // Nothing was decided: another replica is on the exchange for it (its lease), or it moved on.
    const now = await ctx.requests.get(requestId);
    if (now !== undefined && leaseStanding(now, ctx.replica, ctx.clock.now()).kind === 'held')
      return refuse('execution_busy');
    // Why, in the words of the check it passed a moment ago, judged against the question it answered.
    const judged = settlement.action === 'look_again' ? settlement : { ...settlement, askedAt: answered };
    const again = now === undefined ? undefined : maySettle(ctx, now, userId, judged, ctx.clock.now());
    return again === undefined || again.ok ? refuse('not_waiting_for_person') : again;
  } finally {
    // What the decision started (a send, a look) goes on under the lock; idle() waits for it.
    if (rest === undefined) release();
    else void ctx.background.start(`decision on ${requestId}`, drain(rest).finally(release));
  }
}

/** Whether the decision was carried out: it is among the record's decisions once it was. */
function outcomeOf(request: RequestRecord, d: SettlementRecord): 'carried_out' | 'withheld' {
  return request.execution?.decisions.some((x) => x.at === d.at && x.by === d.by && x.action === d.action) === true
    ? 'carried_out'
    : 'withheld';
}

/** Who may decide what, and whether there is anything to decide: the decision as recorded, or a refusal. */
export function maySettle(
  ctx: EngineContext,
  current: RequestRecord | undefined,
  userId: string,
  d: Settlement,
  now: number,
): { ok: true; decision: SettlementRecord } | Refusal {
  if (current === undefined) return refuse('not_found');
  const inDoubt = current.state === 'unknown' ? current.execution?.inDoubt : null;
  if (!inDoubt) return refuse('not_waiting_for_person');
  const approver = isApprover(ctx.policy, userId);
  if (d.action === 'look_again') {
    if (!approver && userId !== current.requester) return refuse('not_approver');
    return { ok: true, decision: { by: userId, at: now, action: 'look_again', exchangeId: null, checked: null } };
  }
  if (userId === current.requester) return refuse('own_request_decision');
  if (!approver) return refuse('not_approver');
  const checked = d.checked.trim().slice(0, CHECKED_MAX_LENGTH);
  if (checked === '') return refuse('checked_required');
  const question = inDoubt.question;
  if (question === null) return refuse('not_waiting_for_person');
  // Another person's decision waits for its look (its replica stopped mid-look): that look carries it out or not first.
  if (inDoubt.pendingDecision !== null) return refuse('decision_pending');
  // Decided on a view older than the open question: the person has not seen what it shows now.
  if (d.askedAt !== undefined && d.askedAt !== question.askedAt) return refuse('question_changed');
  // A trade is never sent again (a new order is a new trade at a new price) and has no candidates to choose from.
  const byKey = current.kind === 'trade' || current.kind === 'bank_account_removal';
  if (d.action === 'send_again' && (question.kind !== 'not_found' || byKey)) return refuse('not_waiting_for_person');
  if (d.action === 'choose' && byKey) return refuse('not_waiting_for_person');
  if (d.action === 'choose' && d.exchangeId !== null && !question.candidates.some((c) => c.exchangeId === d.exchangeId))
    return refuse('not_a_candidate');
  return {
    ok: true,
    decision: {
      by: userId,
      at: now,
      action: d.action,
      exchangeId: d.action === 'choose' ? d.exchangeId : null,
      checked,
    },
  };
}
