// POST /order_quotes: a price locked until expires_at. A newer quote for the same account, quantity, pair
// and payment method supersedes older ones (reference "Quote usability").
import { div, isZero, mul, normalize, roundDown, roundUp } from '../../../bot/domain/money.js';
import { PAYMENT_METHODS } from '../../../bot/exchange/assumptions.js';
import { createQuoteBody } from '../../../bot/exchange/schemas.js';
import { pairSpec, quotedPrice } from '../prices.js';
import { presentQuote } from '../present.js';
import { created, fail, validate, type Route } from '../router.js';
import { assetBySymbol, type QuoteRecord } from '../state.js';

export const quoteRoutes: Route[] = [
  {
    method: 'POST',
    path: '/order_quotes',
    auth: 'key',
    scope: 'trade',
    handler: ({ state, account, body, now, settings }) => {
      const req = validate(createQuoteBody, body);
      const spec = pairSpec(state.prices, req.symbol);
      if (!spec) fail(422, `Unknown symbol ${req.symbol}`);
      if (!(PAYMENT_METHODS as readonly string[]).includes(req.payment_method)) {
        fail(422, `Unsupported payment_method ${req.payment_method}: use ${PAYMENT_METHODS.join(', ')}`);
      }
      // Reference rule 1: quantity defaults to the counter currency for a buy, the base for a sell.
      const currency = (req.currency ?? (req.side === 'buy' ? spec.counter : spec.base)).toUpperCase();
      if (currency !== spec.base && currency !== spec.counter)
        fail(422, `currency must be ${spec.base} or ${spec.counter} for ${spec.symbol}`);
      const basePrecision = assetBySymbol(state, spec.base)!.precision;
      const counterPrecision = assetBySymbol(state, spec.counter)!.precision;
      const price = quotedPrice(state.prices, spec.symbol, req.side, now);
      let baseAmount: string;
      let counterAmount: string;
      if (currency === spec.base) {
        baseAmount = roundDown(req.quantity, basePrecision);
        const value = mul(baseAmount, price);
        // The desk never rounds in its own favour against the house: buyers pay up, sellers get down.
        counterAmount = req.side === 'buy' ? roundUp(value, counterPrecision) : roundDown(value, counterPrecision);
      } else {
        counterAmount = roundDown(req.quantity, counterPrecision);
        baseAmount = div(counterAmount, price, basePrecision);
      }
      if (isZero(baseAmount) || isZero(counterAmount))
        fail(422, `Quantity ${req.quantity} ${currency} is too small to trade`);
      const quantity = normalize(req.quantity);
      const q: QuoteRecord = {
        quote_id: state.rng.uuid(),
        account: account.name,
        symbol: spec.symbol,
        base: spec.base,
        counter: spec.counter,
        side: req.side,
        quantity,
        currency,
        payment_method: req.payment_method,
        locked_price: price,
        baseAmount,
        counterAmount,
        created_at: now,
        expires_at: now + settings.quoteLifetimeMs,
        supersededBy: null,
        usedByOrder: null,
      };
      for (const older of account.quotes) {
        const same =
          older.symbol === q.symbol &&
          older.quantity === q.quantity &&
          older.currency === q.currency &&
          older.payment_method === q.payment_method;
        if (same && older.supersededBy === null) older.supersededBy = q.quote_id;
      }
      account.quotes.push(q);
      return created(presentQuote(q));
    },
  },
];
