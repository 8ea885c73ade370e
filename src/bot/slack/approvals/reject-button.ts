// Reject: approvers get the reason modal at once (the trigger id lives 3 s); the engine decides on submit.
import type { BlockButtonAction, Middleware, SlackActionMiddlewareArgs } from '@slack/bolt';
import { REFUSAL_MESSAGES } from '../../domain/refusals.js';
import { parseApprovalButtonValue } from './approval-message.js';
import { rejectReasonView } from './reject-modal.js';
import { refusalReply } from '../kit/refusal-text.js';
import type { SlackContext } from '../kit/slack-context.js';
import type { RejectMeta } from './reject-form.js';
import { replyToClicker } from '../kit/reply.js';

export function rejectAction(ctx: SlackContext): Middleware<SlackActionMiddlewareArgs<BlockButtonAction>> {
  return async ({ ack, body, action, client, respond }) => {
    await ack();
    const parsed = parseApprovalButtonValue(action.value);
    if (!ctx.roles.isApprover(body.user.id) || !parsed) {
      await replyToClicker(
        ctx,
        { body, respond, client },
        refusalReply(parsed ? REFUSAL_MESSAGES.not_approver : REFUSAL_MESSAGES.not_found),
      );
      return;
    }
    const meta: RejectMeta = {
      r: parsed.requestId,
      ...(body.channel?.id ? { c: body.channel.id } : {}),
      ...(body.message?.ts ? { m: body.message.ts } : {}),
    };
    await client.views.open({
      trigger_id: body.trigger_id,
      view: rejectReasonView({ requestId: parsed.requestId, privateMetadata: JSON.stringify(meta) }),
    });
  };
}
