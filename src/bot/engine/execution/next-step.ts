/**
 * Executing an approved request, decided without I/O: `nextStep(record, now, observation)` says
 * what to persist and which effect to perform next; the runner (runner.ts) persists first, then
 * performs the effect, and feeds what came of it back in as the next observation.
 *
 *   approved  --due-->      check (withdrawals) | quote (a trade whose approvers' quote is unusable) | send
 *   approved  --checked-->  send | schedule (cooldown) | try later (unreadable) | fail   (checks.ts judges the facts)
 *   approved  --quoted-->   send within the limit | new approval round beyond it | try later | fail
 *   approved  (a trade whose earlier order may still appear) --would fail--> unknown (look; a person after the window)
 *   executing --answer-->   submitted | completed (a removal) | unknown (look) | refused: fail or re-quote
 *   executing --due-->      its holder stopped mid-call (its lease ours or expired): unknown (look)
 *   unknown   --due-->      look when the record's next look is due (at once when a person's settlement waits for it)
 *   unknown   --looked-->   in-doubt.ts: adopt | look later | ask a person | re-quote | resend an order
 *   unknown   --person-->   look again, choose: at once; send again, mark as not sent: look first (under the lease)
 *   unknown   --looked, a decision waiting--> carry it out | withhold it and ask again (what appeared)
 *
 * The step also says what the runner does after its write (follow a request just submitted,
 * release its terms claim past doubt, decide again after a re-quote): the runner decides nothing.
 *
 * Around all of it, the execution lease (lease.ts): a send or a look is persisted with this
 * replica's lease; a request another replica holds is left alone until its lease expires, then
 * taken over (never by a send: `executing` goes to the look); an answer that comes back after the
 * lease was taken is recorded nowhere (`lease.lost`); any other write clears the lease.
 *
 * `executing` always means one call in flight; the only send is the effect `send`, persisted with
 * its key before it leaves. Every row is a case of test/bot/engine/next-step.test.ts.
 */
import { hasRequiredApprovals, type Policy } from '../../domain/policy.js';
import {
  inDoubtKey,
  lastAttempt,
  newRound,
  orderKeyFor,
  settleLastAttempt,
  type Candidate,
  type RequestRecord,
  type ExecutedRequest,
  type Execution,
  type Failure,
  type InDoubt,
  type SettlementRecord,
  type PersonQuestion,
  type RecordChanges,
} from '../../domain/record.js';
import { limitFromSlippage, withinLimit, type IndicativeQuote, type TradeSnapshot } from '../../domain/request.js';
import { transition, type Command } from '../../domain/state-machine.js';
import type { RemoteView } from '../../ports/exchange-port.js';
import { pastDoubt } from './look-alikes.js';
import { recipientDetailsAdvice } from './recipient-advice.js';
import type { EngineConfig } from '../engine-config.js';
import type { EventInput, RequoteReason } from '../../ports/events.js';
import { judgeChecks } from './checks.js';
import type { Answer, CheckFound, ExchangeFailure } from './observations.js';
import { currentDoubt, judgeLook, openInDoubt, type Look } from './in-doubt.js';
import { leaseFor, leaseStanding, type LeaseStanding } from './lease.js';

export type Observation =
  | { kind: 'due' }
  | { kind: 'checked'; found: CheckFound }
  /** `reason`: why the approvers' quote could not be used, as decided before quoting. */
  | { kind: 'quoted'; quote: IndicativeQuote; reason: RequoteReason }
  | { kind: 'quote_failed'; failure: ExchangeFailure }
  | { kind: 'answer'; answer: Answer }
  | { kind: 'looked'; look: Look; at: number }
  /** A removal's account is gone: the request that holds the claim to having removed it. */
  | { kind: 'claimed'; by: string }
  /**
   * A person's settlement on an unknown outcome, already checked for who may make it (person.ts);
   * `answered`: the askedAt of the question it was judged against (none for a look again).
   */
  | { kind: 'person'; decision: SettlementRecord; answered?: number };

export type Effect =
  | { kind: 'none' }
  | { kind: 'check' }
  | { kind: 'quote'; reason: RequoteReason }
  | { kind: 'send'; key: string; quote: IndicativeQuote | null }
  | { kind: 'look' }
  /** A removal is done: claim the account for this request (before anyone else can). */
  | { kind: 'claim_removal' }
  /** Back in `approved` (a re-quote): decide again at once, nothing observed. */
  | { kind: 'decide_again' };

export interface AuditLine {
  type: string;
  /** `system`, `exchange`, or the Slack user id of the person who decided. */
  actor: string;
  data: Record<string, unknown>;
}

export interface Step {
  /** The write: a command of the state machine, or (no command) fields of the same state. */
  write?: { command?: Command; changes: RecordChanges };
  audit: AuditLine[];
  events: EventInput[];
  effect: Effect;
  log?: { level: 'info' | 'warn' | 'error'; message: string; data?: Record<string, unknown> };
  /** Just submitted: polling follows it from now, from the answer's view when there was one. */
  startPolling?: { view: RemoteView | undefined };
  /** Past doubt for good: its terms claim goes, so a look-alike may be sent (look-alikes.ts). */
  releaseTerms?: true;
}

/** What decide needs besides the record: rules and facts only the process knows. */
export interface Facts {
  config: EngineConfig;
  policy: Policy;
  /** A newer quote on the same terms was taken in this process (the approvers' one is dead). */
  quoteSuperseded: boolean;
  /** A fresh key (for a withdrawal's or a new order's idempotency key). */
  newKey: () => string;
  /** The exchange's clock offset as last measured (Date header), if ever. */
  measuredOffsetMs: number | null;
  /** This replica, as execution leases name it. */
  replica: string;
}

const STOP: Step = { audit: [], events: [], effect: { kind: 'none' } };

/** Effects that act on the exchange for the request: persisted with this replica's lease. */
const LEASED_EFFECTS: ReadonlySet<Effect['kind']> = new Set(['send', 'look']);
/** What an effect performed under this replica's lease answered: recorded only while the lease is still ours. */
const UNDER_LEASE: ReadonlySet<Observation['kind']> = new Set(['answer', 'looked', 'claimed']);

export function nextStep(record: RequestRecord, now: number, obs: Observation, facts: Facts): Step {
  const lease = leaseStanding(record, facts.replica, now);
  if (UNDER_LEASE.has(obs.kind)) {
    if (lease.kind !== 'mine') return leaseLost(record, lease, facts);
  } else if (lease.kind === 'held') {
    return STOP;
  }
  return afterwards(
    record,
    obs,
    withLease(record, now, decideUnderLease(record, now, obs, facts, lease), lease, facts),
  );
}

/** What the runner does once the step's write is persisted, read from where the write moves the request. */
function afterwards(record: RequestRecord, obs: Observation, step: Step): Step {
  const command = step.write?.command;
  const moved = command === undefined ? undefined : transition(record.state, command);
  if (moved === undefined || !moved.ok || moved.next === record.state) return step;
  const next = moved.next;
  const view = obs.kind === 'answer' && obs.answer.kind === 'submitted' ? obs.answer.view : undefined;
  return {
    ...step,
    ...(next === 'submitted' ? { startPolling: { view } } : {}),
    // Out of doubt for good: a look-alike may take the terms now (a crash before the release leaves a stale claim, cleared by the next claimer).
    ...(pastDoubt({ state: next }) && !pastDoubt(record) ? { releaseTerms: true as const } : {}),
    ...(next === 'approved' && step.effect.kind === 'none' ? { effect: { kind: 'decide_again' as const } } : {}),
  };
}

function decideUnderLease(
  record: RequestRecord,
  now: number,
  obs: Observation,
  facts: Facts,
  lease: LeaseStanding,
): Step {
  switch (record.state) {
    case 'approved':
      return record.kind === 'trade'
        ? notFailedInDoubt(record, now, decideTrade(record, now, obs, facts), facts)
        : decideTransfer(record, now, obs, facts);
    case 'executing':
      if (obs.kind === 'claimed') return claimed(record, now, obs.by, 'removed');
      return obs.kind === 'answer'
        ? settleAnswer(record, now, obs.answer, facts)
        : stoppedMidCall(record, now, facts, lease);
    case 'unknown':
      return decideInDoubt(record, now, obs, facts);
    default:
      return STOP;
  }
}

// ---- the lease ---------------------------------------------------------------------------------

/**
 * The step with the lease written into it: claimed (or renewed) with a send or a look, cleared by
 * any other write. Writing over another replica's expired lease is a takeover, audited as such; a
 * send is audited with the lease it goes out under. A step that writes nothing leaves it as it is.
 */
function withLease(record: RequestRecord, now: number, step: Step, standing: LeaseStanding, facts: Facts): Step {
  const claims = LEASED_EFFECTS.has(step.effect.kind);
  if (!claims && step.write === undefined) return step;
  const changes = step.write?.changes ?? {};
  const execution = changes.execution === undefined ? record.execution : changes.execution;
  if (execution === null) return step;
  const lease = claims ? leaseFor(facts.replica, now, facts.config.leaseTtlMs) : null;
  if (lease === null && execution.lease === null) return step;
  const write: NonNullable<Step['write']> = {
    ...step.write,
    changes: { ...changes, execution: { ...execution, lease } },
  };
  const audit = [...step.audit];
  let log = step.log;
  if (standing.kind === 'expired') {
    const data = {
      holder: facts.replica,
      previousHolder: standing.lease.holder,
      expiredForMs: standing.expiredForMs,
      state: record.state,
    };
    audit.unshift({ type: 'lease.taken_over', actor: 'system', data });
    log ??= {
      level: 'warn',
      message: 'took over a request whose lease expired (its replica stopped renewing it)',
      data: { requestId: record.id, ...data },
    };
  }
  if (step.effect.kind === 'send')
    audit.push({
      type: 'lease.claimed',
      actor: 'system',
      data: { holder: facts.replica, until: lease!.until, idempotencyKey: step.effect.key },
    });
  return { ...step, write, audit, ...(log ? { log } : {}) };
}

/** An effect's answer came back and the lease is not ours any more: nothing of it is recorded. */
function leaseLost(record: RequestRecord, standing: LeaseStanding, facts: Facts): Step {
  const heldBy = standing.kind === 'free' ? null : standing.lease.holder;
  const data = { holder: facts.replica, heldBy, state: record.state };
  return {
    audit: [{ type: 'lease.lost', actor: 'system', data }],
    events: [],
    effect: { kind: 'none' },
    log: {
      level: 'warn',
      message: 'lease lost: another replica took this request over; its work stands and this answer is not recorded',
      data: { requestId: record.id, ...data },
    },
  };
}

// ---- approved --------------------------------------------------------------------------------

function decideTransfer(record: ExecutedRequest, now: number, obs: Observation, facts: Facts): Step {
  const execution = record.execution;
  if (obs.kind === 'due') {
    if ((execution.retry?.nextAt ?? 0) > now || (execution.scheduledAt ?? 0) > now) return STOP;
    if (!hasRequiredApprovals(facts.policy, record)) return staleApprovals(record, now);
    return { ...STOP, effect: { kind: 'check' } };
  }
  if (obs.kind !== 'checked') return STOP;
  const found = obs.found;
  if (found.kind === 'twin_in_doubt') {
    // A look-alike of ours is in doubt: its look must not see this one's withdrawal. Wait for it.
    return {
      write: {
        command: 'schedule',
        changes: {
          execution: {
            ...execution,
            retry: { nextAt: now + facts.config.firstLookAfterMs, failures: execution.retry?.failures ?? 0 },
          },
        },
      },
      audit: [],
      events: [],
      effect: { kind: 'none' },
      log: {
        level: 'info',
        message: 'waiting for a look-alike request in doubt to settle',
        data: { requestId: record.id, lookAlike: found.lookAlike },
      },
    };
  }
  if (found.kind === 'unreadable')
    return tryLater(record, now, 'checks', found.failure.message, found.failure.exchangeMessages, facts);
  const check = judgeChecks(record.snapshot, found.facts, now);
  if (check.ok) return startAttempt(record, now, { key: facts.newKey(), quote: null }, false);
  if (check.action === 'fail')
    return fail(record, now, { stage: 'checks', reason: check.reason, exchangeMessage: null });
  if (execution.scheduledAt === check.at) return STOP;
  return {
    write: {
      command: 'schedule',
      changes: { execution: { ...execution, scheduledAt: check.at, scheduleReason: check.reason } },
    },
    audit: [{ type: 'execution.scheduled', actor: 'system', data: { executeAt: check.at, reason: check.reason } }],
    events: [{ type: 'execution.scheduled', executeAt: check.at, reason: check.reason }],
    effect: { kind: 'none' },
  };
}

function decideTrade(record: ExecutedRequest, now: number, obs: Observation, facts: Facts): Step {
  const trade = record.snapshot as TradeSnapshot;
  const execution = record.execution;
  switch (obs.kind) {
    case 'due': {
      if ((execution.retry?.nextAt ?? 0) > now) return STOP;
      if (!hasRequiredApprovals(facts.policy, record)) return staleApprovals(record, now);
      const problem = quoteProblem(record, trade, now, facts);
      if (problem !== null) return { ...STOP, effect: { kind: 'quote', reason: problem } };
      if (!withinLimit(trade.side, trade.quote.price, trade.limitPrice))
        return reapproval(record, trade, trade.quote, now, facts, []);
      return startAttempt(
        record,
        now,
        { key: orderKeyFor(record, facts.newKey), quote: trade.quote, quoteNote: 'approvers quote' },
        false,
      );
    }
    case 'quoted': {
      const reason = obs.reason;
      const previous = lastAttempt(record)?.quote ?? trade.quote;
      const within = withinLimit(trade.side, obs.quote.price, trade.limitPrice);
      const requoted: EventInput = {
        type: 'trade.requoted',
        reason,
        oldPrice: previous.price,
        newPrice: obs.quote.price,
        limitPrice: trade.limitPrice,
        withinLimit: within,
        expiresAt: obs.quote.expiresAt,
      };
      if (!within) {
        // A new round could be rejected or expire and end the request while its earlier order fills.
        const key = inDoubtKey(record);
        if (key !== undefined) {
          const step = backInDoubt(
            record,
            now,
            key,
            {
              instead: 'reapproval',
              reason: `The new quote ${obs.quote.price} is beyond the approved limit ${trade.limitPrice}`,
            },
            facts,
          );
          return { ...step, events: [requoted, ...step.events] };
        }
        return reapproval(record, trade, obs.quote, now, facts, [requoted]);
      }
      const step = startAttempt(
        record,
        now,
        { key: orderKeyFor(record, facts.newKey), quote: obs.quote, quoteNote: `re-quoted: ${reason}` },
        false,
      );
      // The thread reads in the order things happen: the order's attempt starts, then its re-quote.
      return { ...step, events: [...step.events, requoted] };
    }
    case 'quote_failed': {
      // No answer, or too many calls: nothing was quoted, try again later. Anything else is a refusal.
      const f = obs.failure;
      if (f.outcomeUnknown || f.kind === 'rate_limited')
        return tryLater(record, now, 'quote', f.message, f.exchangeMessages, facts);
      return fail(record, now, {
        stage: 'quote',
        reason: `The exchange refused a new quote: ${f.message}`,
        exchangeMessage: f.exchangeMessages || null,
      });
    }
    default:
      return STOP;
  }
}

/**
 * A trade whose earlier order may still appear (its client_order_id in doubt) never fails on
 * its own: a quote that cannot be had, re-quotes used up, a refusal, stale approvals all send
 * it back in doubt instead, to be looked for by its client_order_id and, once the settle window
 * has closed, put to a person. "Failed" needs a person's Mark as not placed on a fresh look.
 */
function notFailedInDoubt(record: ExecutedRequest, now: number, step: Step, facts: Facts): Step {
  const failure = step.write?.command === 'fail' ? step.write.changes.failure : undefined;
  const key = inDoubtKey(record);
  if (failure == null || key === undefined || record.kind !== 'trade') return step;
  return backInDoubt(record, now, key, { instead: 'fail', reason: failure.reason }, facts);
}

/** The trade cannot go on while an earlier order (`key`) may still appear: look for it by key, then a person. */
function backInDoubt(
  record: ExecutedRequest,
  now: number,
  key: string,
  why: { instead: 'fail' | 'reapproval'; reason: string },
  facts: Facts,
): Step {
  const execution = record.execution;
  const inDoubt = { ...openInDoubt(record, now, facts.config, execution.clockOffsetMs), stoppedBecause: why.reason };
  return {
    write: {
      ...(record.state === 'unknown' ? {} : { command: 'outcome_unknown' as const }),
      changes: { execution: { ...execution, retry: null, unknownSince: execution.unknownSince ?? now, inDoubt } },
    },
    audit: [
      {
        type: 'execution.back_in_doubt',
        actor: 'system',
        data: { ...why, clientOrderId: key, searchWindow: inDoubt.window, settleUntil: inDoubt.settleUntil },
      },
    ],
    events: [
      {
        type: 'execution.outcome_unknown',
        message: `${why.reason.replace(/[.\s]+$/, '')}; an earlier order of this request may still appear, so it has not ${why.instead === 'fail' ? 'failed' : 'gone back for approval'}: looking for it by its client order id`,
      },
    ],
    effect: { kind: 'look' },
    log: {
      level: 'warn',
      message: 'a trade that could not go on is back in doubt: an earlier order of it may still appear',
      data: { requestId: record.id, reason: why.reason },
    },
  };
}

/** Why the approvers' quote cannot be ordered on now, or null when it can. */
function quoteProblem(record: ExecutedRequest, trade: TradeSnapshot, now: number, facts: Facts): RequoteReason | null {
  const last = lastAttempt(record);
  // After an unknown outcome whose order never appeared, the quote died meanwhile: "expired".
  if (last !== undefined)
    return last.outcome === 'quote_unusable' ? 'unusable' : last.outcome === 'unknown' ? 'expired' : 'used';
  if (facts.quoteSuperseded) return 'superseded';
  const left = trade.quote.expiresAt - now;
  if (left <= 0) return 'expired';
  if (left <= facts.config.quoteSafetyMarginMs) return 'expiring';
  return null;
}

/** The price moved beyond what the approvers accepted: a new approval round at the new price. */
function reapproval(
  record: ExecutedRequest,
  trade: TradeSnapshot,
  quote: IndicativeQuote,
  now: number,
  facts: Facts,
  events: EventInput[],
): Step {
  const bps = trade.slippageBps ?? facts.config.reapprovalSlippageBps;
  const snapshot: TradeSnapshot = { ...trade, quote, limitPrice: limitFromSlippage(trade.side, quote.price, bps) };
  const changes = newRound(record, snapshot, now, facts.policy);
  const hash = changes.snapshotHash!;
  return {
    write: { command: 'ask_reapproval', changes },
    audit: [
      {
        type: 'trade.awaiting_reapproval',
        actor: 'system',
        data: {
          price: quote.price,
          quoteId: quote.quoteId,
          oldLimitPrice: trade.limitPrice,
          newLimitPrice: snapshot.limitPrice,
          round: record.round + 1,
          snapshotHash: hash,
        },
      },
    ],
    events: [
      ...events,
      {
        type: 'trade.awaiting_reapproval',
        price: quote.price,
        oldLimitPrice: trade.limitPrice,
        newLimitPrice: snapshot.limitPrice,
        snapshotHash: hash,
      },
    ],
    effect: { kind: 'none' },
  };
}

/** A read the execution needs failed (nothing was sent): try again later, a bounded number of times. */
function tryLater(
  record: ExecutedRequest,
  now: number,
  stage: 'checks' | 'quote',
  message: string,
  exchangeMessages: string,
  facts: Facts,
): Step {
  const execution = record.execution;
  const failures = (execution.retry?.failures ?? 0) + 1;
  if (failures >= facts.config.maxCheckFailures) {
    const what = stage === 'checks' ? 'check the request before executing it' : 'get a quote';
    return fail(record, now, {
      stage,
      reason: `Could not ${what} after ${failures} tries: ${message}`,
      exchangeMessage: exchangeMessages || null,
    });
  }
  return {
    write: {
      command: 'schedule',
      changes: { execution: { ...execution, retry: { nextAt: now + facts.config.checkRetryMs, failures } } },
    },
    audit: [],
    events: [],
    effect: { kind: 'none' },
    log: {
      level: 'warn',
      message: 'exchange read failed before execution; will retry',
      data: { requestId: record.id, stage, error: message },
    },
  };
}

/** The policy was raised (or an approver removed) since the approvals came in: nothing is sent. */
function staleApprovals(record: ExecutedRequest, now: number): Step {
  return fail(record, now, {
    stage: 'checks',
    reason: 'The approvals no longer meet the approval policy, which changed since they were given; request again.',
    exchangeMessage: null,
  });
}

/** Persisted as `executing` with its key BEFORE the call leaves; audited with who approved what. */
function startAttempt(
  record: ExecutedRequest,
  now: number,
  plan: { key: string; quote: IndicativeQuote | null; quoteNote?: string },
  retry: boolean,
): Step {
  const execution: Execution = {
    ...record.execution,
    attempts: [
      ...record.execution.attempts,
      { key: plan.key, startedAt: now, quote: plan.quote, outcome: 'in_flight', message: null, endedAt: null },
    ],
    retry: null,
    inDoubt: null,
  };
  const attempt = execution.attempts.length;
  return {
    write: { command: 'execute', changes: { execution } },
    audit: [
      {
        type: 'execution.attempt',
        actor: 'system',
        data: {
          attempt,
          idempotencyKey: plan.key,
          retry,
          snapshotHash: record.snapshotHash,
          approvers: record.approvals.map((a) => a.userId),
          ...(plan.quote
            ? {
                quoteId: plan.quote.quoteId,
                price: plan.quote.price,
                quoteExpiresAt: plan.quote.expiresAt,
                quoteNote: plan.quoteNote,
              }
            : {}),
        },
      },
    ],
    events: [{ type: 'execution.started', attempt, idempotencyKey: plan.key, retry }],
    effect: { kind: 'send', key: plan.key, quote: plan.quote },
  };
}

// ---- executing -------------------------------------------------------------------------------

function settleAnswer(record: ExecutedRequest, now: number, answer: Answer, facts: Facts): Step {
  switch (answer.kind) {
    case 'submitted':
      return submitted(record, now, answer.exchangeId, 'answer', {});
    case 'completed':
      return { ...STOP, effect: { kind: 'claim_removal' } };
    case 'error':
      return answeredWithError(record, now, answer.failure, facts);
  }
}

/**
 * Timeouts, dropped connections and 5xx leave the outcome unknown. So do a 2xx we could not read
 * (the exchange acted) and a 429 (safer to look before sending again). A reused client_order_id
 * is refused because the order exists: never "failed", always "find it". Other 4xx are refusals.
 */
function answeredWithError(record: ExecutedRequest, now: number, f: ExchangeFailure, facts: Facts): Step {
  if (f.outcomeUnknown || f.kind === 'invalid_response' || f.kind === 'rate_limited')
    return toUnknown(record, now, f.message, 'unknown', facts);
  if (f.refusal === 'duplicate_client_order_id')
    return toUnknown(
      record,
      now,
      `The exchange already has an order with this client order id (${f.message}); looking for it.`,
      'duplicate',
      facts,
    );
  return refused(
    record,
    now,
    { status: f.status, message: f.message, quoteUnusable: f.refusal === 'quote_unusable' },
    facts,
  );
}

/**
 * No call of this process is in flight (the runner holds the request) and nobody else's is
 * (the lease is free, ours, or expired): whoever sent stopped mid-call. Look before anything else.
 */
function stoppedMidCall(record: ExecutedRequest, now: number, facts: Facts, lease: LeaseStanding): Step {
  const last = lastAttempt(record);
  // Written by an older version, which settled a refusal before acting on it: finish that.
  if (last?.outcome === 'quote_unusable' && record.kind === 'trade')
    return requote(record, now, last.message ?? 'The quote could not be used.', facts);
  if (last?.outcome === 'refused')
    return fail(record, now, {
      stage: 'exchange',
      reason: refusalReason(record.kind, undefined, last.message ?? 'The exchange refused.'),
      exchangeMessage: last.message,
    });
  const who = lease.kind === 'expired' ? 'The replica executing this request stopped' : 'The process stopped';
  return toUnknown(record, now, `${who} before the exchange answer was recorded.`, 'unknown', facts);
}

function refused(
  record: ExecutedRequest,
  now: number,
  answer: { status: number | undefined; message: string; quoteUnusable: boolean },
  facts: Facts,
): Step {
  const answered: AuditLine = {
    type: 'exchange.answer',
    actor: 'exchange',
    data: { outcome: 'refused', status: answer.status, message: answer.message },
  };
  const outcome = record.kind === 'trade' && answer.quoteUnusable ? 'quote_unusable' : 'refused';
  if (record.execution.unknownSince !== null || inDoubtKey(record, 1) !== undefined) {
    // An earlier send had an unknown outcome: this refusal may only mean "already done". Look first.
    const step = toUnknown(record, now, answer.message, outcome, facts, true);
    return { ...step, audit: [answered, ...step.audit] };
  }
  const step =
    outcome === 'quote_unusable'
      ? requote(record, now, answer.message, facts)
      : fail(record, now, {
          stage: 'exchange',
          reason: refusalReason(record.kind, answer.status, answer.message),
          exchangeMessage: answer.message,
        });
  return { ...step, audit: [answered, ...step.audit] };
}

/**
 * The failure's sentence for people. A crypto withdrawal refused (422) for missing recipient or
 * VASP details gets what to do next: the fix is in the exchange's app, not in a new request.
 */
export function refusalReason(kind: RequestRecord['kind'], status: number | undefined, message: string): string {
  const base = `The exchange refused: ${message}`;
  const advice = kind === 'crypto_withdrawal' && status === 422 ? recipientDetailsAdvice(message) : undefined;
  return advice === undefined ? base : `${base.replace(/[.\s]+$/, '')}. ${advice}`;
}

/**
 * Timeout, dropped connection, 5xx, a duplicate client_order_id, a crash mid-call, or a resend
 * refused: the request waits in `unknown` and is looked for before anything else. The search
 * window is fixed now, from the sends and the exchange's clock offset as last measured.
 */
function toUnknown(
  record: ExecutedRequest,
  now: number,
  message: string,
  outcome: 'unknown' | 'duplicate' | 'refused' | 'quote_unusable',
  facts: Facts,
  resendRefused = false,
): Step {
  const offset = facts.measuredOffsetMs ?? record.execution.clockOffsetMs;
  const settled = {
    ...settleLastAttempt(record.execution, { outcome, message, endedAt: now }),
    unknownSince: record.execution.unknownSince ?? now,
    clockOffsetMs: offset,
  };
  const inDoubt = openInDoubt({ ...record, execution: settled }, now, facts.config, offset);
  const text = resendRefused
    ? `The exchange refused the resend (${message}); looking for an earlier send on the exchange before settling it.`
    : message;
  return {
    write: { command: 'outcome_unknown', changes: { execution: { ...settled, inDoubt } } },
    audit: [
      {
        type: 'exchange.answer',
        actor: 'exchange',
        data: {
          outcome: resendRefused ? 'refused_in_doubt' : outcome,
          message,
          clockOffsetMs: offset,
          searchWindow: inDoubt.window,
          settleUntil: inDoubt.settleUntil,
        },
      },
    ],
    events: [{ type: 'execution.outcome_unknown', message: text }],
    effect: { kind: 'look' },
  };
}

// ---- unknown ---------------------------------------------------------------------------------

function decideInDoubt(record: ExecutedRequest, now: number, obs: Observation, facts: Facts): Step {
  const execution = record.execution;
  const inDoubt = currentDoubt(record, now, facts.config);
  if (obs.kind === 'claimed') return claimed(record, now, obs.by, 'found removed after an unknown outcome');
  if (obs.kind === 'person') {
    // Another replica's look may have asked a new question since person.ts read the record: decide nothing.
    if (obs.answered !== undefined && inDoubt.question?.askedAt !== obs.answered) return STOP;
    // Another person's decision waits for its look: it is carried out or withheld first, never replaced unsaid.
    if (obs.decision.action !== 'look_again' && inDoubt.pendingDecision !== null) return STOP;
    return decidedByPerson(record, now, obs.decision, facts);
  }
  // A decision waiting for its look (its replica stopped before the look came back) is looked for at once.
  if (obs.kind !== 'looked')
    return inDoubt.nextLookAt > now && inDoubt.pendingDecision === null ? STOP : { ...STOP, effect: { kind: 'look' } };
  if (inDoubt.pendingDecision !== null) return carryOut(record, now, inDoubt.pendingDecision, obs.look, inDoubt, facts);
  const decision = judgeLook(record, inDoubt, obs.look, obs.at, facts.config, execution.clockOffsetMs);
  const log = obs.look.kind === 'inconclusive' ? inconclusiveLog(record, obs.look) : undefined;
  const withLog = (step: Step): Step => (log ? { ...step, log } : step);
  const looked = { ...inDoubt, looks: inDoubt.looks + 1, lastLookAt: obs.at };
  switch (decision.kind) {
    case 'adopt':
      if (record.kind === 'bank_account_removal') return { ...STOP, effect: { kind: 'claim_removal' } };
      return submitted(record, now, decision.exchangeId, 'reconciled', {
        matchedBy: decision.why,
        searchWindow: inDoubt.window,
      });
    case 'wait':
      return withLog({
        write: { changes: { execution: { ...execution, inDoubt: { ...looked, nextLookAt: decision.nextLookAt } } } },
        audit: [],
        events: [],
        effect: { kind: 'none' },
      });
    case 'ask': {
      const isNew = inDoubt.question !== decision.question;
      const write = {
        changes: {
          execution: {
            ...execution,
            inDoubt: { ...looked, nextLookAt: decision.nextLookAt, question: decision.question },
          },
        },
      };
      if (!isNew) return { write, audit: [], events: [], effect: { kind: 'none' } };
      const q = decision.question;
      return {
        write,
        audit: [
          {
            type: 'execution.needs_person',
            actor: 'system',
            data: {
              kind: q.kind,
              candidates: q.candidates.map((c) => ({
                exchangeId: c.exchangeId,
                createdAt: c.createdAt,
                status: c.status,
              })),
              searchWindow: inDoubt.window,
            },
          },
        ],
        events: [{ type: 'execution.needs_person', question: q }],
        effect: { kind: 'none' },
        log: {
          level: 'warn',
          message: 'an unknown outcome needs a person',
          data: { requestId: record.id, kind: q.kind, candidates: q.candidates.length },
        },
      };
    }
    case 'requote':
      return withNotFound(notFailedInDoubt(record, now, requote(record, now, decision.message, facts), facts), {
        action: 'requote',
        message: decision.message,
      });
    case 'refusal_stands': {
      const last = lastAttempt(record)!;
      const message = last.message ?? 'The exchange refused the request.';
      const step = fail(record, now, {
        stage: 'exchange',
        reason: refusalReason(record.kind, undefined, message),
        exchangeMessage: message,
      });
      return withNotFound(step, { action: 'settle_refusal', idempotencyKey: last.key, message: last.message });
    }
    case 'resend': {
      const sends = execution.attempts.filter((a) => a.key === decision.key).length;
      return withNotFound(startAttempt(record, now, { key: decision.key, quote: lastAttempt(record)!.quote }, true), {
        action: 'resend',
        idempotencyKey: decision.key,
        sends,
      });
    }
  }
}

/**
 * What a person decided (who may decide was checked before, person.ts): audited with who and what
 * they checked. Looking again and "none of these" are carried out at once. Sending again, marking as
 * not sent and taking a candidate as ours act on what the exchange shows now: the decision waits in the record (`pendingDecision`)
 * for a look under this replica's lease, and the step that reads that look carries it out or not
 * (carryOut).
 */
function decidedByPerson(record: ExecutedRequest, now: number, d: SettlementRecord, facts: Facts): Step {
  const execution = record.execution;
  const inDoubt = currentDoubt(record, now, facts.config);
  const decided: AuditLine = {
    type: 'execution.person_decided',
    actor: d.by,
    data: { action: d.action, exchangeId: d.exchangeId, checked: d.checked },
  };
  // Taking a candidate as ours waits for a look too: ours (its key or desk reference) may have appeared since.
  if (d.action === 'send_again' || d.action === 'mark_not_sent' || (d.action === 'choose' && d.exchangeId !== null)) {
    return {
      write: { changes: { execution: { ...execution, inDoubt: { ...inDoubt, pendingDecision: d } } } },
      audit: [{ ...decided, data: { ...decided.data, carriedOut: 'after a fresh look' } }],
      events: [],
      effect: { kind: 'look' },
    };
  }
  const withDecision = { ...execution, decisions: [...execution.decisions, d] };
  const announce = (step: Step): Step => ({
    ...step,
    audit: [decided, ...step.audit],
    events: [{ type: 'execution.person_decided', decision: d }, ...step.events],
  });
  if (d.action === 'look_again') {
    return announce({
      write: { changes: { execution: { ...withDecision, inDoubt: { ...inDoubt, nextLookAt: now } } } },
      audit: [],
      events: [],
      effect: { kind: 'look' },
    });
  }
  if (d.exchangeId !== null)
    return announce(
      submitted({ ...record, execution: withDecision }, now, d.exchangeId, 'reconciled', {
        matchedBy: 'person',
        by: d.by,
      }),
    );
  // None of them is ours: they never count again, and the question becomes "not found".
  const excluded = [...inDoubt.excluded, ...(inDoubt.question?.candidates.map((c) => c.exchangeId) ?? [])];
  const next = {
    ...inDoubt,
    excluded,
    question: { askedAt: now, kind: 'not_found' as const, candidates: [] },
    nextLookAt: now,
  };
  return announce({
    write: { changes: { execution: { ...withDecision, inDoubt: next } } },
    audit: [],
    events: [],
    effect: { kind: 'look' },
  });
}

/**
 * A person's send again or mark as not sent, on the look made for it under this replica's lease.
 * Carried out only if the look proves nothing of ours could be there: found by its key, the
 * request is followed (the record is ours); a candidate the person was not shown, or a look that
 * could not read the exchange, withholds it and asks again, showing what appeared.
 */
function carryOut(
  record: ExecutedRequest,
  now: number,
  d: SettlementRecord,
  look: Look,
  inDoubt: InDoubt,
  facts: Facts,
): Step {
  const execution = {
    ...record.execution,
    inDoubt: { ...inDoubt, pendingDecision: null, looks: inDoubt.looks + 1, lastLookAt: now },
  };
  const shown = inDoubt.question?.candidates.map((c) => c.exchangeId) ?? [];
  const withheld = (reason: 'found' | 'appeared' | 'unreadable', step: Step, appeared: Candidate[] = []): Step => ({
    ...step,
    audit: [
      {
        type: 'execution.person_decision_withheld',
        actor: 'system',
        data: { action: d.action, by: d.by, reason, appeared: appeared.map((c) => c.exchangeId) },
      },
      ...step.audit,
    ],
    events: [{ type: 'execution.person_decision_withheld', decision: d, reason, appeared }, ...step.events],
    log: {
      level: 'warn',
      message: 'a settlement was not carried out: the fresh look showed something that may be ours',
      data: { requestId: record.id, action: d.action, reason },
    },
  });
  if (look.kind === 'found') {
    const found = { ...record, execution };
    if (record.kind === 'bank_account_removal')
      return withheld('found', { ...STOP, write: { changes: { execution } }, effect: { kind: 'claim_removal' } });
    return withheld('found', submitted(found, now, look.exchangeId, 'reconciled', { matchedBy: look.by ?? 'key' }));
  }
  const ask = (question: PersonQuestion): Step => ({
    write: {
      changes: {
        execution: {
          ...execution,
          inDoubt: { ...execution.inDoubt, question, nextLookAt: now + facts.config.personWaitLookIntervalMs },
        },
      },
    },
    audit: [
      {
        type: 'execution.needs_person',
        actor: 'system',
        data: {
          kind: question.kind,
          candidates: question.candidates.map((c) => ({
            exchangeId: c.exchangeId,
            createdAt: c.createdAt,
            status: c.status,
          })),
          searchWindow: inDoubt.window,
        },
      },
    ],
    events: [{ type: 'execution.needs_person', question }],
    effect: { kind: 'none' },
  });
  if (look.kind === 'inconclusive')
    return withheld(
      'unreadable',
      ask({
        askedAt: now,
        kind: inDoubt.question?.kind ?? 'not_found',
        candidates: inDoubt.question?.candidates ?? [],
      }),
    );
  const open = [...look.candidates, ...(look.late ?? [])].filter((c) => !inDoubt.excluded.includes(c.exchangeId));
  const appeared = open.filter((c) => !shown.includes(c.exchangeId));
  if (appeared.length > 0)
    return withheld('appeared', ask({ askedAt: now, kind: 'ambiguous', candidates: open }), appeared);
  const decided = { ...execution, decisions: [...execution.decisions, d] };
  const announce = (step: Step): Step => ({
    ...step,
    events: [{ type: 'execution.person_decided', decision: d }, ...step.events],
  });
  if (d.action === 'send_again')
    return announce(startAttempt({ ...record, execution: decided }, now, { key: facts.newKey(), quote: null }, true));
  if (d.action === 'choose' && d.exchangeId !== null)
    return announce(
      submitted({ ...record, execution: decided }, now, d.exchangeId, 'reconciled', { matchedBy: 'person', by: d.by }),
    );
  const what = record.kind === 'trade' ? 'placed' : 'sent';
  return announce(
    fail({ ...record, execution: { ...decided, inDoubt: null } }, now, {
      stage: 'reconcile',
      reason: `Marked as not ${what} by a person after checking the exchange: ${d.checked ?? ''}`,
      exchangeMessage: null,
    }),
  );
}

function withNotFound(step: Step, data: Record<string, unknown>): Step {
  return {
    ...step,
    audit: [{ type: 'execution.reconciled', actor: 'system', data: { found: false, ...data } }, ...step.audit],
    events: [{ type: 'execution.reconciled', found: false, exchangeId: null }, ...step.events],
  };
}

function inconclusiveLog(record: ExecutedRequest, look: Extract<Look, { kind: 'inconclusive' }>): Step['log'] {
  return look.cut
    ? {
        level: 'error',
        message:
          'cannot prove what is on the exchange for an unknown outcome; will look again, and a person should check',
        data: { requestId: record.id, error: look.message },
      }
    : {
        level: 'warn',
        message: 'could not read the exchange for an unknown outcome; will look again',
        data: { requestId: record.id, error: look.message },
      };
}

// ---- endings ---------------------------------------------------------------------------------

function submitted(
  record: ExecutedRequest,
  now: number,
  exchangeId: string,
  how: 'answer' | 'reconciled',
  detail: Record<string, unknown>,
): Step {
  const execution = record.execution;
  const endedAt = record.state === 'executing' ? now : (lastAttempt(record)?.endedAt ?? now);
  return {
    // The doubt is over: its question (and any buttons showing it) goes.
    write: {
      command: 'submitted',
      changes: {
        execution: {
          ...settleLastAttempt(execution, { outcome: how === 'answer' ? 'submitted' : 'reconciled', endedAt }),
          exchangeId,
          submittedAt: now,
          inDoubt: null,
        },
      },
    },
    audit: [
      {
        type: how === 'answer' ? 'exchange.answer' : 'execution.reconciled',
        actor: 'exchange',
        data: { outcome: 'submitted', exchangeId, ...detail },
      },
    ],
    events:
      how === 'answer'
        ? [{ type: 'execution.submitted', exchangeId }]
        : [
            { type: 'execution.reconciled', found: true, exchangeId },
            { type: 'execution.submitted', exchangeId },
          ],
    effect: { kind: 'none' },
  };
}

/**
 * No order for the key, the quote unusable: back to `approved` for a fresh quote, or failed once
 * the re-quotes are used up. A refusal in flight settles as quote_unusable; an unknown outcome
 * keeps its outcome, so the next order reuses its client_order_id (orderKeyFor).
 */
function requote(record: ExecutedRequest, now: number, message: string, facts: Facts): Step {
  const execution = record.execution;
  if (execution.unusableRequotes >= facts.config.maxUnusableRequotes) {
    return fail(record, now, {
      stage: 'quote',
      reason: `The quote could not be used (${message}); re-quoted ${execution.unusableRequotes} times without success.`,
      exchangeMessage: message,
    });
  }
  const settled =
    lastAttempt(record)?.outcome === 'in_flight'
      ? settleLastAttempt(execution, { outcome: 'quote_unusable', message, endedAt: now })
      : execution;
  return {
    write: {
      command: 'requote',
      changes: {
        execution: { ...settled, unusableRequotes: execution.unusableRequotes + 1, unknownSince: null, inDoubt: null },
      },
    },
    audit: [],
    events: [],
    effect: { kind: 'none' },
  };
}

function fail(record: ExecutedRequest, now: number, failure: Failure): Step {
  const execution = record.execution;
  const inFlight = lastAttempt(record)?.outcome === 'in_flight';
  return {
    write: {
      command: 'fail',
      changes: {
        failure,
        execution: inFlight
          ? settleLastAttempt(execution, {
              outcome: 'refused',
              message: failure.exchangeMessage ?? failure.reason,
              endedAt: now,
            })
          : execution,
      },
    },
    audit: [{ type: 'request.failed', actor: 'system', data: { ...failure } }],
    events: [{ type: 'execution.failed', ...failure }],
    effect: { kind: 'none' },
  };
}

/** A removal whose account is gone: done, unless another request holds the claim to having removed it. */
function claimed(record: ExecutedRequest, now: number, by: string, note: string): Step {
  if (by !== record.id)
    return fail(record, now, {
      stage: 'reconcile',
      reason: `The bank account was removed by request ${by}, not by this one.`,
      exchangeMessage: null,
    });
  return completedRemoval(record, now, note);
}

/** A bank account removal is done (its 204, or found gone and claimed for it). */
function completedRemoval(record: ExecutedRequest, now: number, note: string): Step {
  const inFlight = lastAttempt(record)?.outcome === 'in_flight';
  const execution = record.execution;
  return {
    write: {
      command: 'complete',
      changes: {
        execution: {
          ...settleLastAttempt(execution, {
            outcome: 'completed',
            endedAt: inFlight ? now : (lastAttempt(record)?.endedAt ?? now),
            message: note,
          }),
          inDoubt: null,
        },
      },
    },
    audit: [{ type: 'request.completed', actor: 'exchange', data: { note } }],
    events: [{ type: 'request.completed' }],
    effect: { kind: 'none' },
  };
}
