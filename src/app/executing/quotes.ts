/**
 * Taking quotes: always through the quote book, so a new quote on a key waits for whoever is
 * quoting-and-ordering on it, and is recorded as the key's newest.
 */
import { normalize } from '../../domain/money.js';
import { quoteKey, type IndicativeQuote, type TradeSnapshot } from '../../domain/request.js';
import type { CreateQuoteBody } from '../../exchange/schemas.js';
import type { EngineContext } from '../context.js';

export type QuoteTerms = Pick<TradeSnapshot, 'symbol' | 'side' | 'quantity' | 'quantityCurrency' | 'paymentMethod'>;

/** Takes the key's lock, then a fresh quote. */
export function takeQuote(ctx: EngineContext, terms: QuoteTerms): Promise<IndicativeQuote> {
  return ctx.quotes.withKey(quoteKey(terms), () => quoteHoldingKey(ctx, terms));
}

/** A fresh quote, for a caller that already holds the key's lock. */
export async function quoteHoldingKey(ctx: EngineContext, terms: QuoteTerms): Promise<IndicativeQuote> {
  const body: CreateQuoteBody = { symbol: terms.symbol, side: terms.side, quantity: terms.quantity, payment_method: terms.paymentMethod };
  if (terms.quantityCurrency !== null) body.currency = terms.quantityCurrency;
  const quote = await ctx.exchange.createQuote(body);
  ctx.quotes.taken(quoteKey(terms), quote.quote_id);
  return { quoteId: quote.quote_id, price: normalize(quote.locked_price), expiresAt: quote.expires_at };
}
