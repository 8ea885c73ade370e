// Cancel: only the requester, while the request waits for approvals; a refusal goes to the clicker alone.
import type { BlockButtonAction, Middleware, SlackActionMiddlewareArgs } from '@slack/bolt';
import { REFUSAL_MESSAGES } from '../../domain/refusals.js';
import { parseApprovalButtonValue } from './approval-message.js';
import { refusalReply } from '../kit/refusal-text.js';
import type { SlackContext } from '../kit/slack-context.js';
import { INTERNAL_ERROR_TEXT, replyToClicker } from '../kit/reply.js';
import { errorText } from '../../domain/error-text.js';

export function cancelAction(ctx: SlackContext): Middleware<SlackActionMiddlewareArgs<BlockButtonAction>> {
  return async ({ ack, body, action, client, respond, context }) => {
    await ack();
    const origin = { body, respond, client };
    const engine = ctx.deps.engine;
    const parsed = parseApprovalButtonValue(action.value);
    if (!parsed) return replyToClicker(ctx, origin, refusalReply(REFUSAL_MESSAGES.not_found));
    try {
      const result = await engine.cancel(parsed.requestId, body.user.id);
      // A redelivered click that cancelled is not answered again.
      if (!result.ok && !(context.retryNum && result.reason === 'already_decided'))
        await replyToClicker(ctx, origin, refusalReply(result.message));
    } catch (err) {
      ctx.logger.error(`cancel failed: ${errorText(err)}`);
      await replyToClicker(ctx, origin, INTERNAL_ERROR_TEXT);
    }
    if (body.view?.type === 'home') await ctx.deps.homes.refresh(body.user.id, client);
  };
}
