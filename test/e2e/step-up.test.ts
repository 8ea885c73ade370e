/**
 * Step-up approvals end to end (issue 24): enrollment through Bolt with the secret shown in the
 * modal only, the code asked on an approval that needs it (refused without one, with a wrong or
 * replayed one, counted with a valid one), the lockout on the injected clock, and an admin's reset
 * (its DM to the person through the durable outbox, delivered after Slack refused it).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACTION, CALLBACK, INPUT } from '../../src/bot/slack/kit/slack-ids.js';
import { totpCode } from '../../src/bot/domain/step-up/totp.js';
import { LOCKOUT_MS, MAX_WRONG_CODES } from '../../src/bot/domain/step-up/attempts.js';
import { stateOf } from '../bot/slack/support/signed-requests.js';
import { approvalMessage, buttonValue, dmsTo, startTestBot, USERS, type TestBot } from './support/test-bot.js';
import { click, requestCrypto, submitView } from './support/flows.js';
import { LeadershipState } from '../../src/bot/ports/leadership.js';

const KEY = randomBytes(32).toString('hex');
const ADMIN = 'U0ADM0001';
const STEP_MS = 30_000;

let d: TestBot;
beforeEach(async () => {
  d = await startTestBot({
    seed: 'slack-e2e-step-up',
    env: { STEP_UP_AT_LEAST: '1', STEP_UP_ENCRYPTION_KEY: KEY, ADMIN_USER_IDS: ADMIN },
  });
});
afterEach(async () => {
  await d.stop();
});

const now = () => d.sandbox.clock.now();
/** A code of `secret` that is not the current one nor one step either side. */
const wrongCode = (secret: string) => {
  const near = [-1, 0, 1].map((k) => totpCode(secret, now() + k * STEP_MS));
  for (let n = 0; ; n++) {
    const c = String(n).padStart(6, '0');
    if (!near.includes(c)) return c;
  }
};
const codeValues = (code: string, current?: string) => ({
  [INPUT.stepUpCode]: { [INPUT.stepUpCode]: stateOf.text(code) },
  ...(current === undefined ? {} : { [INPUT.stepUpCurrentCode]: { [INPUT.stepUpCurrentCode]: stateOf.text(current) } }),
});
const viewJson = (c: { args: Record<string, unknown> }) => JSON.stringify(c.args.view);

/** `/desk 2fa` as `userId`: the modal opens at once, then shows the URI; returns its id and the secret in it. */
async function openEnrollment(userId: string): Promise<{ viewId: string; secret: string; view: string }> {
  const mark = d.fake.calls.length;
  const res = await d.slack.command({ command: '/desk', text: '2fa', userId, responseUrl: d.fake.responseUrl('2fa') });
  expect(res.status).toBe(200);
  const opened = await d.fake.waitFor((c) => c.method === 'views.open', { after: mark });
  const viewId = (opened.response.view as { id: string }).id;
  // Opened before any secret exists: the first view holds none.
  expect(viewJson(opened)).not.toContain('otpauth://');
  const filled = await d.fake.waitFor(
    (c) => c.method === 'views.update' && c.args.view_id === viewId && viewJson(c).includes('otpauth://'),
    { after: mark },
  );
  const view = viewJson(filled);
  // As Slack shows it: mrkdwn writes & as &amp;.
  const uri = /otpauth:\/\/totp\/[^`"\\]+/.exec(view)![0].replaceAll('&amp;', '&');
  const secret = new URL(uri).searchParams.get('secret')!;
  expect(new URL(uri).searchParams.get('issuer')).toBe('Desk Bot');
  return { viewId, secret, view };
}

async function enroll(userId: string): Promise<string> {
  const { viewId, secret } = await openEnrollment(userId);
  const { res } = await submitView(d, CALLBACK.stepUpEnroll, viewId, codeValues(totpCode(secret, now())), { userId });
  expect(res.json).toMatchObject({ response_action: 'update' });
  return secret;
}

/** Approve on the request's message as `userId`: the code modal (or a notice) it opened. */
async function clickApprove(requestId: string, userId: string) {
  const msg = approvalMessage(d.fake, requestId);
  const mark = d.fake.calls.length;
  await click(d, userId, ACTION.approve, buttonValue(msg.blocks, ACTION.approve)!, msg.ts);
  const opened = await d.fake.waitFor((c) => c.method === 'views.open', { after: mark });
  const viewId = (opened.response.view as { id: string }).id;
  const view = d.fake.viewById(viewId)!;
  return { viewId, view, json: JSON.stringify(view), meta: String(view.private_metadata ?? '') };
}

async function submitCode(viewId: string, meta: string, userId: string, code: string) {
  return submitView(d, CALLBACK.stepUpApprove, viewId, codeValues(code), { userId, privateMetadata: meta });
}

const approvalsOf = async (requestId: string) => (await d.bot.engine.get(requestId))!.approvals.map((a) => a.userId);

describe('enrollment', () => {
  it('shows the secret in the modal only, counts only after a valid first code, and keeps it sealed at rest', async () => {
    const { viewId, secret } = await openEnrollment(USERS.approver1);
    expect(await d.bot.slack.context.deps.stepUps.enrolled(USERS.approver1)).toBe(false);

    const wrong = await submitView(d, CALLBACK.stepUpEnroll, viewId, codeValues(wrongCode(secret)), {
      userId: USERS.approver1,
    });
    expect(wrong.res.json).toMatchObject({
      response_action: 'errors',
      errors: { [INPUT.stepUpCode]: expect.stringContaining('Wrong code') },
    });
    expect(await d.bot.slack.context.deps.stepUps.enrolled(USERS.approver1)).toBe(false);
    const malformed = await submitView(d, CALLBACK.stepUpEnroll, viewId, codeValues('12345'), {
      userId: USERS.approver1,
    });
    expect(malformed.res.json).toMatchObject({ response_action: 'errors' });

    const ok = await submitView(d, CALLBACK.stepUpEnroll, viewId, codeValues(totpCode(secret, now())), {
      userId: USERS.approver1,
    });
    expect(ok.res.json).toMatchObject({ response_action: 'update' });
    expect(JSON.stringify(ok.res.json)).toContain('enrolled');
    expect(await d.bot.slack.context.deps.stepUps.enrolled(USERS.approver1)).toBe(true);
    await d.settle();

    // Only views carry the secret: no message, ephemeral answer or DM; not the modal's metadata.
    for (const call of d.fake.calls) {
      const text = JSON.stringify(call.args);
      if (call.method === 'views.update' && call.args.view_id === viewId) continue;
      expect(text, call.method).not.toContain(secret);
    }
    // At rest: sealed, in the step-up file of its own; the audit says what happened, never the secret.
    const dir = (d.kv as unknown as { file: string }).file.replace(/kv\.json$/, '');
    const stored = readFileSync(join(dir, 'step-up.json'), 'utf8');
    expect(stored).toContain(USERS.approver1);
    expect(stored).not.toContain(secret);
    const audit = readFileSync(join(dir, 'audit.jsonl'), 'utf8');
    expect(audit).toContain('step_up.enrolled');
    expect(audit).toContain('step_up.enrollment_refused');
    expect(audit).not.toContain(secret);
  });

  it('refuses a non-approver, and a replacement without the current authenticator code', async () => {
    const res = await d.slack.command({
      command: '/desk',
      text: '2fa',
      userId: USERS.requester,
      responseUrl: d.fake.responseUrl('r'),
    });
    expect(JSON.stringify(res.json)).toContain('Only approvers');

    const old = await enroll(USERS.approver1);
    const again = await openEnrollment(USERS.approver1);
    expect(again.view).toContain(INPUT.stepUpCurrentCode);
    const without = await submitView(
      d,
      CALLBACK.stepUpEnroll,
      again.viewId,
      codeValues(totpCode(again.secret, now()), wrongCode(old)),
      { userId: USERS.approver1 },
    );
    expect(without.res.json).toMatchObject({
      response_action: 'errors',
      errors: { [INPUT.stepUpCurrentCode]: expect.any(String) },
    });
    // The next step, so the old authenticator's code is not a replay of the one that enrolled it.
    d.sandbox.control.advance(STEP_MS);
    const withCurrent = await submitView(
      d,
      CALLBACK.stepUpEnroll,
      again.viewId,
      codeValues(totpCode(again.secret, now()), totpCode(old, now())),
      { userId: USERS.approver1 },
    );
    expect(withCurrent.res.json).toMatchObject({ response_action: 'update' });
  });
});

describe('an approval that needs a code', () => {
  it('is not counted by the click, nor with a wrong or replayed code; a valid code counts it', async () => {
    const secret = await enroll(USERS.approver1);
    const first = await requestCrypto(d);
    const modal = await clickApprove(first.requestId, USERS.approver1);
    expect(modal.view.callback_id).toBe(CALLBACK.stepUpApprove);
    // What is approved: the amount and the destination's address, then the code field.
    expect(modal.json).toContain(first.dest.address.address);
    expect(modal.json).toContain('150.12');
    expect(modal.meta).not.toContain(secret);
    expect(await approvalsOf(first.requestId)).toEqual([]);

    const wrong = await submitCode(modal.viewId, modal.meta, USERS.approver1, wrongCode(secret));
    expect(wrong.res.json).toMatchObject({ response_action: 'errors' });
    expect(await approvalsOf(first.requestId)).toEqual([]);

    // The code that enrolled the app was used: the same step again is a replay.
    const replay = await submitCode(modal.viewId, modal.meta, USERS.approver1, totpCode(secret, now()));
    expect(replay.res.json).toMatchObject({
      response_action: 'errors',
      errors: { [INPUT.stepUpCode]: expect.stringContaining('used already') },
    });
    expect(await approvalsOf(first.requestId)).toEqual([]);

    d.sandbox.control.advance(STEP_MS);
    const code = totpCode(secret, now());
    const ok = await submitCode(modal.viewId, modal.meta, USERS.approver1, code);
    expect(ok.res.json).toMatchObject({ response_action: 'update' });
    await d.settle();
    expect(await approvalsOf(first.requestId)).toEqual([USERS.approver1]);
    expect(JSON.stringify(d.fake.viewById(modal.viewId))).toContain('counts (1 of 2)');

    // The same code on another request: refused as a replay, nothing counted.
    const second = await requestCrypto(d);
    const other = await clickApprove(second.requestId, USERS.approver1);
    const replayed = await submitCode(other.viewId, other.meta, USERS.approver1, code);
    expect(replayed.res.json).toMatchObject({ response_action: 'errors' });
    expect(await approvalsOf(second.requestId)).toEqual([]);

    // Audited each time, never with the code.
    const audit = readFileSync((d.audit as unknown as { file: string }).file, 'utf8');
    expect(audit).toContain('step_up.wrong');
    expect(audit).toContain('step_up.replayed');
    expect(audit).toContain('step_up.accepted');
    const lines = audit.split('\n').filter((l) => l.includes('step_up.'));
    for (const line of lines) expect(line).not.toMatch(new RegExp(`"${code}"|:${code}\\b`));
  });

  it('without a code the engine refuses to count it; a plain click never counts', async () => {
    const r = await requestCrypto(d);
    const hash = (await d.bot.engine.get(r.requestId))!.snapshotHash;
    const refused = await d.bot.engine.approve(r.requestId, USERS.approver1, hash);
    expect(refused).toMatchObject({ ok: false, reason: 'step_up_required' });
    expect(await approvalsOf(r.requestId)).toEqual([]);
  });

  it('tells an approver who is not enrolled how to enroll, and does not count the approval', async () => {
    const r = await requestCrypto(d);
    const modal = await clickApprove(r.requestId, USERS.approver3);
    await d.settle();
    const shown = JSON.stringify(d.fake.viewById(modal.viewId));
    expect(shown).toContain('/desk 2fa');
    expect(shown).toContain('has not counted');
    expect(await approvalsOf(r.requestId)).toEqual([]);
  });

  it(`locks after ${MAX_WRONG_CODES} wrong codes for 15 minutes on the injected clock`, async () => {
    const secret = await enroll(USERS.approver1);
    const r = await requestCrypto(d);
    const modal = await clickApprove(r.requestId, USERS.approver1);
    d.sandbox.control.advance(STEP_MS);
    for (let i = 1; i <= MAX_WRONG_CODES; i++) {
      const wrong = await submitCode(modal.viewId, modal.meta, USERS.approver1, wrongCode(secret));
      expect(JSON.stringify(wrong.res.json)).toContain(
        i < MAX_WRONG_CODES ? `${i} of ${MAX_WRONG_CODES}` : 'refused until',
      );
    }
    const locked = await submitCode(modal.viewId, modal.meta, USERS.approver1, totpCode(secret, now()));
    expect(JSON.stringify(locked.res.json)).toContain('Too many wrong codes');
    d.sandbox.control.advance(LOCKOUT_MS - 2 * STEP_MS);
    const stillLocked = await submitCode(modal.viewId, modal.meta, USERS.approver1, totpCode(secret, now()));
    expect(JSON.stringify(stillLocked.res.json)).toContain('Too many wrong codes');
    expect(await approvalsOf(r.requestId)).toEqual([]);
    d.sandbox.control.advance(2 * STEP_MS);
    const ok = await submitCode(modal.viewId, modal.meta, USERS.approver1, totpCode(secret, now()));
    expect(ok.res.json).toMatchObject({ response_action: 'update' });
    await d.settle();
    expect(await approvalsOf(r.requestId)).toEqual([USERS.approver1]);
  });
});

describe('an approval under STEP_UP_AT_LEAST', () => {
  it('is a plain click, counted without a code, and the value frozen in USD says why', async () => {
    await d.stop();
    d = await startTestBot({
      seed: 'slack-e2e-step-up-small',
      env: { STEP_UP_AT_LEAST: '1000000000', STEP_UP_ENCRYPTION_KEY: KEY },
    });
    const r = await requestCrypto(d);
    const usd = (await d.bot.engine.get(r.requestId))!.snapshot as { valuations?: { currency: string }[] };
    expect(usd.valuations?.map((v) => v.currency)).toContain('USD');
    const msg = approvalMessage(d.fake, r.requestId);
    const mark = d.fake.calls.length;
    await click(d, USERS.approver1, ACTION.approve, buttonValue(msg.blocks, ACTION.approve)!, msg.ts);
    expect(d.fake.calls.slice(mark).some((c) => c.method === 'views.open')).toBe(false);
    expect(await approvalsOf(r.requestId)).toEqual([USERS.approver1]);
  });
});

describe('a policy rule with step_up', () => {
  it('asks for a code on the requests it decides, and keeps step_up in the snapshot', async () => {
    await d.stop();
    const dir = mkdtempSync(join(tmpdir(), 'step-up-policy-'));
    const file = join(dir, 'policy.yaml');
    writeFileSync(
      file,
      [
        'groups:',
        `  treasury: [${USERS.approver1}, ${USERS.approver2}, ${USERS.approver3}]`,
        `requesters: [${USERS.requester}]`,
        'rules:',
        '  - name: withdrawals',
        '    match: { kind: crypto_withdrawal }',
        '    require: [{ group: treasury, count: 2 }]',
        '    step_up: true',
        '  - name: everything else',
        '    require: [{ group: treasury, count: 2 }]',
        '',
      ].join('\n'),
    );
    d = await startTestBot({
      seed: 'slack-e2e-step-up-policy',
      env: { REQUESTER_USER_IDS: '', APPROVER_USER_IDS: '', POLICY_FILE: file, STEP_UP_ENCRYPTION_KEY: KEY },
    });
    const secret = await enroll(USERS.approver1);
    const r = await requestCrypto(d);
    expect((await d.bot.engine.get(r.requestId))!.snapshot.rule).toMatchObject({ name: 'withdrawals', stepUp: true });
    const modal = await clickApprove(r.requestId, USERS.approver1);
    expect(modal.view.callback_id).toBe(CALLBACK.stepUpApprove);
    expect(await approvalsOf(r.requestId)).toEqual([]);
    d.sandbox.control.advance(STEP_MS);
    const ok = await submitCode(modal.viewId, modal.meta, USERS.approver1, totpCode(secret, now()));
    expect(ok.res.json).toMatchObject({ response_action: 'update' });
    await d.settle();
    expect(await approvalsOf(r.requestId)).toEqual([USERS.approver1]);
  });
});

describe('/desk 2fa reset', () => {
  it('an admin removes an enrollment, audited, and the person is told by DM; anyone else is refused', async () => {
    await enroll(USERS.approver1);
    const refused = await d.slack.command({
      command: '/desk',
      text: `2fa reset <@${USERS.approver1}>`,
      userId: USERS.approver2,
      responseUrl: d.fake.responseUrl('x'),
    });
    expect(JSON.stringify(refused.json)).toContain('Only admins');
    expect(await d.bot.slack.context.deps.stepUps.enrolled(USERS.approver1)).toBe(true);

    await d.slack.command({
      command: '/desk',
      text: `2fa reset <@${USERS.approver1}|ana>`,
      userId: ADMIN,
      responseUrl: d.fake.responseUrl('reset'),
    });
    await d.settle();
    expect(await d.bot.slack.context.deps.stepUps.enrolled(USERS.approver1)).toBe(false);
    expect(dmsTo(d.fake, USERS.approver1).join('\n')).toContain('removed your authenticator enrollment');
    const audit = readFileSync((d.audit as unknown as { file: string }).file, 'utf8');
    expect(audit).toContain('step_up.reset_refused');
    expect(audit).toMatch(/step_up\.reset"/);
  });
});

describe('/desk 2fa reset: the DM to the person goes through the outbox', () => {
  const resetBy = (userId: string) =>
    d.slack.command({
      command: '/desk',
      text: `2fa reset <@${USERS.approver1}>`,
      userId,
      responseUrl: d.fake.responseUrl('reset'),
    });
  /** Reset notices Slack took (a refused call is in the fake's log too). */
  const noticesTaken = () =>
    d.fake
      .callsTo('chat.postMessage')
      .filter((c) => c.args.channel === USERS.approver1 && c.response.ok)
      .map((c) => String(c.args.text))
      .filter((t) => t.includes('removed your authenticator enrollment'));
  const waiting = async () => (await d.requests.outbox.pending()).filter((e) => e.event.type === 'step_up.reset');

  it('refused by Slack at first, it stays in the stored outbox and is delivered once by the next leader; a repeated command sends nothing', async () => {
    await enroll(USERS.approver1);
    // One delivery's quick tries (the test bot makes three) all refused.
    for (let i = 0; i < 3; i++) d.fake.failNext('chat.postMessage', 'service_unavailable');
    await resetBy(ADMIN);
    await d.settle();
    expect(await d.bot.slack.context.deps.stepUps.enrolled(USERS.approver1)).toBe(false);
    expect(noticesTaken()).toEqual([]);
    const stored = await waiting();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.event).toMatchObject({ user: USERS.approver1, by: ADMIN });
    expect(stored[0]!.attempts).toBe(1);
    expect(d.logs.some((l) => l.level === 'warn' && l.message.includes('did not reach Slack'))).toBe(true);
    const answers = d.fake
      .callsTo('response_url')
      .map((c) => String(c.args.text))
      .join('\n');
    expect(answers).toContain('they are told by DM');

    // This process stops delivering; another over the same stores takes over, as after a restart.
    (d.leadership as LeadershipState).set('follower');
    await d.replica(new LeadershipState('leader'));
    await d.runFor(4_000, 1_000);
    expect(noticesTaken()).toHaveLength(1);
    expect(noticesTaken()[0]).toContain(`<@${ADMIN}>`);
    expect(await waiting()).toEqual([]);

    // Slack delivers the command again: nothing is removed, nothing is sent.
    await resetBy(ADMIN);
    await d.settle();
    await d.runFor(4_000, 1_000);
    expect(noticesTaken()).toHaveLength(1);
    expect(await waiting()).toEqual([]);
    const audit = readFileSync((d.audit as unknown as { file: string }).file, 'utf8');
    const resets = audit.split('\n').filter((l) => l.includes('"step_up.reset"'));
    expect(resets).toHaveLength(2);
    expect(resets[0]).toContain('"noticeQueued":true');
    expect(resets[1]).toContain('"hadEnrollment":false');
  });

  it('a person Slack will never let the bot DM: the notice is given up, logged as an error, and holds nothing up', async () => {
    await enroll(USERS.approver1);
    d.fake.refuseDmTo(USERS.approver1, 'user_disabled');
    await resetBy(ADMIN);
    await d.settle();
    expect(await waiting()).toEqual([]);
    expect(d.logs.some((l) => l.level === 'error' && l.message.includes('cannot receive DMs'))).toBe(true);
  });
});
