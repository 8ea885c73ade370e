// The code modal's submit: a code that is not six digits, wrong, used before or locked out is answered
// under the field before the ack, and counts nothing. An accepted code goes to the engine's approve,
// the same path and checks as a plain click, judged again now: the request may have been decided,
// changed or expired while the modal was open.
import type { Middleware, SlackViewMiddlewareArgs } from '@slack/bolt';
import type { SlackContext } from '../kit/slack-context.js';
import { INPUT } from '../kit/slack-ids.js';
import { fieldValue, readMetadata } from '../kit/view-state.js';
import { refusalReply } from '../kit/refusal-text.js';
import { INTERNAL_ERROR_TEXT } from '../kit/reply.js';
import { normalizedCode } from '../../domain/step-up/totp.js';
import { errorText } from '../../domain/error-text.js';
import { failureText, stepUpNotice, verdictText } from './step-up-views.js';

/** The modal's private_metadata: the request and the snapshot hash the approver saw; never a secret. */
export interface ApproveCodeMeta {
  r: string;
  h: string;
}

export function approveSubmitView(ctx: SlackContext): Middleware<SlackViewMiddlewareArgs> {
  return async ({ ack, body, view, client }) => {
    const userId = body.user.id;
    const meta = readMetadata<ApproveCodeMeta>(view.private_metadata);
    if (!meta.r || !meta.h)
      return ack({
        response_action: 'update',
        view: stepUpNotice('approve', 'This window is out of date; use Approve again.'),
      });
    const code = normalizedCode(fieldValue(view.state.values, INPUT.stepUpCode) ?? '');
    if (!code)
      return ack({ response_action: 'errors', errors: { [INPUT.stepUpCode]: 'Six digits, as the app shows them.' } });
    let verdict;
    try {
      verdict = await ctx.deps.stepUps.check(userId, code, meta.r);
    } catch (err) {
      ctx.logger.error(`step-up check failed: ${errorText(err)}`);
      return ack({ response_action: 'update', view: stepUpNotice('approve', failureText(err)) });
    }
    if (verdict.kind !== 'accepted')
      return ack({ response_action: 'errors', errors: { [INPUT.stepUpCode]: verdictText(verdict) } });
    await ack({
      response_action: 'update',
      view: stepUpNotice('approve', ':hourglass_flowing_sand: Code accepted; counting your approval…'),
    });
    let text: string;
    try {
      const result = await ctx.deps.engine.approve(meta.r, userId, meta.h, { step: verdict.step });
      text = result.ok
        ? `:white_check_mark: Your approval of request \`${meta.r}\` counts (${result.count} of ${result.required}).`
        : refusalReply(result.message);
    } catch (err) {
      ctx.logger.error(`approve failed: ${errorText(err)}`);
      text = INTERNAL_ERROR_TEXT;
    }
    await client.views
      .update({ view_id: view.id, view: stepUpNotice('approve', text) })
      .catch((err: unknown) => ctx.logger.info(`step-up modal not updated: ${errorText(err)}`));
    await ctx.deps.homes.refresh(userId, client);
  };
}
