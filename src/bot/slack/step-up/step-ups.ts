/**
 * The approvers' second factor: enrollment (a secret shown once in a modal, confirmed by a first
 * code), the code asked on an approval, and an admin's reset. Every attempt is audited without the
 * code; secrets are sealed before they are stored and opened only to check a code, in memory.
 */
import {
  EMPTY_STEP_UP,
  judgeCode,
  type CodeVerdict,
  type ConfirmOutcome,
  type StepUpState,
} from '../../domain/step-up/attempts.js';
import type { StepUps } from '../kit/slack-context.js';
import { openSecret, sealSecret } from '../../domain/step-up/sealed-secret.js';
import { matchedStep, newTotpSecret, otpauthUri } from '../../domain/step-up/totp.js';
import type { StepUpStore } from '../../ports/step-up.js';
import type { AuditLog } from '../../ports/store.js';
import type { Clock } from '../../ports/clock.js';
import { stepUpKey, type StepUpResetEvent } from '../../ports/events.js';
import type { OutboxNotices } from '../../ports/notifier.js';
import { errorText } from '../../domain/error-text.js';
import type { Logger } from '../../ports/logger.js';

/** The issuer authenticator apps show: the Slack app's name (manifests/manifest.json, kept equal by a test). */
export const STEP_UP_ISSUER = 'Desk Bot';

export interface StepUpsDeps {
  store: StepUpStore;
  /** STEP_UP_ENCRYPTION_KEY; undefined: step-up is not configured. */
  key: Uint8Array | undefined;
  clock: Pick<Clock, 'now'>;
  audit: AuditLog;
  /** The durable outbox (engine.notices): a reset's DM to the person goes there, delivered until Slack takes it. */
  notices: OutboxNotices<StepUpResetEvent>;
  logger: Pick<Logger, 'error'>;
}

export function createStepUps({ store, key, clock, audit, notices, logger }: StepUpsDeps): StepUps {
  const sealingKey = (): Uint8Array => {
    if (!key) throw new Error('step-up is not configured: STEP_UP_ENCRYPTION_KEY is unset');
    return key;
  };
  /** The step `code` matches under the secret sealed in `sealed`, if any. */
  const stepOf = (userId: string, sealed: string, code: string, now: number) =>
    matchedStep(openSecret(sealingKey(), userId, sealed), code, now);

  return {
    configured: key !== undefined,
    async enrolled(userId) {
      return (await store.get(userId))?.enrollment !== undefined;
    },
    async begin(userId, account) {
      const secret = newTotpSecret();
      const sealed = sealSecret(sealingKey(), userId, secret);
      const at = clock.now();
      const replacing = await store.change(userId, (current) => {
        const state = current ?? EMPTY_STEP_UP;
        return { next: { ...state, pending: { sealed, at } }, result: state.enrollment !== undefined };
      });
      await audit.append({ type: 'step_up.enrollment_started', actor: userId, data: { replacing } });
      return { secret, uri: otpauthUri(STEP_UP_ISSUER, account, secret), replacing };
    },
    async confirm(userId, first, current) {
      const now = clock.now();
      const outcome = await store.change<ConfirmOutcome>(userId, (state) =>
        confirmChange(state ?? EMPTY_STEP_UP, now, first, current, (sealed, code) => stepOf(userId, sealed, code, now)),
      );
      await audit.append({
        type: outcome.ok ? 'step_up.enrolled' : 'step_up.enrollment_refused',
        actor: userId,
        data: outcome.ok ? {} : { field: outcome.field, ...verdictData(outcome.verdict) },
      });
      return outcome;
    },
    async check(userId, code, requestId) {
      const now = clock.now();
      const verdict = await store.change<CodeVerdict | { kind: 'not_enrolled' }>(userId, (state) => {
        if (state?.enrollment === undefined) return { result: { kind: 'not_enrolled' } };
        const judged = judgeCode(
          state,
          stepOrLocked(state, now, () => stepOf(userId, state.enrollment!.sealed, code, now)),
          now,
        );
        return { next: judged.next, result: judged.verdict };
      });
      await audit.append({ type: `step_up.${verdict.kind}`, actor: userId, requestId, data: verdictData(verdict) });
      return verdict;
    },
    async reset(adminId, userId) {
      const removed = await store.change(userId, (state) => ({
        next: state === undefined ? undefined : null,
        result: state?.enrollment !== undefined,
      }));
      // Only a reset that removed an enrollment tells the person: a redelivered command removes
      // nothing the second time, so it sends nothing. (Two stores, two writes: a crash between them
      // loses the DM, as it loses the audit line; the person then finds no enrollment on their next code.)
      const noticeQueued = removed && (await queueNotice(adminId, userId));
      await audit.append({
        type: 'step_up.reset',
        actor: adminId,
        data: { user: userId, hadEnrollment: removed, ...(removed ? { noticeQueued } : {}) },
      });
      return { removed, noticeQueued };
    },
  };

  /** The reset's DM into the durable outbox; false (logged) when the outbox could not be written. */
  async function queueNotice(adminId: string, userId: string): Promise<boolean> {
    try {
      await notices.append([
        { type: 'step_up.reset', requestId: stepUpKey(userId), at: clock.now(), user: userId, by: adminId },
      ]);
      return true;
    } catch (err) {
      logger.error('step-up reset: the notice to the person could not be written to the outbox', {
        user: userId,
        error: errorText(err),
      });
      return false;
    }
  }
}

/** While locked the secret is not even opened: the verdict is the lockout's. */
function stepOrLocked(state: StepUpState, now: number, step: () => number | undefined): number | undefined {
  return state.lockedUntil > now ? undefined : step();
}

/**
 * Confirming an enrollment: when replacing one, the current authenticator's code first (a stolen
 * Slack session cannot swap the factor); then the new secret's first code. Wrong codes of either
 * count towards the lockout; the pending secret is good for ENROLLMENT_TTL_MS.
 */
function confirmChange(
  state: StepUpState,
  now: number,
  first: string,
  current: string | undefined,
  stepOf: (sealed: string, code: string) => number | undefined,
): { next?: StepUpState; result: ConfirmOutcome } {
  const refused = (field: 'current' | 'first', verdict: CodeVerdict | { kind: 'expired' }, next?: StepUpState) => ({
    ...(next ? { next } : {}),
    result: { ok: false as const, field, verdict },
  });
  if (state.lockedUntil > now)
    return refused(current === undefined ? 'first' : 'current', { kind: 'locked', lockedUntil: state.lockedUntil });
  const pending = state.pending;
  // No pending secret, an old one, or a modal opened before an enrollment finished elsewhere.
  if (pending === undefined || now - pending.at > ENROLLMENT_TTL_MS || (state.enrollment && current === undefined))
    return refused('first', { kind: 'expired' });
  let after = state;
  if (state.enrollment !== undefined) {
    const judged = judgeCode(state, stepOf(state.enrollment.sealed, current!), now);
    if (judged.verdict.kind !== 'accepted') return refused('current', judged.verdict, judged.next);
    after = judged.next;
  }
  const step = stepOf(pending.sealed, first);
  if (step === undefined) {
    // Judged on the state before: the current code stays unused, so the person can retry with it.
    const wrong = judgeCode(state, undefined, now);
    return refused('first', wrong.verdict, wrong.next);
  }
  const { pending: _confirmed, ...rest } = after;
  return {
    next: {
      ...rest,
      enrollment: { sealed: pending.sealed, at: now },
      lastStep: Math.max(rest.lastStep, step),
      wrong: 0,
    },
    result: { ok: true },
  };
}

/** How long an enrollment modal's secret may be confirmed: longer than anyone takes to scan a code. */
export const ENROLLMENT_TTL_MS = 30 * 60_000;

/** What the audit keeps of a verdict: never the code, never the secret. */
function verdictData(verdict: CodeVerdict | { kind: 'not_enrolled' } | { kind: 'expired' }): Record<string, unknown> {
  switch (verdict.kind) {
    case 'accepted':
    case 'replayed':
      return { verdict: verdict.kind, step: verdict.step };
    case 'wrong':
      return {
        verdict: verdict.kind,
        wrong: verdict.wrong,
        ...(verdict.lockedUntil ? { lockedUntil: verdict.lockedUntil } : {}),
      };
    case 'locked':
      return { verdict: verdict.kind, lockedUntil: verdict.lockedUntil };
    default:
      return { verdict: verdict.kind };
  }
}
