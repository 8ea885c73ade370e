/** `/counterparty [transaction id]`: compliance officers get the declaration modal at once. */
import type { Middleware, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { counterpartyView } from './counterparty-modal.js';
import { refusalText } from '../kit/refusal-text.js';
import { auditCounterpartyRefusal } from './refusal-audit.js';
import type { SlackContext } from '../kit/slack-context.js';
import { TRANSACTION_ID, type CounterpartyMeta } from './counterparty-form.js';

export function counterpartyCommand(ctx: SlackContext): Middleware<SlackCommandMiddlewareArgs> {
  return async ({ command, ack, client }) => {
    const arg = command.text.trim();
    if (!ctx.roles.isCompliance(command.user_id)) {
      await ack({ response_type: 'ephemeral', text: refusalText('not_compliance') });
      await auditCounterpartyRefusal(ctx, command.user_id, TRANSACTION_ID.test(arg) ? arg : undefined, '/counterparty');
      return;
    }
    if (arg !== '' && !TRANSACTION_ID.test(arg)) {
      await ack({
        response_type: 'ephemeral',
        text: 'Usage: `/counterparty` or `/counterparty <transaction id>` (a UUID from the deposit message).',
      });
      return;
    }
    await ack();
    const meta: CounterpartyMeta = { k: 'cp', ...(arg ? { t: arg } : {}) };
    await client.views.open({
      trigger_id: command.trigger_id,
      view: counterpartyView({
        ...(arg ? { transactionId: arg } : {}),
        privateMetadata: JSON.stringify(meta),
        sandbox: ctx.sandbox,
      }),
    });
  };
}
