/** GET /crypto/deposits: newest first, created_at_after/before filters, cursor pages. */
import { cursorPage, newestFirst, timeParam } from '../pagination.js';
import { presentDeposit } from '../present.js';
import { ok, type Route } from '../router.js';

export const depositRoutes: Route[] = [
  {
    method: 'GET',
    path: '/crypto/deposits',
    auth: 'key',
    handler: ({ state, account, query }) => {
      const after = timeParam(query, 'created_at_after');
      const before = timeParam(query, 'created_at_before');
      const items = newestFirst(account.deposits, (d) => d.id).filter(
        (d) => (after === undefined || d.created_at > after) && (before === undefined || d.created_at < before),
      );
      const page = cursorPage(items, query, (d) => d.id);
      return ok(
        page.items.map((d) => presentDeposit(state, d)),
        page.headers,
      );
    },
  },
];
