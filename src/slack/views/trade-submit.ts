/**
 * Submitting the trade form: pair, quantity and the worst acceptable price checked, errors under
 * their fields. A valid request goes to the approval engine once wired.
 */
import type { Middleware, SlackViewMiddlewareArgs } from '@slack/bolt';
import { noticeView } from '../blocks/modals/common.js';
import { notWiredText } from '../commands/not-wired.js';
import type { SlackContext } from '../context.js';
import { checkTradeSubmission, tradeState, type TradeMeta } from '../forms/trade-form.js';
import { readMetadata, type StateValues } from '../view-state.js';

export function tradeSubmitView(ctx: SlackContext): Middleware<SlackViewMiddlewareArgs> {
  return async ({ ack, view }) => {
    const meta = { k: 'trade' as const, ...readMetadata<TradeMeta>(view.private_metadata) };
    const checked = checkTradeSubmission(tradeState(view.state.values as StateValues), meta, ctx.deps.tradePairs ?? []);
    if (!checked.ok) {
      await ack({ response_action: 'errors', errors: checked.errors });
      return;
    }
    await ack({ response_action: 'update', view: noticeView('Trade', notWiredText('Asking for approval').replace(/^:construction: /, ''), 'info') });
  };
}
