/**
 * The step-up modals: enrollment (the secret, shown here and nowhere else), the code asked on an
 * approval (what is being approved, then the code), and the notices in between. Pure builders.
 */
import { context, input, modal, section, textInput, type KnownBlock, type ModalView } from '../kit/blocks.js';
import { BLOCK, CALLBACK, INPUT } from '../kit/slack-ids.js';
import { code, escapeMrkdwn } from '../kit/mrkdwn.js';
import { utcText } from '../kit/format.js';
import { MAX_WRONG_CODES, type CodeVerdict } from '../../domain/step-up/attempts.js';
import { SealedSecretError } from '../../domain/step-up/sealed-secret.js';
import { INTERNAL_ERROR_TEXT } from '../kit/reply.js';
import type { Enrollment } from '../../domain/step-up/attempts.js';

const ENROLL_TITLE = 'Approval codes';
const APPROVE_TITLE = 'Approve with a code';

/** How to enroll, for an approver asked for a code they cannot give yet. */
export const HOW_TO_ENROLL =
  'Enroll an authenticator app (Google Authenticator, 1Password, Authy…) with `/desk 2fa` in any channel, then approve again.';

const codeInput = (blockId: string, label: string, hint: string): KnownBlock =>
  input(blockId, label, textInput(blockId, { placeholder: '123456', maxLength: 9, minLength: 6 }), { hint });

/** Opened at once on `/desk 2fa` (the trigger id lives 3 s) and on a step-up approval; filled after. */
export function preparingView(callbackId: string, title: string, what: string): ModalView {
  return modal([section(`:hourglass_flowing_sand: ${escapeMrkdwn(what, 300)}…`)], {
    callbackId,
    title,
    close: 'Close',
  });
}

export function enrollPreparingView(): ModalView {
  return preparingView(CALLBACK.stepUpEnroll, ENROLL_TITLE, 'Preparing a new secret for your authenticator app');
}

/** The secret and its URI, a first code to confirm; when replacing, the current authenticator's code too. */
export function enrollView(enrollment: Enrollment): ModalView {
  const blocks: KnownBlock[] = [
    section(
      'Large approvals ask for a code from an authenticator app on your phone, so that a Slack session alone cannot approve them.\n' +
        '*1.* In the app, add an account: scan the QR code of this link, or open it on the phone, or type the secret.',
    ),
    section(`*Link*\n${code(enrollment.uri, 400)}`, BLOCK.stepUpUri),
    section(`*Secret* (base32, time-based, 6 digits, 30 s)\n${code(spaced(enrollment.secret), 100)}`),
    context([
      'This secret is shown only here, never in a message. Close this window and run `/desk 2fa` again for a new one.',
    ]),
  ];
  if (enrollment.replacing)
    blocks.push(
      codeInput(
        INPUT.stepUpCurrentCode,
        'Code from your current authenticator',
        'You are enrolled already: the code of the app you enrolled before proves it is you replacing it. Lost it? Ask an admin to reset you.',
      ),
    );
  blocks.push(
    codeInput(
      INPUT.stepUpCode,
      '2. The code the app now shows for Desk Bot',
      'Six digits; it changes every 30 seconds.',
    ),
  );
  return modal(blocks, { callbackId: CALLBACK.stepUpEnroll, title: ENROLL_TITLE, submit: 'Confirm', close: 'Cancel' });
}

/** The step-up approval: what exactly is approved, then the code. `privateMetadata` names the request only. */
export function approveCodeView(what: KnownBlock[], privateMetadata: string): ModalView {
  return modal(
    [
      section('*You are approving:*'),
      ...what,
      codeInput(
        INPUT.stepUpCode,
        'Code from your authenticator app',
        'Six digits. Your approval counts only with a valid code.',
      ),
    ],
    { callbackId: CALLBACK.stepUpApprove, title: APPROVE_TITLE, submit: 'Approve', close: 'Cancel', privateMetadata },
  );
}

export function approvePreparingView(): ModalView {
  return preparingView(CALLBACK.stepUpApprove, APPROVE_TITLE, 'Reading the request');
}

/** A modal that only says something, title as the flow's. */
export function stepUpNotice(flow: 'enroll' | 'approve', mrkdwn: string): ModalView {
  return modal([section(mrkdwn)], {
    callbackId: CALLBACK.notice,
    title: flow === 'enroll' ? ENROLL_TITLE : APPROVE_TITLE,
    close: 'Close',
  });
}

/** The sentence for a refused code, under its field. */
export function verdictText(verdict: CodeVerdict | { kind: 'expired' } | { kind: 'not_enrolled' }): string {
  switch (verdict.kind) {
    case 'accepted':
      return 'Accepted.';
    case 'wrong':
      return verdict.lockedUntil
        ? `Wrong code, ${MAX_WRONG_CODES} in a row: codes are refused until ${utcText(verdict.lockedUntil)}.`
        : `Wrong code (${verdict.wrong} of ${MAX_WRONG_CODES} before a 15-minute lock). Check the account for Desk Bot and the phone's clock.`;
    case 'replayed':
      return 'That code was used already; wait for the next one (every 30 seconds) and enter it.';
    case 'locked':
      return `Too many wrong codes: codes are refused until ${utcText(verdict.lockedUntil)}.`;
    case 'expired':
      return 'This window is out of date: close it and run `/desk 2fa` again.';
    case 'not_enrolled':
      return `You have no authenticator enrolled. ${HOW_TO_ENROLL}`;
  }
}

/** The answer when a stored secret does not open with STEP_UP_ENCRYPTION_KEY (the key was changed). */
export function failureText(err: unknown): string {
  return err instanceof SealedSecretError
    ? ":warning: Your enrollment cannot be read with this desk's key (the key was changed). Ask an admin to reset you (`/desk 2fa reset`), then enroll again with `/desk 2fa`."
    : INTERNAL_ERROR_TEXT;
}

/** "ABCD EFGH …": easier to type from the screen; authenticator apps ignore the spaces. */
function spaced(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}
