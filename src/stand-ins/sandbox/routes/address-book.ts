/** GET /address_book/addresses: saved destinations, cursor pages (X-Next-Page). */
import { cursorPage } from '../pagination.js';
import { presentAddress } from '../present.js';
import { ok, type Route } from '../router.js';

export const addressBookRoutes: Route[] = [
  {
    method: 'GET',
    path: '/address_book/addresses',
    auth: 'key',
    handler: ({ state, account, query }) => {
      const page = cursorPage(account.addressBook, query, (a) => a.id);
      return ok(
        page.items.map((a) => presentAddress(state, a)),
        page.headers,
      );
    },
  },
];
