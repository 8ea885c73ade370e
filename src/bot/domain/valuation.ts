// The value of a request in a currency C: its principal (fees apart) times the exchange's spot price
// of the pair principal-C, read at request time and frozen in the snapshot. Pure arithmetic here;
// the read is engine/approval/price-request.ts.
import { cmp, gte, mul, normalize } from './money.js';
import { quantityCurrencyOf, type Snapshot, type Valuation } from './request.js';

export type { Valuation };

/** What a request moves, fees apart, in one currency: what is valued. */
export interface Principal {
  amount: string;
  currency: string;
}

/** The spot read of a pair (both sides, as the exchange quotes them). */
export interface SpotQuote {
  buy: string;
  sell: string;
}

/**
 * A withdrawal's amount in its asset; a trade's quantity in the currency it is given in (a buy of
 * 1000 USD of BTC is worth 1000 USD). A bank account removal moves nothing: undefined.
 */
export function principalOf(snapshot: Snapshot): Principal | undefined {
  switch (snapshot.kind) {
    case 'crypto_withdrawal':
      return { amount: snapshot.amount, currency: snapshot.asset };
    case 'fiat_withdrawal':
      return { amount: snapshot.amount, currency: snapshot.currency };
    case 'trade':
      return { amount: snapshot.quantity, currency: quantityCurrencyOf(snapshot) };
    case 'bank_account_removal':
      return undefined;
  }
}

/** The exchange's pair for pricing `of` in `currency` (BASE-COUNTER); undefined when no price is needed. */
export function pairFor(of: string, currency: string): string | undefined {
  return of === currency ? undefined : `${of}-${currency}`;
}

/**
 * The higher of the two sides: a request is valued high, so the spread never makes it look small
 * enough to pass under a rule's `value_at_least`.
 */
export function spotPrice(quote: SpotQuote): string {
  return normalize(cmp(quote.buy, quote.sell) >= 0 ? quote.buy : quote.sell);
}

/** `principal` in `currency` at `price` (one unit of the principal's currency, in `currency`). */
export function valuationAt(principal: Principal, currency: string, price: string, at: number): Valuation {
  const pair = pairFor(principal.currency, currency) ?? null;
  const unit = pair === null ? '1' : normalize(price);
  return {
    currency,
    value: normalize(mul(principal.amount, unit)),
    amount: normalize(principal.amount),
    of: principal.currency,
    price: unit,
    pair,
    at,
  };
}

/** The value frozen in the snapshot in `currency`, if it was priced in it. */
export function valuationIn(snapshot: Snapshot, currency: string): Valuation | undefined {
  if (snapshot.kind === 'bank_account_removal') return undefined;
  return snapshot.valuations?.find((v) => v.currency === currency);
}

/** The snapshot with these valuations frozen in it (replacing any in the same currencies). */
export function withValuations(snapshot: Snapshot, valuations: readonly Valuation[]): Snapshot {
  if (snapshot.kind === 'bank_account_removal' || valuations.length === 0) return snapshot;
  const kept = (snapshot.valuations ?? []).filter((v) => !valuations.some((n) => n.currency === v.currency));
  return { ...snapshot, valuations: [...kept, ...valuations] };
}

/** True when the frozen value in `currency` is at least `amount`; undefined when it was never priced in it. */
export function valueAtLeast(snapshot: Snapshot, amount: string, currency: string): boolean | undefined {
  const valuation = valuationIn(snapshot, currency);
  return valuation === undefined ? undefined : gte(valuation.value, amount);
}
