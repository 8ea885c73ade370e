// The buttons of an unknown outcome waiting for a person: Look again goes to the engine; the others open
// their confirmation modal at once (the trigger id lives 3 s). Who may decide is the engine's rule.
import type { BlockButtonAction, Middleware, SlackActionMiddlewareArgs } from '@slack/bolt';
import { REFUSAL_MESSAGES } from '../../domain/refusals.js';
import { parseSettleButtonValue } from './person-question.js';
import { settleModal, type ConfirmedAction } from './settle-modal.js';
import { refusalReply } from '../kit/refusal-text.js';
import type { SlackContext } from '../kit/slack-context.js';
import { ACTION } from '../kit/slack-ids.js';
import { INTERNAL_ERROR_TEXT, replyToClicker } from '../kit/reply.js';
import { errorText } from '../../domain/error-text.js';

/** What the decision modal carries: the request, the question's time, the action and the candidate. */
export interface SettleMeta {
  r: string;
  q: number;
  a: ConfirmedAction;
  x?: string;
}

const CONFIRMED: Record<string, ConfirmedAction> = {
  [ACTION.sendAgain]: 'send_again',
  [ACTION.markNotSent]: 'mark_not_sent',
  [ACTION.markNotPlaced]: 'mark_not_placed',
  [ACTION.chooseCandidate]: 'choose',
  [ACTION.noneOfThese]: 'none_of_these',
};

export function settleAction(ctx: SlackContext): Middleware<SlackActionMiddlewareArgs<BlockButtonAction>> {
  return async ({ ack, body, action, client, respond }) => {
    await ack();
    const origin = { body, respond, client };
    const parsed = parseSettleButtonValue(action.value);
    const engine = ctx.deps.engine;
    if (!parsed) return replyToClicker(ctx, origin, refusalReply(REFUSAL_MESSAGES.not_found));
    const base = action.action_id.split(':')[0]!;
    if (base === ACTION.lookAgain) {
      try {
        const result = await engine.settle(parsed.requestId, body.user.id, { action: 'look_again' });
        await replyToClicker(
          ctx,
          origin,
          result.ok
            ? ':mag: Looking on the exchange again now; the message changes if it is found.'
            : refusalReply(result.message),
        );
      } catch (err) {
        ctx.logger.error(`look again failed: ${errorText(err)}`);
        await replyToClicker(ctx, origin, INTERNAL_ERROR_TEXT);
      }
      return;
    }
    const confirmed = CONFIRMED[base];
    // Only approvers get the form; the engine checks again (and the requester) on submit.
    if (!confirmed || !ctx.roles.isApprover(body.user.id))
      return replyToClicker(ctx, origin, refusalReply(REFUSAL_MESSAGES.not_approver));
    const meta: SettleMeta = {
      r: parsed.requestId,
      q: parsed.askedAt,
      a: confirmed,
      ...(parsed.exchangeId ? { x: parsed.exchangeId } : {}),
    };
    await client.views.open({
      trigger_id: body.trigger_id,
      view: settleModal({
        requestId: parsed.requestId,
        action: confirmed,
        ...(parsed.exchangeId ? { candidate: parsed.exchangeId } : {}),
        privateMetadata: JSON.stringify(meta),
      }),
    });
    if (body.view?.type === 'home') await ctx.deps.homes.refresh(body.user.id, client);
  };
}
