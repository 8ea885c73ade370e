// The trade form between Slack and the builders. The indicative quote shown is kept in private_metadata
// with its terms, so a slippage limit is measured from the price the requester saw, while terms match.
import { tradeApprovalHint } from '../kit/policy-words.js';
import { DEFAULT_PAYMENT_METHOD, tradeView, type QuoteShown } from './trade-modal.js';
import type { ModalView } from '../kit/blocks.js';
import type { QuoteTermsView, SlackContext } from '../kit/slack-context.js';
import { INPUT } from '../kit/slack-ids.js';
import { checkTradeQuantity } from '../../domain/request.js';
import type { Checked } from '../request-forms/field-errors.js';
import { checkTrade, parsePair, type TradeChecked } from './trade-validation.js';
import { fieldValue, type StateValues } from '../kit/view-state.js';

export interface TradeMeta {
  k: 'trade';
  c?: string;
  /** Last quote shown: price, expiry, and the terms key it was taken for. */
  q?: { p: string; e: number; t: string; s: QuoteShownTerms };
  /** Last quote error shown. */
  qe?: string;
}

type QuoteShownTerms = { symbol: string; side: 'buy' | 'sell'; quantity: string; quantityCurrency: string };

export interface TradeFormState {
  pairText: string | undefined;
  side: 'buy' | 'sell';
  quantityText: string | undefined;
  quantityIn: 'base' | 'counter';
  paymentMethod: string;
  limitText: string | undefined;
  slippageText: string | undefined;
}

export function tradeState(values: StateValues | undefined): TradeFormState {
  return {
    pairText: fieldValue(values, INPUT.tradePair),
    side: fieldValue(values, INPUT.tradeSide) === 'sell' ? 'sell' : 'buy',
    quantityText: fieldValue(values, INPUT.tradeQuantity),
    quantityIn: fieldValue(values, INPUT.tradeQuantityCurrency) === 'counter' ? 'counter' : 'base',
    paymentMethod: fieldValue(values, INPUT.tradePaymentMethod) ?? DEFAULT_PAYMENT_METHOD,
    limitText: fieldValue(values, INPUT.tradeLimitPrice),
    slippageText: fieldValue(values, INPUT.tradeSlippage),
  };
}

/** Quote terms when pair and quantity are good enough to ask for a quote. */
export function quoteTerms(state: TradeFormState, knownPairs: readonly string[]): QuoteTermsView | undefined {
  const pair = parsePair(state.pairText, knownPairs);
  if (!pair.ok) return undefined;
  const [base = '', counter = ''] = pair.pair.split('-');
  const quantityCurrency = state.quantityIn === 'base' ? base : counter;
  const quantity = checkTradeQuantity(state.quantityText, quantityCurrency);
  if (!quantity.ok) return undefined;
  return {
    symbol: pair.pair,
    side: state.side,
    quantity: quantity.amount,
    quantityCurrency,
    paymentMethod: state.paymentMethod,
  };
}

export function termsKey(t: QuoteTermsView): string {
  return [t.symbol, t.side, t.quantity, t.quantityCurrency ?? '', t.paymentMethod].join('|');
}

export interface TradeRenderOptions {
  knownPairs: readonly string[];
  paymentMethods: readonly string[];
  sandbox: boolean;
  approvalHint: string;
}

/** The form's options from the listeners' context: the desk's pairs, payment methods and the policy's words. */
export function tradeRenderOptions(
  ctx: SlackContext,
  knownPairs: readonly string[] = ctx.deps.tradePairs,
): TradeRenderOptions {
  return {
    knownPairs,
    paymentMethods: ctx.deps.exchange.paymentMethods,
    sandbox: ctx.sandbox,
    approvalHint: tradeApprovalHint(ctx.deps.policy),
  };
}

export function renderTradeForm(state: TradeFormState | undefined, meta: TradeMeta, o: TradeRenderOptions): ModalView {
  const pair = state ? parsePair(state.pairText, o.knownPairs) : undefined;
  const quote: QuoteShown | undefined = meta.q
    ? {
        pair: meta.q.s.symbol,
        side: meta.q.s.side,
        price: meta.q.p,
        expiresAt: meta.q.e,
        quantity: meta.q.s.quantity,
        quantityCurrency: meta.q.s.quantityCurrency,
      }
    : meta.qe
      ? { error: meta.qe }
      : undefined;
  return tradeView({
    knownPairs: o.knownPairs,
    ...(pair?.ok ? { pair: pair.pair } : state?.pairText ? { pair: state.pairText } : {}),
    ...(state ? { side: state.side, quantityIn: state.quantityIn } : {}),
    paymentMethods: o.paymentMethods,
    ...(quote ? { quote } : {}),
    privateMetadata: JSON.stringify(meta),
    sandbox: o.sandbox,
    approvalHint: o.approvalHint,
  });
}

/** The submit check; a slippage counts only from a quote taken for exactly these terms. */
export function checkTradeSubmission(
  state: TradeFormState,
  meta: TradeMeta,
  knownPairs: readonly string[],
): Checked<TradeChecked> {
  const terms = quoteTerms(state, knownPairs);
  const fresh = terms && meta.q && meta.q.t === termsKey(terms) ? meta.q.p : undefined;
  const checked = checkTrade({
    pairText: state.pairText,
    knownPairs,
    quantityText: state.quantityText,
    quantityIn: state.quantityIn,
    paymentMethod: state.paymentMethod,
    side: state.side,
    limitText: state.limitText,
    slippageText: state.slippageText,
    indicativePrice: fresh,
    counter: '',
  });
  if (!checked.ok && meta.q && !fresh && checked.errors[INPUT.tradeSlippage]?.startsWith('Get a quote first')) {
    checked.errors[INPUT.tradeSlippage] = 'The quote shown was for other terms: get a fresh quote, then submit.';
  }
  return checked;
}
