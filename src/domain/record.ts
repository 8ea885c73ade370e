/**
 * The stored request record and the one way to change its state: `advance`, which applies a
 * command through the state machine and refuses anything illegal. Records are plain JSON (the
 * store writes them as they are) and are never mutated in place.
 */
import type { Policy } from './policy.js';
import { expiryFor, requiredApprovalsFor } from './policy.js';
import type { IndicativeQuote, RequestKind, Snapshot } from './request.js';
import { snapshotHash } from './request.js';
import { isFinalState, transition, type Command, type RequestState } from './state-machine.js';

export interface Approval {
  userId: string;
  at: number;
  /** The snapshot hash the approver saw; only approvals of the current hash count. */
  snapshotHash: string;
}

/** Who ended the request while it waited for people, and why (reject, cancel, expire). */
export interface Decision {
  by: string;
  at: number;
  reason: string | null;
}

/** `duplicate`: an order refused for its client_order_id, which means it exists (found later, or looked for). */
export type AttemptOutcome = 'in_flight' | 'submitted' | 'refused' | 'unknown' | 'duplicate' | 'quote_unusable' | 'reconciled' | 'completed';

/** One money-moving call, persisted (outcome `in_flight`) before it is sent. */
export interface Attempt {
  /** Idempotency key: client_order_id for orders, request_id for withdrawals; a retry after an unknown outcome reuses it. */
  key: string;
  startedAt: number;
  /** Trades: the quote this order executes. */
  quote: IndicativeQuote | null;
  outcome: AttemptOutcome;
  /** The exchange's message for a refusal or the error for an unknown outcome. */
  message: string | null;
  endedAt: number | null;
}

/** A record on the exchange that may be the one our send created (a withdrawal matched on its terms). */
export interface Candidate {
  exchangeId: string;
  /** The exchange's created_at, epoch ms. */
  createdAt: number;
  amount: string;
  status: string;
  /** request_id as the exchange listed it, when it did. */
  requestId: string | null;
  /** Where it goes: the saved address label or bank account, as the exchange shows it. */
  destination: string | null;
}

/** What the exchange could not settle and a person must: which candidate is ours, or was it sent at all. */
export interface PersonQuestion {
  askedAt: number;
  /** not_found: nothing appeared within the settle window; ambiguous: more than one candidate. */
  kind: 'not_found' | 'ambiguous';
  candidates: Candidate[];
}

/**
 * A money-moving call whose outcome is unknown. Everything the search needs is fixed here when the
 * outcome became unknown (the window never grows with the clock), and every next look is a time
 * in the record, so a restart resumes exactly where it was.
 */
export interface InDoubt {
  since: number;
  /** The exchange's created_at window a record of ours can be in: first send minus the clock offset allowed, last send plus the settle window. */
  window: { from: number; to: number };
  /** Until then the bot keeps looking on its own; after, a person is asked (withdrawals). */
  settleUntil: number;
  looks: number;
  lastLookAt: number | null;
  nextLookAt: number;
  question: PersonQuestion | null;
  /** Exchange ids a person said are not ours ("none of these"): never candidates again. */
  excluded: string[];
}

/** A person's decision on an execution the exchange could not settle (audited too). */
export interface PersonDecisionRecord {
  by: string;
  at: number;
  action: 'look_again' | 'send_again' | 'mark_not_sent' | 'choose';
  /** choose: the exchange id they said is ours, or null for "none of these". */
  exchangeId: string | null;
  /** What they checked on the exchange, in their words. */
  checked: string | null;
}

export interface Execution {
  /** When the last approval of the executed round came in. */
  approvedAt: number;
  /** Not before this time (a destination's withdrawal cooldown). */
  scheduledAt: number | null;
  scheduleReason: string | null;
  attempts: Attempt[];
  /** Re-quotes after an order was refused for an unusable quote (bounded). */
  unusableRequotes: number;
  exchangeId: string | null;
  submittedAt: number | null;
  unknownSince: number | null;
  /** Set while the outcome of the last attempt is unknown (state `unknown`). */
  inDoubt: InDoubt | null;
  /** The exchange's clock minus ours (ms, from its Date header) when the first attempt was sent; null if never measured. */
  clockOffsetMs: number | null;
  /** People's decisions on an unknown outcome, oldest first. */
  decisions: PersonDecisionRecord[];
  /** A pre-execution read that failed (nothing sent): try again at `nextAt`. */
  retry: { nextAt: number; failures: number } | null;
}

/** What polling last reported for a submitted request (persisted before it is notified). */
export interface RemoteStatus {
  status: string | null;
  travelRuleStatus: string | null;
  pendingReason: string | null;
  transactionHash: string | null;
  linkExplorer: string | null;
}

export type FailureStage = 'checks' | 'quote' | 'exchange' | 'final_status' | 'reconcile';

export interface Failure {
  stage: FailureStage;
  /** Plain sentence for people. */
  reason: string;
  /** The exchange's own words, kept verbatim, when it gave any. */
  exchangeMessage: string | null;
}

/** A finished approval round (a trade re-quoted beyond its limit starts a new one). */
export interface PastRound {
  round: number;
  snapshot: Snapshot;
  snapshotHash: string;
  approvals: Approval[];
  endedAt: number;
}

export interface DeskRequest {
  /** Short human-typable id, e.g. R7K2QX. */
  id: string;
  kind: RequestKind;
  requester: string;
  createdAt: number;
  updatedAt: number;
  state: RequestState;
  snapshot: Snapshot;
  snapshotHash: string;
  round: number;
  roundStartedAt: number;
  /** The current round expires at this time if still waiting for approvals. */
  expiresAt: number;
  requiredApprovals: number;
  /** Approvals of the current round. */
  approvals: Approval[];
  pastRounds: PastRound[];
  decision: Decision | null;
  execution: Execution | null;
  remote: RemoteStatus | null;
  /** What an order (or a fiat withdrawal) came to, once the exchange says. */
  result: RemoteResult | null;
  failure: Failure | null;
  pollingStoppedAt: number | null;
}

export const REMOTE_RESULT_FIELDS = ['receiptId', 'price', 'fee', 'feeCurrency', 'netAmount', 'receivedCurrency', 'cancelReason', 'bankReference'] as const;
export type RemoteResultField = (typeof REMOTE_RESULT_FIELDS)[number];
/** The exchange's values, verbatim strings; a field the exchange did not give is absent or null. */
export type RemoteResult = Partial<Record<RemoteResultField, string | null>>;

/** A new pending request with its hash, required count and deadline. */
export function newRequest(init: { id: string; requester: string; snapshot: Snapshot; now: number; policy: Policy }): DeskRequest {
  const { id, requester, snapshot, now, policy } = init;
  return {
    id,
    kind: snapshot.kind,
    requester,
    createdAt: now,
    updatedAt: now,
    state: 'pending',
    snapshot,
    snapshotHash: snapshotHash(id, requester, snapshot),
    round: 1,
    roundStartedAt: now,
    expiresAt: now + expiryFor(policy, snapshot.kind),
    requiredApprovals: requiredApprovalsFor(policy, snapshot),
    approvals: [],
    pastRounds: [],
    decision: null,
    execution: null,
    remote: null,
    result: null,
    failure: null,
    pollingStoppedAt: null,
  };
}

export type AdvanceResult = { ok: true; record: DeskRequest } | { ok: false; reason: 'illegal_transition'; message: string };

/** Fields a command may change besides the state; identity and creation are never changed. */
export type RecordChanges = Partial<Omit<DeskRequest, 'id' | 'kind' | 'requester' | 'createdAt' | 'state'>>;

/** Applies `command` if the state machine allows it, with the given field changes. */
export function advance(record: DeskRequest, command: Command, now: number, changes: RecordChanges = {}): AdvanceResult {
  const t = transition(record.state, command);
  if (!t.ok) return t;
  return { ok: true, record: { ...record, ...changes, state: t.next, updatedAt: now } };
}

/** Like `advance`, for callers that already checked the state: an illegal move here is a bug. */
export function mustAdvance(record: DeskRequest, command: Command, now: number, changes: RecordChanges = {}): DeskRequest {
  const result = advance(record, command, now, changes);
  if (!result.ok) throw new Error(`request ${record.id}: ${result.message}`);
  return result.record;
}

/** A new approval round for changed terms (trade re-quoted beyond its limit): approvals reset. */
export function newRound(record: DeskRequest, snapshot: Snapshot, now: number, policy: Policy): RecordChanges {
  return {
    pastRounds: [...record.pastRounds, { round: record.round, snapshot: record.snapshot, snapshotHash: record.snapshotHash, approvals: record.approvals, endedAt: now }],
    snapshot,
    snapshotHash: snapshotHash(record.id, record.requester, snapshot),
    round: record.round + 1,
    roundStartedAt: now,
    expiresAt: now + expiryFor(policy, snapshot.kind),
    requiredApprovals: Math.max(record.requiredApprovals, requiredApprovalsFor(policy, snapshot)),
    approvals: [],
    execution: null,
  };
}

/** The execution part of a record, started by the last approval. */
export function newExecution(approvedAt: number): Execution {
  return {
    approvedAt,
    scheduledAt: null,
    scheduleReason: null,
    attempts: [],
    unusableRequotes: 0,
    exchangeId: null,
    submittedAt: null,
    unknownSince: null,
    inDoubt: null,
    clockOffsetMs: null,
    decisions: [],
    retry: null,
  };
}

/** For the store: finished records move to history. */
export function isFinishedRequest(record: Pick<DeskRequest, 'state'>): boolean {
  return isFinalState(record.state);
}

/** The attempt currently in flight or last sent, if any. */
export function lastAttempt(record: DeskRequest): Attempt | undefined {
  return record.execution?.attempts.at(-1);
}

/** Replaces the last attempt (its outcome is settled). */
export function settleLastAttempt(execution: Execution, settled: Partial<Attempt>): Execution {
  const attempts = execution.attempts.slice();
  const last = attempts.pop();
  if (last === undefined) throw new Error('no attempt to settle');
  return { ...execution, attempts: [...attempts, { ...last, ...settled }] };
}

/** Every idempotency key ever sent for this request (reconcile matches any of them). */
export function attemptKeys(record: DeskRequest): string[] {
  return [...new Set(record.execution?.attempts.map((a) => a.key) ?? [])];
}

/**
 * The client_order_id for the next order of this round: the current one while any send of it had
 * an unknown outcome (a late first order then makes the exchange refuse the next as a duplicate
 * instead of trading twice); a new one only after the exchange definitively refused every send of it.
 */
export function orderKeyFor(record: DeskRequest, newKey: () => string): string {
  const attempts = record.execution?.attempts ?? [];
  const key = attempts.at(-1)?.key;
  if (key !== undefined && attempts.some((a) => a.key === key && (a.outcome === 'unknown' || a.outcome === 'duplicate' || a.outcome === 'in_flight'))) return key;
  return newKey();
}

/** When the current key was first sent: the start of the window a reconcile searches. */
export function firstSentAt(record: DeskRequest): number | undefined {
  const attempts = record.execution?.attempts ?? [];
  const key = attempts.at(-1)?.key;
  return attempts.find((a) => a.key === key)?.startedAt;
}
