// GET /price/spots: the unauthenticated spot read seen in a third-party client (api-facts.md), from the quotes' walk.
import { pairSpec, quotedPrice } from '../prices.js';
import { fail, ok, type Route } from '../router.js';

export const priceRoutes: Route[] = [
  {
    method: 'GET',
    path: '/price/spots',
    auth: 'public',
    handler: ({ state, query, now }) => {
      const base = query.get('base_currency')?.toUpperCase();
      const counter = query.get('counter_currency')?.toUpperCase();
      if (!base || !counter) fail(422, 'base_currency and counter_currency are required');
      const symbol = `${base}-${counter}`;
      if (!pairSpec(state.prices, symbol)) fail(404, `No price for ${symbol}`);
      return ok({
        symbol,
        buy_price: quotedPrice(state.prices, symbol, 'buy', now),
        sell_price: quotedPrice(state.prices, symbol, 'sell', now),
      });
    },
  },
];
