// Submitting the trade form: errors on their fields before the ack; a valid form is acked with "checking…",
// then the engine takes the quote approvers will see (a slippage is measured from it) and posts the request.
import type { Middleware, SlackViewMiddlewareArgs } from '@slack/bolt';
import type { Refusal } from '../../domain/refusals.js';
import { sendingView } from '../request-forms/submitted-views.js';
import { refillForm } from '../kit/refill-form.js';
import type { SlackContext } from '../kit/slack-context.js';
import { refusalNotes, sendRequestForm } from '../request-forms/request-flow.js';
import {
  checkTradeSubmission,
  renderTradeForm,
  tradeRenderOptions,
  tradeState,
  type TradeFormState,
  type TradeMeta,
} from './trade-form.js';
import { INPUT } from '../kit/slack-ids.js';
import { readMetadata, type StateValues } from '../kit/view-state.js';

const TITLE = 'Trade';

export function tradeSubmitView(ctx: SlackContext): Middleware<SlackViewMiddlewareArgs> {
  return async ({ ack, body, view, client }) => {
    const meta = { k: 'trade' as const, ...readMetadata<TradeMeta>(view.private_metadata) };
    const values = view.state.values as StateValues;
    const state = tradeState(values);
    const checked = checkTradeSubmission(state, meta, ctx.deps.tradePairs);
    if (!checked.ok) {
      await ack({ response_action: 'errors', errors: checked.errors });
      return;
    }
    const t = checked.value;
    await ack({ response_action: 'update', view: sendingView(TITLE) });
    await sendRequestForm(ctx, client, {
      title: TITLE,
      viewId: view.id,
      userId: body.user.id,
      input: {
        kind: 'trade',
        symbol: t.pair,
        side: t.side,
        quantity: t.quantity,
        quantityCurrency: t.quantityCurrency,
        paymentMethod: t.paymentMethod,
        // A slippage is measured by the engine from the quote approvers will see.
        limit: t.slippageBps !== undefined ? { slippageBps: t.slippageBps } : { price: t.limitPrice },
      },
      refill: (refusal) => refill(ctx, state, meta, values, refusal),
    });
  };
}

const FIELD_BLOCK: Record<string, string> = {
  symbol: INPUT.tradePair,
  side: INPUT.tradeSide,
  quantity: INPUT.tradeQuantity,
  payment_method: INPUT.tradePaymentMethod,
};

function refill(ctx: SlackContext, state: TradeFormState, meta: TradeMeta, values: StateValues, refusal: Refusal) {
  if (refusal.reason !== 'invalid_input' && refusal.reason !== 'exchange_error') return undefined;
  const form = renderTradeForm(state, meta, tradeRenderOptions(ctx));
  const block =
    refusal.field === 'limit'
      ? state.slippageText
        ? INPUT.tradeSlippage
        : INPUT.tradeLimitPrice
      : refusal.field
        ? FIELD_BLOCK[refusal.field]
        : undefined;
  return refillForm(form, values, refusalNotes(refusal, block));
}
