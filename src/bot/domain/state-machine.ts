// The life of a request as a state machine: (state, command) -> next state, or a refusal for any
// pair not in TRANSITIONS. `unknown` is a state, not a flag, so nothing but reconciling can follow a
// call whose outcome is unknown. Each move and why: ENGINE.md "The life of a request".

export const REQUEST_STATES = [
  'pending',
  'awaiting_reapproval',
  'approved',
  'executing',
  'unknown',
  'submitted',
  'completed',
  'failed',
  'rejected',
  'cancelled',
  'expired',
] as const;
export type RequestState = (typeof REQUEST_STATES)[number];

/** The states a request reaches only through its last approval: in each it carries its execution (record.ts). */
export const EXECUTED_STATES = [
  'approved',
  'executing',
  'unknown',
  'submitted',
  'completed',
  'failed',
] as const satisfies readonly RequestState[];
export type ExecutedState = (typeof EXECUTED_STATES)[number];

export function isExecutedState(state: RequestState): state is ExecutedState {
  return (EXECUTED_STATES as readonly RequestState[]).includes(state);
}

export const COMMANDS = [
  'approve',
  'approve_last',
  'reject',
  'cancel',
  'expire',
  'schedule',
  'ask_reapproval',
  'execute',
  'requote',
  'submitted',
  'outcome_unknown',
  'status_changed',
  'complete',
  'fail',
] as const;
export type Command = (typeof COMMANDS)[number];

const TRANSITIONS: Record<Command, Partial<Record<RequestState, RequestState>>> = {
  approve: { pending: 'pending', awaiting_reapproval: 'awaiting_reapproval' },
  approve_last: { pending: 'approved', awaiting_reapproval: 'approved' },
  reject: { pending: 'rejected', awaiting_reapproval: 'rejected' },
  cancel: { pending: 'cancelled', awaiting_reapproval: 'cancelled' },
  expire: { pending: 'expired', awaiting_reapproval: 'expired' },
  schedule: { approved: 'approved' },
  ask_reapproval: { approved: 'awaiting_reapproval' },
  execute: { approved: 'executing', unknown: 'executing' },
  requote: { executing: 'approved', unknown: 'approved' },
  submitted: { executing: 'submitted', unknown: 'submitted' },
  outcome_unknown: { executing: 'unknown', approved: 'unknown' },
  status_changed: { submitted: 'submitted' },
  complete: { executing: 'completed', unknown: 'completed', submitted: 'completed' },
  fail: { approved: 'failed', executing: 'failed', unknown: 'failed', submitted: 'failed' },
};

export type TransitionResult =
  { ok: true; next: RequestState } | { ok: false; reason: 'illegal_transition'; message: string };

/** The next state, or a refusal naming the illegal pair. */
export function transition(state: RequestState, command: Command): TransitionResult {
  const next = TRANSITIONS[command][state];
  if (next === undefined)
    return { ok: false, reason: 'illegal_transition', message: `cannot ${command} a request that is ${state}` };
  return { ok: true, next };
}

/** Final states: nothing happens to the request any more; the store moves it to history. */
export const FINAL_STATES: readonly RequestState[] = ['completed', 'failed', 'rejected', 'cancelled', 'expired'];

/** Waiting for people: approvals can be counted, and it can be rejected, cancelled or expire. */
export const DECIDABLE_STATES: readonly RequestState[] = ['pending', 'awaiting_reapproval'];

export function isFinalState(state: RequestState): boolean {
  return FINAL_STATES.includes(state);
}

export function awaitsVerdict(state: RequestState): boolean {
  return DECIDABLE_STATES.includes(state);
}
