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
import { createDeskReads, type DeskReads } from './desk-reads.js';
import { runEvery } from './run-loop.js';
import type { IndicativeQuote } from '../domain/request.js';
import { approve, type ApproveResult } from './deciding/approve.js';
import { cancel } from './deciding/cancel.js';
import { createContext, type EngineDeps } from './context.js';
import type { QuoteTerms } from '../ports/exchange-port.js';
import { takeQuote } from './executing/take-quote.js';
import { recover, type RecoverySummary } from './recover.js';
import { reject, type DecisionResult } from './deciding/reject.js';
import { createRequest, type RequestInput, type RequestResult } from './deciding/make-request.js';
import { tick, type TickSummary } from './tick.js';
import type { PersonDecision, PersonDecisionResult } from './executing/person-decision.js';
import { decideByPerson } from './executing/person.js';
import type { DeliveryProblem } from './notices/outbox-delivery.js';

export type { DeliveryProblem, PersonDecision, PersonDecisionResult };
export type { ApproveResult, DecisionResult, EngineDeps, QuoteTerms, RecoverySummary, RequestInput, RequestResult, TickSummary };

/** The commands, and the reads (desk-reads.ts) over the same stores. */
export interface Engine extends DeskReads {
  /** A requester asks; the engine reads the exchange and freezes the snapshot approvers will see. */
  request(userId: string, input: RequestInput): Promise<RequestResult>;
  /** Counts an approval of the snapshot the approver saw (its hash); the last one starts execution. */
  approve(requestId: string, userId: string, seenSnapshotHash: string): Promise<ApproveResult>;
  /** Any approver, with a reason, while the request waits for approvals. */
  reject(requestId: string, userId: string, reason: string): Promise<DecisionResult>;
  /** The requester, while the request waits for approvals. */
  cancel(requestId: string, userId: string): Promise<DecisionResult>;
  /**
   * A person settles an unknown outcome the exchange could not (executing/person-decision.ts):
   * look again, send again, mark as not sent, or say which candidate is ours. Audited.
   */
  decide(requestId: string, userId: string, decision: PersonDecision): Promise<PersonDecisionResult>;
  /** Expiries, reconciles, scheduled executions, polling. Overlapping calls share one run. */
  tick(): Promise<TickSummary>;
  /** Recovery at start-up: call once, before the first tick. */
  start(): Promise<RecoverySummary>;
  /** An indicative quote for a form (it supersedes older quotes on the same terms, like any quote). */
  previewQuote(terms: QuoteTerms): Promise<IndicativeQuote>;
  /** Resolves when started executions and queued notices are done (tests, shutdown). */
  idle(): Promise<void>;
  /** Ticks every `intervalMs` of the engine clock until `signal` aborts. */
  run(signal: AbortSignal, intervalMs?: number): Promise<void>;
}

export function createEngine(deps: EngineDeps): Engine {
  const ctx = createContext(deps);
  let ticking: Promise<TickSummary> | undefined;
  const engine: Engine = {
    request: (userId, input) => createRequest(ctx, userId, input),
    approve: (requestId, userId, hash) => approve(ctx, requestId, userId, hash),
    reject: (requestId, userId, reason) => reject(ctx, requestId, userId, reason),
    cancel: (requestId, userId) => cancel(ctx, requestId, userId),
    decide: (requestId, userId, decision) => decideByPerson(ctx, requestId, userId, decision),
    tick: () => (ticking ??= tick(ctx).finally(() => (ticking = undefined))),
    start: () => recover(ctx),
    previewQuote: (terms) => takeQuote(ctx, terms),
    ...createDeskReads({ requests: ctx.requests, policy: ctx.policy, clock: ctx.clock }),
    idle: async () => {
      await ctx.background.idle();
      await ctx.notices.drained();
    },
    run: (signal, intervalMs = 1_000) => runEvery({ signal, clock: ctx.clock, intervalMs, what: 'tick', logger: ctx.logger }, () => engine.tick()),
  };
  return engine;
}
