import { describe, expect, it } from 'vitest';
import {
  EMPTY_STEP_UP,
  judgeCode,
  LOCKOUT_MS,
  MAX_WRONG_CODES,
  type StepUpState,
} from '../../../../src/bot/domain/step-up/attempts.js';

const NOW = 1_000_000;

describe('judgeCode', () => {
  it('accepts a later step once, then refuses it and every earlier one as a replay', () => {
    const first = judgeCode(EMPTY_STEP_UP, 100, NOW);
    expect(first.verdict).toEqual({ kind: 'accepted', step: 100 });
    expect(first.next.lastStep).toBe(100);
    expect(judgeCode(first.next, 100, NOW).verdict).toEqual({ kind: 'replayed', step: 100 });
    expect(judgeCode(first.next, 99, NOW).verdict).toEqual({ kind: 'replayed', step: 99 });
    expect(judgeCode(first.next, 101, NOW).verdict).toEqual({ kind: 'accepted', step: 101 });
  });

  it('locks for 15 minutes at the fifth wrong code in a row, and a good code resets the count', () => {
    let state: StepUpState = EMPTY_STEP_UP;
    for (let i = 1; i < MAX_WRONG_CODES; i++) {
      const r = judgeCode(state, undefined, NOW);
      expect(r.verdict).toEqual({ kind: 'wrong', wrong: i, lockedUntil: 0 });
      state = r.next;
    }
    expect(judgeCode(state, 7, NOW).next.wrong).toBe(0);
    const fifth = judgeCode(state, undefined, NOW);
    expect(fifth.verdict).toEqual({ kind: 'wrong', wrong: MAX_WRONG_CODES, lockedUntil: NOW + LOCKOUT_MS });
    // Locked: even the right code is refused, and nothing changes.
    const locked = judgeCode(fifth.next, 8, NOW + LOCKOUT_MS - 1);
    expect(locked.verdict).toEqual({ kind: 'locked', lockedUntil: NOW + LOCKOUT_MS });
    expect(locked.next).toBe(fifth.next);
    expect(judgeCode(fifth.next, 8, NOW + LOCKOUT_MS).verdict).toEqual({ kind: 'accepted', step: 8 });
    // After the lockout the count starts again: one wrong code does not lock at once.
    expect(judgeCode(fifth.next, undefined, NOW + LOCKOUT_MS).verdict).toEqual({
      kind: 'wrong',
      wrong: 1,
      lockedUntil: 0,
    });
  });
});
