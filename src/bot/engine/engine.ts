/**
 * The approval engine: the commands a driver (Slack, tests) sends, over the ports it is built
 * with. Each command lives in its own file; this one only wires them.
 *
 * @example
 * const engine = createEngine({ exchange, requests, kv, audit, notifier, clock, ids, policy });
 * await engine.start();                       // reconcile, resume
 * const r = await engine.request('U1', { kind: 'trade', symbol: 'BTC-USD', side: 'buy', quantity: '1000',
 *   paymentMethod: 'user_balance', limit: { slippageBps: 50 } });
 * await engine.approve(r.request.id, 'U2', r.request.snapshotHash);
 * setInterval(() => void engine.tick(), 1000);
 */
import { createRequestReads, type DeliveryProblem, type RequestReads } from './request-reads.js';
import { runScheduled } from './run-loop.js';
import type { Job } from './run-loop.js';
import { errorText } from '../domain/error-text.js';
import type { IndicativeQuote } from '../domain/request.js';
import { approve, type ApproveResult } from './approval/approve.js';
import type { StepUpProof } from '../domain/step-up/required.js';
import { cancel } from './approval/cancel.js';
import { createContext, type EngineDeps } from './context.js';
import type { QuoteTerms } from '../ports/exchange-port.js';
import { takeQuote } from './execution/take-quote.js';
import { recover, type RecoverySummary } from './rounds/recover.js';
import { reject, type VerdictResult } from './approval/reject.js';
import { createRequest, type RequestInput, type RequestResult } from './approval/make-request.js';
import { tick, type TickSummary } from './rounds/tick.js';
import type { Settlement, SettlementResult } from './execution/settlement.js';
import { settleByPerson } from './execution/person.js';
import { NoticeQueue } from './notices/notice-queue.js';
import { createDelegations, type Delegations } from './delegation/delegations.js';
import { recountFor } from './approval/recount.js';
import type { OutboxNotices } from '../ports/notifier.js';

export type { DeliveryProblem, Settlement, SettlementResult };
export type {
  ApproveResult,
  VerdictResult,
  EngineDeps,
  QuoteTerms,
  RecoverySummary,
  RequestInput,
  RequestResult,
  TickSummary,
};

/** The commands, and the reads (request-reads.ts) over the same stores. */
export interface Engine extends RequestReads {
  /** A requester asks; the engine reads the exchange and freezes the snapshot approvers will see. */
  request(userId: string, input: RequestInput): Promise<RequestResult>;
  /** Counts an approval of the snapshot the approver saw (its hash); the last one starts execution. */
  approve(requestId: string, userId: string, seenSnapshotHash: string, stepUp?: StepUpProof): Promise<ApproveResult>;
  /** Any approver, with a reason, while the request waits for approvals. */
  reject(requestId: string, userId: string, reason: string): Promise<VerdictResult>;
  /** The requester, while the request waits for approvals. */
  cancel(requestId: string, userId: string): Promise<VerdictResult>;
  /**
   * A person settles an unknown outcome the exchange could not (execution/settlement.ts):
   * look again, send again, mark as not sent, or say which candidate is ours. Audited.
   */
  settle(requestId: string, userId: string, settlement: Settlement): Promise<SettlementResult>;
  /**
   * Expiries, looks, scheduled executions, polling. Overlapping calls share one run. Background
   * work: on a follower (ports/leadership.ts) it does nothing and says so with zero counts.
   */
  tick(): Promise<TickSummary>;
  /**
   * Recovery at start-up: call once, before the first tick, on the leader (compose.ts does). A
   * replica that becomes leader later recovers in `run` before its first tick.
   */
  start(): Promise<RecoverySummary>;
  /** An indicative quote for a form (it supersedes older quotes on the same terms, like any quote). */
  indicativeQuote(terms: QuoteTerms): Promise<IndicativeQuote>;
  /** Notices about no request (compliance's, step-up resets), into the requests' outbox and delivered the same way (notice-queue.ts). */
  readonly notices: OutboxNotices;
  /** Approvers' delegates for a period (`/desk delegate`), in the shared store (delegation/). */
  readonly delegations: Delegations;
  /** Resolves when started executions and queued notices are done (tests, shutdown). */
  idle(): Promise<void>;
  /**
   * The engine's job for the scheduler (run-loop.ts): while this replica is leader, ticks every
   * `intervalMs` of the engine clock; each time it becomes leader, first recovers what the last
   * leader left (unless `start` already did in this leadership), then ticks at once.
   */
  job(intervalMs?: number, track?: TrackRound): Job;
  /** Runs `job` alone on the scheduler until `signal` aborts (tests; runBot schedules it with the others). */
  run(signal: AbortSignal, intervalMs?: number, track?: TrackRound): Promise<void>;
}

export function createEngine(deps: EngineDeps): Engine {
  const ctx = createContext(deps, (o) => new NoticeQueue(o.outbox, o.notifier, o.clock, o.logger, o.leadership));
  let ticking: Promise<TickSummary> | undefined;
  // Whether recovery ran since this replica last became leader: a new leader must settle what the
  // old one left in flight before it executes or polls anything.
  let recovered = false;
  ctx.leadership.onChange((role) => {
    if (role === 'follower') recovered = false;
  });
  const start = async () => {
    const summary = await recover(ctx);
    recovered = true;
    return summary;
  };
  const engine: Engine = {
    request: (userId, input) => createRequest(ctx, userId, input),
    approve: (requestId, userId, hash, stepUp) => approve(ctx, requestId, userId, hash, stepUp),
    reject: (requestId, userId, reason) => reject(ctx, requestId, userId, reason),
    cancel: (requestId, userId) => cancel(ctx, requestId, userId),
    settle: (requestId, userId, settlement) => settleByPerson(ctx, requestId, userId, settlement),
    tick: () =>
      ctx.leadership.isLeader()
        ? (ticking ??= tick(ctx).finally(() => (ticking = undefined)))
        : Promise.resolve(NOTHING_TICKED),
    start,
    indicativeQuote: (terms) => takeQuote(ctx, terms),
    notices: { append: (events) => ctx.notices.append(events) },
    delegations: createDelegations(ctx, (approver) => recountFor(ctx, approver)),
    ...createRequestReads({ requests: ctx.requests, policy: ctx.policy, clock: ctx.clock }),
    idle: async () => {
      await ctx.background.idle();
      await ctx.notices.drained();
    },
    job: (intervalMs = 1_000, track = (round) => round) => ({
      what: 'tick',
      everyMs: intervalMs,
      on: 'leader',
      first: async () => {
        if (recovered) return;
        ctx.logger.info('leader: recovering what was in flight, then ticking');
        await start().catch((err: unknown) =>
          ctx.logger.error('recovery failed; the ticks reconcile what it missed', { error: errorText(err) }),
        );
      },
      round: track(() => engine.tick()),
    }),
    run: (signal, intervalMs, track) => runScheduled(ctx, signal, [engine.job(intervalMs, track)]),
  };
  return engine;
}

/** Wraps each tick, for whoever watches the rounds (the operations side's polling lag). */
export type TrackRound = (round: () => Promise<TickSummary>) => () => Promise<TickSummary>;

const NOTHING_TICKED: TickSummary = { expired: 0, driven: 0, polled: 0, calls: 0, changed: 0, stopped: 0 };
