/**
 * An admin's reset (step-ups.ts): the person's DM is queued in the outbox only when an enrollment was
 * removed, once however often the command comes; an outbox that cannot be written is said (logged,
 * audited, the admin told by the caller), never swallowed.
 */
import { describe, expect, it } from 'vitest';
import { totpCode } from '../../../../src/bot/domain/step-up/totp.js';
import type { StepUpResetEvent } from '../../../../src/bot/ports/events.js';
import { createStepUps } from '../../../../src/bot/slack/step-up/step-ups.js';
import { memoryAuditLog, memoryKv } from '../../../../src/bot/store/memory.js';
import { keyValueStepUpStore } from '../../../../src/bot/store/step-up.js';

const KEY = new Uint8Array(32).fill(7);
const NOW = Date.parse('2026-11-01T00:00:00Z');
const USER = 'U0APP0001';
const ADMIN = 'U0ADM0001';

function desk(append: (events: StepUpResetEvent[]) => Promise<void>) {
  const audit = memoryAuditLog();
  const errors: string[] = [];
  const stepUps = createStepUps({
    store: keyValueStepUpStore(memoryKv()),
    key: KEY,
    clock: { now: () => NOW },
    audit,
    notices: { append },
    logger: { error: (message) => void errors.push(message) },
  });
  return { stepUps, audit, errors };
}

async function enroll(stepUps: ReturnType<typeof desk>['stepUps']) {
  const { secret } = await stepUps.begin(USER, 'ana');
  expect(await stepUps.confirm(USER, totpCode(secret, NOW), undefined)).toEqual({ ok: true });
}

describe('step-up reset', () => {
  it('queues one DM for a reset that removed an enrollment, none for one that removed nothing', async () => {
    const queued: StepUpResetEvent[] = [];
    const { stepUps, audit } = desk(async (events) => void queued.push(...events));
    expect(await stepUps.reset(ADMIN, USER)).toEqual({ removed: false, noticeQueued: false });
    await enroll(stepUps);
    expect(await stepUps.reset(ADMIN, USER)).toEqual({ removed: true, noticeQueued: true });
    expect(await stepUps.reset(ADMIN, USER)).toEqual({ removed: false, noticeQueued: false });
    expect(queued).toEqual([{ type: 'step_up.reset', requestId: `step-up:${USER}`, at: NOW, user: USER, by: ADMIN }]);
    expect(audit.entries.filter((e) => e.type === 'step_up.reset').map((e) => e.data)).toEqual([
      { user: USER, hadEnrollment: false },
      { user: USER, hadEnrollment: true, noticeQueued: true },
      { user: USER, hadEnrollment: false },
    ]);
  });

  it('an outbox that cannot be written: the enrollment is still removed, and the failure is logged and audited', async () => {
    const { stepUps, audit, errors } = desk(async () => {
      throw new Error('disk full');
    });
    await enroll(stepUps);
    expect(await stepUps.reset(ADMIN, USER)).toEqual({ removed: true, noticeQueued: false });
    expect(await stepUps.enrolled(USER)).toBe(false);
    expect(errors).toEqual(['step-up reset: the notice to the person could not be written to the outbox']);
    expect(audit.entries.find((e) => e.type === 'step_up.reset')?.data).toEqual({
      user: USER,
      hadEnrollment: true,
      noticeQueued: false,
    });
  });
});
