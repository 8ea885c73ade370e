// Quotes are always taken through the quote book, so a new one waits for whoever is quoting-and-ordering
// on its key, and becomes the key's newest.
import { quoteKey, type IndicativeQuote } from '../../domain/request.js';
import type { QuoteTerms } from '../../ports/exchange-port.js';
import type { EngineContext } from '../context.js';
import { quoteBookOf } from './quote-book.js';

/** Takes the key's lock, then a fresh quote. */
export function takeQuote(ctx: EngineContext, terms: QuoteTerms): Promise<IndicativeQuote> {
  return quoteBookOf(ctx).withKey(quoteKey(terms), () => quoteHoldingKey(ctx, terms));
}

/** A fresh quote, for a caller that already holds the key's lock. */
export async function quoteHoldingKey(ctx: EngineContext, terms: QuoteTerms): Promise<IndicativeQuote> {
  const quote = await ctx.exchange.quote(terms);
  quoteBookOf(ctx).taken(quoteKey(terms), quote.quoteId);
  return quote;
}
