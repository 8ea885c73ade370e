// Approve: the button carries the snapshot hash the approver saw, and the engine counts exactly that or
// refuses with a sentence to the clicker alone. A double click or redelivery never counts twice.
import type { BlockButtonAction, Middleware, SlackActionMiddlewareArgs } from '@slack/bolt';
import { REFUSAL_MESSAGES } from '../../domain/refusals.js';
import { codeModalBlocks, parseApprovalButtonValue } from './approval-message.js';
import { refusalReply } from '../kit/refusal-text.js';
import type { SlackContext } from '../kit/slack-context.js';
import { INTERNAL_ERROR_TEXT, replyToClicker } from '../kit/reply.js';
import { errorText } from '../../domain/error-text.js';
import { askForCode } from '../step-up/approve-with-code.js';
import { approvalInput } from './from-record.js';
import type { RequestRecord } from '../../domain/record.js';

export function approveAction(ctx: SlackContext): Middleware<SlackActionMiddlewareArgs<BlockButtonAction>> {
  return async ({ ack, body, action, client, respond, context }) => {
    await ack();
    const origin = { body, respond, client };
    const engine = ctx.deps.engine;
    const parsed = parseApprovalButtonValue(action.value);
    if (!parsed) return replyToClicker(ctx, origin, refusalReply(REFUSAL_MESSAGES.not_found));
    // A button without the hash predates the snapshot binding: the approver must look again.
    if (!parsed.snapshotHash) return replyToClicker(ctx, origin, refusalReply(REFUSAL_MESSAGES.stale_snapshot));
    try {
      // A request that needs a one-time code is approved from the code modal's submit, not here.
      const what = (r: RequestRecord) => codeModalBlocks(approvalInput(r, ctx.sandbox));
      const ask = { userId: body.user.id, triggerId: body.trigger_id, client, what };
      if (await askForCode(ctx, { ...ask, requestId: parsed.requestId, seenHash: parsed.snapshotHash })) return;
      const result = await engine.approve(parsed.requestId, body.user.id, parsed.snapshotHash);
      if (!result.ok) {
        if (result.reason === 'already_approved' && context.retryNum) return;
        await replyToClicker(ctx, origin, refusalReply(result.message));
      }
    } catch (err) {
      ctx.logger.error(`approve failed: ${errorText(err)}`);
      await replyToClicker(ctx, origin, INTERNAL_ERROR_TEXT);
    }
    if (body.view?.type === 'home') await ctx.deps.homes.refresh(body.user.id, client);
  };
}
