// The stored request record and the one way to change its state, `advance`: a command through the
// state machine, anything illegal refused. Records are plain JSON, never mutated in place.
import type { Policy } from './policy.js';
import { countingHash, expiryFor, requiredApprovalsFor, requirementOf } from './policy.js';
import type { z } from 'zod';
import type {
  approvalSchema,
  attemptOutcomeSchema,
  attemptSchema,
  candidateSchema,
  verdictSchema,
  executionSchema,
  failureSchema,
  inDoubtSchema,
  leaseSchema,
  pastRoundSchema,
  settlementRecordSchema,
  personQuestionSchema,
  remoteResultSchema,
  remoteStatusSchema,
  RequestRecord,
  ExecutedRequest,
} from './record-schema.js';
import type { Snapshot } from './request.js';
import { snapshotHash } from './request.js';
import { isExecutedState, isFinalState, transition, type Command } from './state-machine.js';

/** The record's parts, each inferred from its schema (record-schema.ts, where the fields are described). */
export type Approval = z.infer<typeof approvalSchema>;
export type Verdict = z.infer<typeof verdictSchema>;
export type AttemptOutcome = z.infer<typeof attemptOutcomeSchema>;
export type Attempt = z.infer<typeof attemptSchema>;
export type Candidate = z.infer<typeof candidateSchema>;
export type PersonQuestion = z.infer<typeof personQuestionSchema>;
export type InDoubt = z.infer<typeof inDoubtSchema>;
export type SettlementRecord = z.infer<typeof settlementRecordSchema>;
export type Execution = z.infer<typeof executionSchema>;
export type Lease = z.infer<typeof leaseSchema>;
export type RemoteStatus = z.infer<typeof remoteStatusSchema>;
export type RemoteResult = z.infer<typeof remoteResultSchema>;
export type Failure = z.infer<typeof failureSchema>;
export type FailureStage = Failure['stage'];
export type PastRound = z.infer<typeof pastRoundSchema>;
export type { RequestRecord, ExecutedRequest, WaitingRequest } from './record-schema.js';

/** Approved or past it: the record carries its execution. */
export function isExecuted(record: RequestRecord): record is ExecutedRequest {
  return isExecutedState(record.state);
}

/** A new pending request with its hash, required count and deadline. */
export function newRequest(init: {
  id: string;
  requester: string;
  snapshot: Snapshot;
  now: number;
  policy: Policy;
}): RequestRecord {
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
    expiresAt: now + expiryFor(policy, snapshot.kind, snapshot),
    requiredApprovals: requiredApprovalsFor(policy, snapshot),
    approvals: [],
    tally: requirementOf({ snapshot, requiredApprovals: requiredApprovalsFor(policy, snapshot) }).map((r) => ({
      ...r,
      by: [],
    })),
    talliedWith: countingHash(policy),
    pastRounds: [],
    decision: null,
    execution: null,
    remote: null,
    result: null,
    failure: null,
    pollingStoppedAt: null,
  };
}

export type AdvanceResult =
  { ok: true; record: RequestRecord } | { ok: false; reason: 'illegal_transition'; message: string };

/** Fields a command may change besides the state; identity and creation are never changed. */
export type RecordChanges = Partial<Omit<RequestRecord, 'id' | 'kind' | 'requester' | 'createdAt' | 'state'>>;

/** Applies `command` if the state machine allows it, with the given field changes. */
export function advance(
  record: RequestRecord,
  command: Command,
  now: number,
  changes: RecordChanges = {},
): AdvanceResult {
  const t = transition(record.state, command);
  if (!t.ok) return t;
  const next = { ...record, ...changes, state: t.next, updatedAt: now };
  if (isExecutedState(next.state) && next.execution === null)
    return {
      ok: false,
      reason: 'illegal_transition',
      message: `${record.state} --${command}--> ${next.state} without an execution`,
    };
  return { ok: true, record: next as RequestRecord };
}

/** Fields of the same state changed (no command); an approved or later request keeps its execution. */
export function changeFields(record: RequestRecord, now: number, changes: RecordChanges): RequestRecord {
  const next = { ...record, ...changes, updatedAt: now };
  if (isExecutedState(next.state) && next.execution === null)
    throw new Error(`request ${record.id}: a ${record.state} request cannot lose its execution`);
  return next as RequestRecord;
}

/** Like `advance`, for callers that already checked the state: an illegal move here is a bug. */
export function mustAdvance(
  record: RequestRecord,
  command: Command,
  now: number,
  changes: RecordChanges = {},
): RequestRecord {
  const result = advance(record, command, now, changes);
  if (!result.ok) throw new Error(`request ${record.id}: ${result.message}`);
  return result.record;
}

/** A new approval round for changed terms (trade re-quoted beyond its limit): approvals reset. */
export function newRound(record: RequestRecord, snapshot: Snapshot, now: number, policy: Policy): RecordChanges {
  return {
    pastRounds: [
      ...record.pastRounds,
      {
        round: record.round,
        snapshot: record.snapshot,
        snapshotHash: record.snapshotHash,
        approvals: record.approvals,
        endedAt: now,
      },
    ],
    snapshot,
    snapshotHash: snapshotHash(record.id, record.requester, snapshot),
    round: record.round + 1,
    roundStartedAt: now,
    expiresAt: now + expiryFor(policy, snapshot.kind, snapshot),
    requiredApprovals: Math.max(record.requiredApprovals, requiredApprovalsFor(policy, snapshot)),
    approvals: [],
    tally: requirementOf({ snapshot, requiredApprovals: record.requiredApprovals }).map((r) => ({ ...r, by: [] })),
    // An order whose outcome is unknown may still appear: its sends (and so its client_order_id) go with the new round.
    execution: inDoubtKey(record) === undefined ? null : record.execution,
  };
}

/** `carried`: an earlier round's execution whose order is in doubt; its sends are kept so the next order reuses their client_order_id. */
export function newExecution(approvedAt: number, carried: Execution | null = null): Execution {
  return {
    approvedAt,
    scheduledAt: null,
    scheduleReason: null,
    attempts: carried?.attempts ?? [],
    unusableRequotes: 0,
    exchangeId: null,
    submittedAt: null,
    unknownSince: null,
    inDoubt: null,
    clockOffsetMs: carried?.clockOffsetMs ?? null,
    decisions: carried?.decisions ?? [],
    retry: null,
    lease: null,
  };
}

/** For the store: finished records move to history. */
export function isFinishedRequest(record: Pick<RequestRecord, 'state'>): boolean {
  return isFinalState(record.state);
}

/** The attempt currently in flight or last sent, if any. */
export function lastAttempt(record: RequestRecord): Attempt | undefined {
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
export function attemptKeys(record: RequestRecord): string[] {
  return [...new Set(record.execution?.attempts.map((a) => a.key) ?? [])];
}

/**
 * Keep the current client_order_id while any send of it had an unknown outcome, so a late first order
 * makes the exchange refuse the next as a duplicate; a new one only after every send was refused.
 */
export function orderKeyFor(record: RequestRecord, newKey: () => string): string {
  return inDoubtKey(record) ?? newKey();
}

/** The last send's key while an order of it may still appear; `except`: last sends to leave out (1 for the one being read). */
export function inDoubtKey(record: RequestRecord, except = 0): string | undefined {
  const attempts = record.execution?.attempts ?? [];
  const key = attempts.at(-1)?.key;
  const earlier = attempts.slice(0, attempts.length - except);
  return key !== undefined &&
    earlier.some(
      (a) => a.key === key && (a.outcome === 'unknown' || a.outcome === 'duplicate' || a.outcome === 'in_flight'),
    )
    ? key
    : undefined;
}

/** When the current key was first sent: the start of the window a look searches. */
export function firstSentAt(record: RequestRecord): number | undefined {
  const attempts = record.execution?.attempts ?? [];
  const key = attempts.at(-1)?.key;
  return attempts.find((a) => a.key === key)?.startedAt;
}
