/**
 * An approver's step-up state and the rules of a code attempt, pure: a code counts once (its time
 * step must be later than the last one accepted), five wrong codes in a row lock step-up for 15
 * minutes. The store applies `judgeCode` atomically per user (ports/step-up.ts), on every replica.
 */
export const MAX_WRONG_CODES = 5;
export const LOCKOUT_MS = 15 * 60_000;

export interface StepUpState {
  /** The confirmed enrollment: its secret sealed (sealed-secret.ts). */
  enrollment?: { sealed: string; at: number };
  /** The secret shown in an enrollment modal and not yet confirmed by a first code; each modal replaces it. */
  pending?: { sealed: string; at: number };
  /** The latest time step whose code was accepted (0: none): that code and every earlier one never count again. */
  lastStep: number;
  /** Wrong codes since the last accepted code or lockout. */
  wrong: number;
  /** Step-up refused until then (epoch ms; 0: not locked). */
  lockedUntil: number;
}

export const EMPTY_STEP_UP: StepUpState = { lastStep: 0, wrong: 0, lockedUntil: 0 };

/** A new enrollment's secret, for its modal only. */
export interface Enrollment {
  secret: string;
  uri: string;
  /** Already enrolled: confirming asks also for a code of the current authenticator. */
  replacing: boolean;
}

/** Confirming an enrollment: done, or which code was refused and why. */
export type ConfirmOutcome =
  { ok: true } | { ok: false; field: 'current' | 'first'; verdict: CodeVerdict | { kind: 'expired' } };

export type CodeVerdict =
  | { kind: 'accepted'; step: number }
  | { kind: 'wrong'; wrong: number; lockedUntil: number }
  | { kind: 'replayed'; step: number }
  | { kind: 'locked'; lockedUntil: number };

/**
 * The attempt's verdict and the state after it. `matched` is the time step the code matched
 * within the drift window (totp.ts matchedStep), or undefined for a wrong code.
 */
export function judgeCode(
  state: StepUpState,
  matched: number | undefined,
  now: number,
): { next: StepUpState; verdict: CodeVerdict } {
  if (state.lockedUntil > now) return { next: state, verdict: { kind: 'locked', lockedUntil: state.lockedUntil } };
  if (matched === undefined) {
    const wrong = state.wrong + 1;
    const locked = wrong >= MAX_WRONG_CODES;
    const lockedUntil = locked ? now + LOCKOUT_MS : 0;
    return {
      next: { ...state, wrong: locked ? 0 : wrong, lockedUntil },
      verdict: { kind: 'wrong', wrong, lockedUntil },
    };
  }
  // A code seen before (or an older one) proves nothing: someone may have read it over a shoulder.
  if (matched <= state.lastStep) return { next: state, verdict: { kind: 'replayed', step: matched } };
  return {
    next: { ...state, lastStep: matched, wrong: 0, lockedUntil: 0 },
    verdict: { kind: 'accepted', step: matched },
  };
}
