/** GET /accounts/balances: aggregated per asset, only assets with a non-zero total. */
import { add, isZero } from '../../../bot/domain/money.js';
import { presentBalance } from '../present.js';
import { ok, type Route } from '../router.js';

export const balanceRoutes: Route[] = [
  {
    method: 'GET',
    path: '/accounts/balances',
    auth: 'key',
    handler: ({ account, query }) => {
      const only = query.get('currency');
      const items = [...account.balances.entries()]
        .filter(([symbol]) => only === null || symbol === only.toUpperCase())
        .filter(([, b]) => !isZero(add(add(b.regular, b.orders), b.alternative_products)))
        .map(([symbol, b]) => presentBalance(symbol, b));
      return ok(items);
    },
  },
];
