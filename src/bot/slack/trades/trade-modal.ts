// The /trade modal. The worst acceptable price is a price or a slippage in percent (the one unit people
// see) from the indicative quote, fetched once pair and quantity are usable and shown with its expiry.
import { ACTION, BLOCK, CALLBACK, INPUT } from '../kit/slack-ids.js';
import {
  actions,
  button,
  context,
  input,
  modal,
  option,
  radioButtons,
  sandboxBanner,
  section,
  staticSelect,
  textInput,
  type KnownBlock,
  type ModalView,
} from '../kit/blocks.js';
import { formatAmount, paymentMethodText, slackDate } from '../kit/format.js';
import { escapeMrkdwn } from '../kit/mrkdwn.js';
import { LIMITS } from '../kit/limits.js';
import { joinWithMore } from '../kit/cut-lists.js';

export type QuoteShown =
  | { pair: string; side: 'buy' | 'sell'; price: string; expiresAt: number; quantity: string; quantityCurrency: string }
  | { error: string };

export interface TradeViewInput {
  /** Pairs the desk trades, BASE-COUNTER; shown as a hint (the exchange lists none). */
  knownPairs: readonly string[];
  pair?: string;
  side?: 'buy' | 'sell';
  quantityIn?: 'base' | 'counter';
  paymentMethods: readonly string[];
  quote?: QuoteShown;
  privateMetadata: string;
  sandbox: boolean;
  /** What approval the order waits for, in the policy's words (kit/policy-words.ts tradeApprovalHint). */
  approvalHint: string;
}

/** Default payment method: pay from the account balance (the only one the reference names). */
export const DEFAULT_PAYMENT_METHOD = 'user_balance';

export function tradeView(v: TradeViewInput): ModalView {
  const blocks: KnownBlock[] = [];
  if (v.sandbox) blocks.push(sandboxBanner(BLOCK.sandboxBanner));
  const pairsHint =
    v.knownPairs.length > 0
      ? `Pairs: ${joinWithMore(v.knownPairs, LIMITS.inputHint - 'Pairs: '.length)}`
      : 'BASE-COUNTER, e.g. BTC-SGD';
  blocks.push(
    input(
      INPUT.tradePair,
      'Pair',
      textInput(INPUT.tradePair, {
        placeholder: 'e.g. BTC-SGD',
        maxLength: 25,
        ...(v.pair ? { initial: v.pair } : {}),
        dispatchWhileTyping: true,
      }),
      {
        hint: pairsHint,
        dispatchAction: true,
      },
    ),
  );
  blocks.push(
    input(
      INPUT.tradeSide,
      'Side',
      radioButtons(INPUT.tradeSide, [option('Buy', 'buy'), option('Sell', 'sell')], v.side ?? 'buy'),
      { dispatchAction: true },
    ),
  );
  blocks.push(
    input(
      INPUT.tradeQuantity,
      'Quantity',
      textInput(INPUT.tradeQuantity, { placeholder: 'e.g. 0.5', maxLength: 40, dispatchWhileTyping: true }),
      { dispatchAction: true },
    ),
  );
  const [base = 'base asset', counter = 'counter currency'] = (v.pair ?? '').split('-').filter(Boolean);
  blocks.push(
    input(
      INPUT.tradeQuantityCurrency,
      'Quantity is in',
      radioButtons(
        INPUT.tradeQuantityCurrency,
        [option(`${base} (base)`, 'base'), option(`${counter} (counter)`, 'counter')],
        v.quantityIn ?? 'base',
      ),
      { dispatchAction: true },
    ),
  );
  const methods = (v.paymentMethods.length > 0 ? v.paymentMethods : [DEFAULT_PAYMENT_METHOD]).map((m) =>
    option(paymentMethodText(m), m),
  );
  // The quote is taken for a payment method too: changing it fetches a new one.
  blocks.push(
    input(
      INPUT.tradePaymentMethod,
      'Pay with',
      staticSelect(INPUT.tradePaymentMethod, methods, 'Payment method', DEFAULT_PAYMENT_METHOD),
      { dispatchAction: true },
    ),
  );
  blocks.push(...quoteBlocks(v.quote));
  blocks.push(
    input(
      INPUT.tradeLimitPrice,
      'Worst acceptable price',
      textInput(INPUT.tradeLimitPrice, { placeholder: 'a price in the counter currency', maxLength: 40 }),
      {
        optional: true,
        hint: 'Buy: the highest price you accept. Sell: the lowest. Give this or a slippage.',
      },
    ),
  );
  blocks.push(
    input(
      INPUT.tradeSlippage,
      'Or slippage from the indicative price, in %',
      textInput(INPUT.tradeSlippage, { placeholder: 'e.g. 0.5 for 0.5%', maxLength: 10 }),
      {
        optional: true,
        hint: v.approvalHint,
      },
    ),
  );
  return modal(blocks, {
    callbackId: CALLBACK.trade,
    title: 'Trade',
    submit: 'Ask for approval',
    privateMetadata: v.privateMetadata,
  });
}

function quoteBlocks(q: QuoteShown | undefined): KnownBlock[] {
  const refresh = actions([button(q ? 'Refresh quote' : 'Get a quote', ACTION.tradeRefreshQuote, 'refresh')]);
  if (!q)
    return [
      section('The indicative quote appears here once the pair and the quantity are filled in.', BLOCK.tradeQuote),
      refresh,
    ];
  if ('error' in q) return [section(`:warning: No quote: ${escapeMrkdwn(q.error, 1_000)}`, BLOCK.tradeQuote), refresh];
  const [, counter = ''] = q.pair.split('-');
  return [
    section(
      `Indicative: ${q.side} ${formatAmount(q.quantity, escapeMrkdwn(q.quantityCurrency, 20))} of ${escapeMrkdwn(q.pair, 30)} at *${formatAmount(q.price, escapeMrkdwn(counter, 20))}*`,
      BLOCK.tradeQuote,
    ),
    context([`This quote expires ${slackDate(q.expiresAt, '{time_secs}')}; the trade is re-quoted when it executes.`]),
    refresh,
  ];
}
