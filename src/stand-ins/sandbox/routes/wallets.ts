/** GET /crypto_wallets: known wallets and exchanges, fuzzy `name` search. */
import { fuzzySearch } from '../fuzzy.js';
import { ok, type Route } from '../router.js';

export const walletRoutes: Route[] = [
  {
    method: 'GET',
    path: '/crypto_wallets',
    auth: 'key',
    handler: ({ state, query }) => {
      const name = query.get('name');
      const items = name === null || name.trim() === '' ? state.wallets : fuzzySearch(state.wallets, name);
      return ok(items.map((w) => ({ ...w })));
    },
  },
];
