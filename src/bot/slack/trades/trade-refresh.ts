// A change in the trade form or Refresh quote: with usable pair and quantity, an indicative quote (after the ack).
import type { BlockAction, Middleware, SlackActionMiddlewareArgs } from '@slack/bolt';
import { ExchangeError } from '../../ports/exchange-error.js';
import type { SlackContext } from '../kit/slack-context.js';
import { quoteTerms, renderTradeForm, tradeRenderOptions, termsKey, tradeState, type TradeMeta } from './trade-form.js';
import { ACTION } from '../kit/slack-ids.js';
import { readMetadata } from '../kit/view-state.js';
import { stillRequester } from '../request-forms/requester-only.js';
import { errorText } from '../../domain/error-text.js';

/** The longest exchange error kept for the form (the exchange's own words, cut). */
const QUOTE_ERROR_MAX = 500;

export function tradeRefreshAction(ctx: SlackContext): Middleware<SlackActionMiddlewareArgs<BlockAction>> {
  return async ({ ack, body, action, client }) => {
    await ack();
    const view = body.view;
    if (!view) return;
    if (!(await stillRequester(ctx, client, view, body.user.id, 'Trade'))) return;
    const knownPairs = ctx.deps.tradePairs;
    const state = tradeState(view.state.values);
    const old = readMetadata<TradeMeta>(view.private_metadata);
    const meta: TradeMeta = { k: 'trade', ...(old.c ? { c: old.c } : {}), ...(old.q ? { q: old.q } : {}) };
    const terms = quoteTerms(state, knownPairs);
    const wantsQuote =
      action.action_id === ACTION.tradeRefreshQuote || (terms !== undefined && (!old.q || old.q.t !== termsKey(terms)));
    if (terms && wantsQuote) {
      try {
        const q = await ctx.deps.engine.indicativeQuote(terms);
        meta.q = {
          p: q.price,
          e: q.expiresAt,
          t: termsKey(terms),
          s: {
            symbol: terms.symbol,
            side: terms.side,
            quantity: terms.quantity,
            quantityCurrency: terms.quantityCurrency ?? '',
          },
        };
      } catch (err) {
        delete meta.q;
        // Kept in private_metadata (3,000 characters at most, with the rest of the form's state).
        meta.qe = (err instanceof ExchangeError ? err.userMessage : 'the quote could not be taken.').slice(
          0,
          QUOTE_ERROR_MAX,
        );
        if (!(err instanceof ExchangeError))
          ctx.logger.error(`preview quote failed: ${err instanceof Error ? err.name : typeof err}`);
      }
    }
    try {
      const next = renderTradeForm(state, meta, tradeRenderOptions(ctx, knownPairs));
      await client.views.update({ view_id: view.id, hash: view.hash, view: next });
    } catch (err) {
      ctx.logger.info(`trade form refresh skipped: ${errorText(err)}`);
    }
  };
}
