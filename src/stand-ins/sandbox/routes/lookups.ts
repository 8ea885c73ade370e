/** GET /crypto_currency_networks and GET /crypto_currencies (workflow-guide lookups). */
import { presentCurrencyEntry, presentNetwork } from '../present.js';
import { ok, type Route } from '../router.js';

export const lookupRoutes: Route[] = [
  {
    method: 'GET',
    path: '/crypto_currency_networks',
    auth: 'key',
    handler: ({ state }) => ok(state.networks.map(presentNetwork)),
  },
  {
    method: 'GET',
    path: '/crypto_currencies',
    auth: 'key',
    handler: ({ state }) => ok(state.currencies.map((e) => presentCurrencyEntry(state, e))),
  },
];
