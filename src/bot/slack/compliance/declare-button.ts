/** The Declare counterparty button on a deposit message: the same modal, for that transaction. */
import type { BlockButtonAction, Middleware, SlackActionMiddlewareArgs } from '@slack/bolt';
import { counterpartyView } from './counterparty-modal.js';
import { refusalText } from '../kit/refusal-text.js';
import { auditCounterpartyRefusal } from './refusal-audit.js';
import type { SlackContext } from '../kit/slack-context.js';
import { TRANSACTION_ID, type CounterpartyMeta } from './counterparty-form.js';

export function declareCounterpartyAction(ctx: SlackContext): Middleware<SlackActionMiddlewareArgs<BlockButtonAction>> {
  return async ({ ack, body, action, client, respond }) => {
    await ack();
    const transactionId = action.value && TRANSACTION_ID.test(action.value) ? action.value : undefined;
    if (!ctx.roles.isCompliance(body.user.id)) {
      if (body.response_url)
        await respond({ response_type: 'ephemeral', replace_original: false, text: refusalText('not_compliance') });
      await auditCounterpartyRefusal(ctx, body.user.id, transactionId, 'declare button');
      return;
    }
    const meta: CounterpartyMeta = {
      k: 'cp',
      ...(transactionId ? { t: transactionId } : {}),
      ...(body.channel?.id ? { c: body.channel.id } : {}),
      ...(body.message?.ts ? { m: body.message.ts } : {}),
    };
    await client.views.open({
      trigger_id: body.trigger_id,
      view: counterpartyView({
        ...(transactionId ? { transactionId } : {}),
        privateMetadata: JSON.stringify(meta),
        sandbox: ctx.sandbox,
      }),
    });
  };
}
