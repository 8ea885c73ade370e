// Submit checks of the trade modal. Quantity, price and a slippage's limit are the domain's to judge; this
// puts its answers under the fields.
import { decimalPlaces, gt, isZero, lt, mul, normalize } from '../../domain/money.js';
import { checkLimitPrice, checkTradeQuantity, limitFromSlippage } from '../../domain/request.js';
import { formatAmount } from '../kit/format.js';
import { INPUT } from '../kit/slack-ids.js';
import { LIMITS } from '../kit/limits.js';
import { joinWithMore } from '../kit/cut-lists.js';
import { invalid, valid, type Checked, type FieldErrors } from '../request-forms/field-errors.js';

const PAIR = /^[A-Z0-9]{2,12}-[A-Z0-9]{2,12}$/;
/** Where an unknown pair's error sends the reader when it could not name every pair. */
const UNDER_PAIR = ' The hint under Pair lists them.';

/** Slippage above this is refused as a likely typo; a wider limit can be given as a price. */
export const MAX_SLIPPAGE_PERCENT = 10;
/** A price limit this far from the indicative price (as a ratio) is refused as a likely typo. */
export const MAX_LIMIT_DISTANCE = '0.5';

/** "btc/sgd", "BTC sgd", "btcsgd" (when a known pair) -> "BTC-SGD", or a plain-words error. */
export function parsePair(
  text: string | null | undefined,
  knownPairs: readonly string[],
): { ok: true; pair: string } | { ok: false; error: string } {
  const t = (text ?? '').trim().toUpperCase();
  if (t === '') return { ok: false, error: 'Enter a pair such as BTC-SGD.' };
  let pair = t.replace(/\s*[-/ _:]\s*/, '-');
  if (!pair.includes('-')) pair = knownPairs.find((p) => p.replace('-', '') === pair) ?? pair;
  if (!PAIR.test(pair)) return { ok: false, error: 'Write the pair as BASE-COUNTER, e.g. BTC-SGD.' };
  const [base, counter] = pair.split('-');
  if (base === counter) return { ok: false, error: 'The two sides of a pair must differ.' };
  if (knownPairs.length > 0 && !knownPairs.includes(pair)) {
    const lead = `Unknown pair ${pair}. The desk trades `;
    const listed = joinWithMore(knownPairs, LIMITS.fieldError - lead.length - UNDER_PAIR.length - 1);
    return { ok: false, error: `${lead}${listed}.${listed.endsWith(' more') ? UNDER_PAIR : ''}` };
  }
  return { ok: true, pair };
}

/** "0.5" or "0.5%" -> 50 basis points. */
export function parseSlippage(text: string): { ok: true; bps: number } | { ok: false; error: string } {
  const t = text.trim().replace(/\s*%$/, '');
  if (!/^\d{0,3}(\.\d*)?$/.test(t) || t === '' || t === '.')
    return { ok: false, error: 'Give the slippage as a percentage, e.g. 0.5 for 0.5%.' };
  const value = normalize(t.startsWith('.') ? `0${t}` : t.replace(/\.$/, ''));
  if (isZero(value)) return { ok: false, error: 'The slippage must be more than 0%.' };
  if (decimalPlaces(value) > 2) return { ok: false, error: 'Slippage goes to two decimals (0.01% steps), e.g. 0.25.' };
  if (gt(value, String(MAX_SLIPPAGE_PERCENT)))
    return {
      ok: false,
      error: `Slippage over ${MAX_SLIPPAGE_PERCENT}% is refused; give a worst price instead if you mean it.`,
    };
  // value has at most two decimals, so value * 100 is a whole number of basis points.
  return { ok: true, bps: Number(mul(value, '100')) };
}

export interface TradeLimitInput {
  side: 'buy' | 'sell';
  limitText?: string | undefined;
  slippageText?: string | undefined;
  /** The indicative price shown; needed for slippage and for sanity checks of a price. */
  indicativePrice?: string | undefined;
  counter: string;
}

export interface TradeLimit {
  limitPrice: string;
  slippageBps?: number;
}

/** The worst acceptable price from either field; errors sit under the field at fault. */
export function checkTradeLimit(i: TradeLimitInput): Checked<TradeLimit> {
  const limitText = i.limitText?.trim() ?? '';
  const slippageText = i.slippageText?.trim() ?? '';
  if (limitText === '' && slippageText === '')
    return invalid({ [INPUT.tradeLimitPrice]: 'Give a worst acceptable price, or a slippage below.' });
  if (limitText !== '' && slippageText !== '')
    return invalid({ [INPUT.tradeSlippage]: 'Give a worst price or a slippage, not both.' });

  if (slippageText !== '') {
    const s = parseSlippage(slippageText);
    if (!s.ok) return invalid({ [INPUT.tradeSlippage]: s.error });
    if (!i.indicativePrice)
      return invalid({ [INPUT.tradeSlippage]: 'Get a quote first: slippage is measured from the indicative price.' });
    const limitPrice = limitFromSlippage(i.side, i.indicativePrice, s.bps);
    return valid({ limitPrice, slippageBps: s.bps });
  }

  const price = checkLimitPrice(limitText, i.counter);
  if (!price.ok) return invalid({ [INPUT.tradeLimitPrice]: price.error });
  const limit = price.amount;
  const ref = i.indicativePrice;
  if (ref) {
    const shown = formatAmount(ref, i.counter);
    if (i.side === 'buy' && lt(limit, ref)) {
      return invalid({
        [INPUT.tradeLimitPrice]: `A buy limit under the indicative price (${shown}) would not execute. Give a higher price or a slippage.`,
      });
    }
    if (i.side === 'sell' && gt(limit, ref)) {
      return invalid({
        [INPUT.tradeLimitPrice]: `A sell limit over the indicative price (${shown}) would not execute. Give a lower price or a slippage.`,
      });
    }
    const far = i.side === 'buy' ? gt(limit, mul(ref, '1.5')) : lt(limit, mul(ref, '0.5'));
    if (far)
      return invalid({
        [INPUT.tradeLimitPrice]: `That is more than ${Number(MAX_LIMIT_DISTANCE) * 100}% away from the indicative price (${shown}). Check for a typo.`,
      });
  }
  return valid({ limitPrice: limit });
}

export interface TradeInput extends TradeLimitInput {
  pairText: string | undefined;
  knownPairs: readonly string[];
  quantityText: string | undefined;
  quantityIn: 'base' | 'counter';
  paymentMethod: string | undefined;
}

export interface TradeChecked extends TradeLimit {
  pair: string;
  side: 'buy' | 'sell';
  quantity: string;
  quantityCurrency: string;
  paymentMethod: string;
}

export function checkTrade(i: TradeInput): Checked<TradeChecked> {
  const errors: FieldErrors = {};
  const pair = parsePair(i.pairText, i.knownPairs);
  if (!pair.ok) errors[INPUT.tradePair] = pair.error;
  const [base = '', counter = ''] = pair.ok ? pair.pair.split('-') : [];
  const quantityCurrency = i.quantityIn === 'base' ? base : counter;
  const quantity = checkTradeQuantity(i.quantityText, quantityCurrency);
  if (!quantity.ok) errors[INPUT.tradeQuantity] = quantity.error;
  const limit = checkTradeLimit({ ...i, counter: counter || i.counter });
  if (!limit.ok) Object.assign(errors, limit.errors);
  if (!i.paymentMethod) errors[INPUT.tradePaymentMethod] = 'Choose how to pay.';
  if (!pair.ok || !quantity.ok || !limit.ok || !i.paymentMethod || Object.keys(errors).length > 0)
    return invalid(errors);
  return valid({
    pair: pair.pair,
    side: i.side,
    quantity: quantity.amount,
    quantityCurrency,
    paymentMethod: i.paymentMethod,
    ...limit.value,
  });
}
