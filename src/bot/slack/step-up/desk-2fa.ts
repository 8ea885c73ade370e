// `/desk 2fa`: an approver enrolls an authenticator app in a modal opened at once and filled after
// (the secret is shown there only). `/desk 2fa reset <user>`: an admin removes someone's enrollment,
// audited, and the person is told by direct message through the durable outbox (reset-notifier.ts).
import type { AckFn, RespondArguments, RespondFn, SlashCommand } from '@slack/bolt';
import type { SlackClient, SlackContext } from '../kit/slack-context.js';
import { mention } from '../kit/mrkdwn.js';
import { errorText } from '../../domain/error-text.js';
import { enrollPreparingView, enrollView, stepUpNotice } from './step-up-views.js';

export interface DeskTwoFactorArgs {
  command: SlashCommand;
  ack: AckFn<string | RespondArguments>;
  client: SlackClient;
  respond: RespondFn;
  /** The words after `2fa`. */
  words: readonly string[];
}

export const NOT_CONFIGURED_TEXT =
  'One-time codes are not set up on this desk (the operator sets STEP_UP_ENCRYPTION_KEY; see the README, "Step-up approvals").';

/** `/desk 2fa [reset <user>]`. */
export async function deskTwoFactor(ctx: SlackContext, args: DeskTwoFactorArgs): Promise<void> {
  const { command, ack, words } = args;
  const stepUps = ctx.deps.stepUps;
  if (!stepUps.configured) return ack({ response_type: 'ephemeral', text: NOT_CONFIGURED_TEXT });
  if (words[0]?.toLowerCase() === 'reset') return reset(ctx, args);
  if (words.length > 0)
    return ack({
      response_type: 'ephemeral',
      text: 'Use `/desk 2fa` to enroll, or `/desk 2fa reset <@user>` (admins).',
    });
  if (!ctx.roles.isApprover(command.user_id))
    return ack({
      response_type: 'ephemeral',
      text: 'Only approvers enroll an authenticator app: their approvals ask for its codes.',
    });
  await ack();
  let viewId: string | undefined;
  try {
    const opened = await args.client.views.open({ trigger_id: command.trigger_id, view: enrollPreparingView() });
    viewId = opened.view?.id;
    // The account name the app shows beside the issuer; the id when Slack sent no name.
    const enrollment = await stepUps.begin(command.user_id, command.user_name || command.user_id);
    await args.client.views.update({ view_id: viewId!, view: enrollView(enrollment) });
  } catch (err) {
    // The error's kind and message only: a Web API error of views.update could quote its request.
    ctx.logger.error(`2fa enrollment could not be shown: ${errorName(err)}`);
    if (viewId)
      await args.client.views
        .update({
          view_id: viewId,
          view: stepUpNotice('enroll', ':warning: That did not work; run `/desk 2fa` again.'),
        })
        .catch(() => {});
  }
}

async function reset(ctx: SlackContext, { command, ack, respond, words }: DeskTwoFactorArgs): Promise<void> {
  const adminId = command.user_id;
  const target = userIdIn(words[1] ?? '');
  if (!ctx.config.admins.includes(adminId)) {
    await ctx.deps.audit.append({ type: 'step_up.reset_refused', actor: adminId, data: { reason: 'not_admin' } });
    return ack({ response_type: 'ephemeral', text: 'Only admins (ADMIN_USER_IDS) may reset an enrollment.' });
  }
  if (!target)
    return ack({
      response_type: 'ephemeral',
      text: 'Say whose enrollment: `/desk 2fa reset @name` (pick the person as you type), or their member ID `U0123ABCD`.',
    });
  await ack();
  const { removed, noticeQueued } = await ctx.deps.stepUps.reset(adminId, target);
  const said = !removed
    ? `${mention(target)} had no authenticator enrolled; nothing changed. Audited.`
    : noticeQueued
      ? `${mention(target)}'s authenticator enrollment is removed; they are told by DM and enroll again with \`/desk 2fa\`. Audited.`
      : `${mention(target)}'s authenticator enrollment is removed (audited), but the DM telling them could not be queued: tell them yourself.`;
  await respond({ response_type: 'ephemeral', text: said }).catch((err: unknown) =>
    ctx.logger.warn(`2fa reset: answer not delivered: ${errorText(err)}`),
  );
}

/** "U0123ABCD", "<@U0123ABCD>" or "<@U0123ABCD|ana>": the id; anything else (a bare @name) undefined. */
function userIdIn(word: string): string | undefined {
  const m = /^(?:<@)?([UW][A-Z0-9]{6,})(?:\|[^>]*)?>?$/.exec(word.trim());
  return m?.[1];
}

function errorName(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${(err as { code?: string }).code ?? 'failed'}` : 'failed';
}
