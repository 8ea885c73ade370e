/**
 * Executing an approved trade. Holding the quote key (nobody else quotes on it meanwhile):
 *   - the approvers' quote still has more than the safety margin left, is not superseded and was
 *     never ordered on, and its price is within the limit: order on it;
 *   - otherwise re-quote (a fresh, freshly signed quote): within the limit, order at once;
 *   - beyond the limit: nothing is executed; a new approval round starts at the new price.
 */
import { newRound, orderKeyFor, type DeskRequest } from '../domain/record.js';
import { limitFromSlippage, quoteKey, withinLimit, type IndicativeQuote, type TradeSnapshot } from '../domain/request.js';
import { isExchangeError, type ExchangeError } from '../exchange/errors.js';
import { sendAttempt, type AttemptPlan } from './attempt.js';
import { audit, emit, persistStep, SYSTEM, type EngineContext } from './context.js';
import type { EventInput, RequoteReason } from './events.js';
import { retryLater } from './execute-transfer.js';
import { markFailed } from './outcomes.js';
import { quoteHoldingKey } from './quotes.js';

export function executeTrade(ctx: EngineContext, request: DeskRequest): Promise<boolean> {
  const trade = request.snapshot as TradeSnapshot;
  return ctx.quotes.withKey(quoteKey(trade), () => executeHoldingKey(ctx, request, trade));
}

async function executeHoldingKey(ctx: EngineContext, request: DeskRequest, trade: TradeSnapshot): Promise<boolean> {
  let choice: QuoteChoice;
  try {
    choice = await chooseQuote(ctx, request, trade);
  } catch (err) {
    if (!isExchangeError(err)) throw err;
    await quoteFailed(ctx, request, err);
    return false;
  }
  if (choice.problem !== null) emit(ctx, request, requotedEvent(trade, choice));
  if (!withinLimit(trade.side, choice.quote.price, trade.limitPrice)) {
    await askReapproval(ctx, request, trade, choice.quote);
    return false;
  }
  return sendAttempt(ctx, request, 'approved', orderPlan(ctx, request, choice));
}

/** The quote to order on, and why it is not the approvers' one (null when it is). */
export interface QuoteChoice {
  quote: IndicativeQuote;
  problem: RequoteReason | null;
  /** The quote it replaces. */
  previous: IndicativeQuote;
}

/**
 * The approvers' quote if it can still be ordered on, else a fresh one. The caller holds the
 * quote key. Exchange errors of the re-quote are thrown (nothing was ordered).
 */
export async function chooseQuote(ctx: EngineContext, request: DeskRequest, trade: TradeSnapshot): Promise<QuoteChoice> {
  const previous = request.execution?.attempts.at(-1)?.quote ?? trade.quote;
  const problem = quoteProblem(ctx, request, trade, trade.quote);
  if (problem === null) return { quote: trade.quote, problem, previous };
  return { quote: await quoteHoldingKey(ctx, trade), problem, previous };
}

export function orderPlan(ctx: EngineContext, request: DeskRequest, choice: QuoteChoice): AttemptPlan {
  return { key: orderKeyFor(request, () => ctx.ids.uuid()), quote: choice.quote, quoteNote: choice.problem === null ? 'approvers quote' : `re-quoted: ${choice.problem}` };
}

export function requotedEvent(trade: TradeSnapshot, choice: QuoteChoice): EventInput {
  return {
    type: 'trade.requoted',
    reason: choice.problem ?? 'expired',
    oldPrice: choice.previous.price,
    newPrice: choice.quote.price,
    limitPrice: trade.limitPrice,
    withinLimit: withinLimit(trade.side, choice.quote.price, trade.limitPrice),
    expiresAt: choice.quote.expiresAt,
  };
}

/** Why the approvers' quote cannot be ordered on now, or null when it can. */
function quoteProblem(ctx: EngineContext, request: DeskRequest, trade: TradeSnapshot, quote: IndicativeQuote): RequoteReason | null {
  const attempts = request.execution?.attempts ?? [];
  // After an unknown outcome whose order never appeared, the quote died meanwhile: "expired".
  if (attempts.length > 0) return { quote_unusable: 'unusable', unknown: 'expired' }[attempts.at(-1)!.outcome as string] as RequoteReason | undefined ?? 'used';
  if (ctx.quotes.isSuperseded(quoteKey(trade), quote.quoteId)) return 'superseded';
  const left = quote.expiresAt - ctx.clock.now();
  if (left <= 0) return 'expired';
  if (left <= ctx.config.quoteSafetyMarginMs) return 'expiring';
  return null;
}

/** A re-quote failed (nothing was ordered): an approved trade asks again later, or fails on a refusal. */
export async function quoteFailed(ctx: EngineContext, request: DeskRequest, err: ExchangeError): Promise<void> {
  if (err.outcomeUnknown || err.kind === 'rate_limited') {
    await retryLater(ctx, request, 'quote', err);
    return;
  }
  await markFailed(ctx, request, ['approved'], { stage: 'quote', reason: `The exchange refused a new quote: ${err.userMessage}`, exchangeMessage: err.messages.join('; ') || null });
}

/**
 * The terms of a new approval round at `quote`. The proposed limit keeps the requester's
 * slippage, or applies the configured one to a limit that was given as a price.
 */
export function reapprovalSnapshot(ctx: EngineContext, trade: TradeSnapshot, quote: IndicativeQuote): TradeSnapshot {
  const bps = trade.slippageBps ?? ctx.config.reapprovalSlippageBps;
  return { ...trade, quote, limitPrice: limitFromSlippage(trade.side, quote.price, bps) };
}

/** The price moved beyond what the approvers accepted: the request goes back for a new round at the new price. */
async function askReapproval(ctx: EngineContext, request: DeskRequest, trade: TradeSnapshot, quote: IndicativeQuote): Promise<void> {
  const snapshot = reapprovalSnapshot(ctx, trade, quote);
  const now = ctx.clock.now();
  const waiting = await persistStep(ctx, request.id, ['approved'], 'ask_reapproval', (current) => newRound(current, snapshot, now, ctx.policy));
  if (waiting !== undefined) await reportReapproval(ctx, waiting, trade);
}

/** Audits and announces a new approval round (the record is already persisted). */
export function reportReapproval(ctx: EngineContext, waiting: DeskRequest, previous: TradeSnapshot): Promise<void> {
  const now = waiting.snapshot as TradeSnapshot;
  emit(ctx, waiting, { type: 'trade.awaiting_reapproval', price: now.quote.price, oldLimitPrice: previous.limitPrice, newLimitPrice: now.limitPrice, snapshotHash: waiting.snapshotHash });
  return audit(ctx, 'trade.awaiting_reapproval', SYSTEM, waiting.id, {
    price: now.quote.price,
    quoteId: now.quote.quoteId,
    oldLimitPrice: previous.limitPrice,
    newLimitPrice: now.limitPrice,
    round: waiting.round,
    snapshotHash: waiting.snapshotHash,
  });
}
