import { describe, expect, it } from 'vitest';
import {
  COMMANDS,
  REQUEST_STATES,
  isFinalState,
  transition,
  type Command,
  type RequestState,
} from '../../../src/bot/domain/state-machine.js';

// The whole table, written out by hand: every (state, command) pair not listed must be refused.
const ALLOWED: Record<RequestState, Partial<Record<Command, RequestState>>> = {
  pending: { approve: 'pending', approve_last: 'approved', reject: 'rejected', cancel: 'cancelled', expire: 'expired' },
  awaiting_reapproval: {
    approve: 'awaiting_reapproval',
    approve_last: 'approved',
    reject: 'rejected',
    cancel: 'cancelled',
    expire: 'expired',
  },
  approved: {
    schedule: 'approved',
    ask_reapproval: 'awaiting_reapproval',
    execute: 'executing',
    fail: 'failed',
    outcome_unknown: 'unknown',
  },
  executing: {
    requote: 'approved',
    submitted: 'submitted',
    outcome_unknown: 'unknown',
    complete: 'completed',
    fail: 'failed',
  },
  unknown: { execute: 'executing', requote: 'approved', submitted: 'submitted', complete: 'completed', fail: 'failed' },
  submitted: { status_changed: 'submitted', complete: 'completed', fail: 'failed' },
  completed: {},
  failed: {},
  rejected: {},
  cancelled: {},
  expired: {},
};

describe('state machine', () => {
  const pairs = REQUEST_STATES.flatMap((state) => COMMANDS.map((command) => [state, command] as const));

  it('covers every state and command pair', () => {
    expect(pairs).toHaveLength(11 * 14);
  });

  it.each(pairs)('%s + %s', (state, command) => {
    const expected = ALLOWED[state][command];
    const result = transition(state, command);
    if (expected === undefined) {
      expect(result).toEqual({
        ok: false,
        reason: 'illegal_transition',
        message: `cannot ${command} a request that is ${state}`,
      });
    } else {
      expect(result).toEqual({ ok: true, next: expected });
    }
  });

  it('final states accept no command at all', () => {
    for (const state of REQUEST_STATES.filter(isFinalState)) {
      expect(COMMANDS.filter((c) => transition(state, c).ok)).toEqual([]);
    }
    expect(REQUEST_STATES.filter(isFinalState).sort()).toEqual([
      'cancelled',
      'completed',
      'expired',
      'failed',
      'rejected',
    ]);
  });
});
