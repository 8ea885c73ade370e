// `/withdraw [crypto | fiat]`: acked at once, a modal opened within the trigger's 3 s (the choice, or a
// loading view filled once the exchange answers).
import type { Middleware, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { loadingView } from '../kit/modal-views.js';
import { withdrawChoiceView } from './withdraw-modal.js';
import { refusalText } from '../kit/refusal-text.js';
import type { SlackContext } from '../kit/slack-context.js';
import { fillWithdrawForm } from './withdraw-flow.js';
import type { WithdrawMeta } from './withdraw-form.js';
import { CALLBACK } from '../kit/slack-ids.js';

export function withdrawCommand(ctx: SlackContext): Middleware<SlackCommandMiddlewareArgs> {
  return async ({ command, ack, client }) => {
    if (!ctx.roles.isRequester(command.user_id)) {
      await ack({ response_type: 'ephemeral', text: refusalText('not_requester') });
      return;
    }
    const arg = command.text.trim().toLowerCase();
    if (arg !== '' && arg !== 'crypto' && arg !== 'fiat') {
      await ack({ response_type: 'ephemeral', text: 'Usage: `/withdraw`, `/withdraw crypto` or `/withdraw fiat`.' });
      return;
    }
    await ack();
    if (arg === '') {
      await client.views.open({
        trigger_id: command.trigger_id,
        view: withdrawChoiceView(JSON.stringify({ c: command.channel_id }), ctx.sandbox),
      });
      return;
    }
    const meta: WithdrawMeta = { k: arg, c: command.channel_id };
    const opened = await client.views.open({
      trigger_id: command.trigger_id,
      view: loadingView({
        callbackId: CALLBACK.withdrawLoading,
        title: 'Withdraw',
        what: 'balances, fees and destinations',
        privateMetadata: JSON.stringify(meta),
      }),
    });
    if (opened.view?.id) await fillWithdrawForm(ctx, client, opened.view.id, opened.view.hash, meta);
  };
}
