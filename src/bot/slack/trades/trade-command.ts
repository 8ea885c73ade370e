/** `/trade [PAIR]`: acknowledged at once, the trade form opened (it needs no exchange data to open). */
import type { Middleware, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { refusalText } from '../kit/refusal-text.js';
import type { SlackContext } from '../kit/slack-context.js';
import { renderTradeForm, tradeRenderOptions, type TradeMeta } from './trade-form.js';

export function tradeCommand(ctx: SlackContext): Middleware<SlackCommandMiddlewareArgs> {
  return async ({ command, ack, client }) => {
    if (!ctx.roles.isRequester(command.user_id)) {
      await ack({ response_type: 'ephemeral', text: refusalText('not_requester') });
      return;
    }
    await ack();
    const pairText = command.text.trim().split(/\s+/)[0] || undefined;
    const meta: TradeMeta = { k: 'trade', c: command.channel_id };
    const view = renderTradeForm(
      {
        pairText,
        side: 'buy',
        quantityText: undefined,
        quantityIn: 'base',
        paymentMethod: ctx.deps.exchange.paymentMethods[0],
        limitText: undefined,
        slippageText: undefined,
      },
      meta,
      tradeRenderOptions(ctx),
    );
    await client.views.open({ trigger_id: command.trigger_id, view });
  };
}
