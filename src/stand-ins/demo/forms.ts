// What the demo's people type into modals, as view.state.values Slack sends, options read from the modal
// the bot drew, and the same values as the transcript shows them.
import { stateOf, type StateValues } from '../fake-slack/slack-requests.js';
import { dynamicBlockId, INPUT } from '../../bot/slack/kit/slack-ids.js';
import { isObject } from './render.js';

export interface PickedOption {
  value: string;
  text: string;
}

/** The option of the select with `actionId` in `view` whose text starts with `textStart`. */
export function pickOption(view: Record<string, unknown>, actionId: string, textStart: string): PickedOption {
  const blocks = Array.isArray(view.blocks) ? view.blocks.filter(isObject) : [];
  for (const b of blocks) {
    const el = b.element;
    if (!isObject(el) || el.action_id !== actionId || !Array.isArray(el.options)) continue;
    for (const o of el.options.filter(isObject)) {
      const text = isObject(o.text) ? String(o.text.text) : '';
      if (text.startsWith(textStart)) return { value: String(o.value), text };
    }
  }
  throw new Error(`the modal offers no "${textStart}…" in ${actionId}`);
}

export interface CryptoWithdrawalInput {
  entry: PickedOption;
  destination?: PickedOption;
  amount?: string;
  purpose?: string;
  note?: string;
}

/** The crypto withdrawal form's state: the entry, then the destination select of that entry, amount, purpose, note. */
export function cryptoWithdrawalValues(f: CryptoWithdrawalInput): StateValues {
  const entryId = Number(f.entry.value);
  return {
    [INPUT.withdrawEntry]: { [INPUT.withdrawEntry]: stateOf.select(f.entry.value) },
    ...(f.destination
      ? {
          [dynamicBlockId.withdrawDestination(entryId)]: {
            [INPUT.withdrawDestination]: stateOf.select(f.destination.value),
          },
        }
      : {}),
    ...(f.amount !== undefined ? { [INPUT.withdrawAmount]: { [INPUT.withdrawAmount]: stateOf.text(f.amount) } } : {}),
    ...(f.purpose !== undefined
      ? { [INPUT.withdrawPurpose]: { [INPUT.withdrawPurpose]: stateOf.text(f.purpose) } }
      : {}),
    ...(f.note !== undefined ? { [INPUT.withdrawNote]: { [INPUT.withdrawNote]: stateOf.text(f.note) } } : {}),
  };
}

/** The same, as the person sees the fields filled (block id -> shown value). */
export function cryptoWithdrawalShown(f: CryptoWithdrawalInput): Map<string, string> {
  const shown = new Map<string, string>([[INPUT.withdrawEntry, f.entry.text]]);
  if (f.destination) shown.set(dynamicBlockId.withdrawDestination(Number(f.entry.value)), f.destination.text);
  if (f.amount !== undefined) shown.set(INPUT.withdrawAmount, f.amount);
  if (f.purpose !== undefined) shown.set(INPUT.withdrawPurpose, f.purpose);
  if (f.note !== undefined) shown.set(INPUT.withdrawNote, f.note);
  return shown;
}

export interface TradeInput {
  pair: string;
  side: 'buy' | 'sell';
  quantity: string;
  quantityIn: 'base' | 'counter';
  paymentMethod: string;
  /** Percent, as the form asks ("0.5" for 50 bps). */
  slippagePercent?: string;
  limitPrice?: string;
}

export function tradeValues(t: TradeInput): StateValues {
  return {
    [INPUT.tradePair]: { [INPUT.tradePair]: stateOf.text(t.pair) },
    [INPUT.tradeSide]: { [INPUT.tradeSide]: stateOf.radio(t.side) },
    [INPUT.tradeQuantity]: { [INPUT.tradeQuantity]: stateOf.text(t.quantity) },
    [INPUT.tradeQuantityCurrency]: { [INPUT.tradeQuantityCurrency]: stateOf.radio(t.quantityIn) },
    [INPUT.tradePaymentMethod]: { [INPUT.tradePaymentMethod]: stateOf.select(t.paymentMethod) },
    ...(t.limitPrice !== undefined
      ? { [INPUT.tradeLimitPrice]: { [INPUT.tradeLimitPrice]: stateOf.text(t.limitPrice) } }
      : {}),
    ...(t.slippagePercent !== undefined
      ? { [INPUT.tradeSlippage]: { [INPUT.tradeSlippage]: stateOf.text(t.slippagePercent) } }
      : {}),
  };
}

/** The trade form as the person sees it filled (radio and select values are the view's own labels, so only text fields). */
export function tradeShown(t: TradeInput): Map<string, string> {
  const shown = new Map<string, string>([
    [INPUT.tradePair, t.pair],
    [INPUT.tradeQuantity, t.quantity],
  ]);
  if (t.limitPrice !== undefined) shown.set(INPUT.tradeLimitPrice, t.limitPrice);
  if (t.slippagePercent !== undefined) shown.set(INPUT.tradeSlippage, t.slippagePercent);
  return shown;
}
