// Prices a request in a currency with the exchange's spot price, at request time. A request the policy
// needs the value of and that cannot be priced is refused, never taken as small.
import { refuse, type Refusal } from '../../domain/refusals.js';
import type { Snapshot } from '../../domain/request.js';
import { pairFor, principalOf, spotPrice, valuationAt, type Valuation } from '../../domain/valuation.js';
import { isExchangeError } from '../../ports/exchange-error.js';
import type { EngineContext } from '../context.js';

/** A valuation, null for a request that moves nothing (a bank account removal), or why it could not be priced. */
export type PriceResult = { ok: true; valuation: Valuation | null } | Refusal;

/** The value of `snapshot` in `currency`: its principal (fees apart) × the spot price of the pair. */
export async function priceRequest(ctx: EngineContext, snapshot: Snapshot, currency: string): Promise<PriceResult> {
  const principal = principalOf(snapshot);
  if (principal === undefined) return { ok: true, valuation: null };
  const at = ctx.clock.now();
  const pair = pairFor(principal.currency, currency);
  if (pair === undefined) return { ok: true, valuation: valuationAt(principal, currency, '1', at) };
  try {
    const quote = await ctx.exchange.spotPrice(principal.currency, currency);
    return { ok: true, valuation: valuationAt(principal, currency, spotPrice(quote), at) };
  } catch (err) {
    if (!isExchangeError(err)) throw err;
    return refuse(
      'not_priced',
      `The policy needs this request's value in ${currency}, and the exchange gave no spot price for ${pair} (${err.userMessage}). The request was not made.`,
    );
  }
}

/** Prices `snapshot` in each currency, stopping at the first that cannot be priced. */
export async function priceIn(
  ctx: EngineContext,
  snapshot: Snapshot,
  currencies: readonly string[],
): Promise<{ ok: true; valuations: Valuation[] } | Refusal> {
  const valuations: Valuation[] = [];
  for (const currency of new Set(currencies)) {
    const priced = await priceRequest(ctx, snapshot, currency);
    if (!priced.ok) return priced;
    if (priced.valuation !== null) valuations.push(priced.valuation);
  }
  return { ok: true, valuations };
}
