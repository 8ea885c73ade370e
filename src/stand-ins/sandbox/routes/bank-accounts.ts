/** GET /bank_accounts (cursor pages, currency filter) and DELETE /bank_accounts/{id}. */
import { BANK_CURRENCIES } from '../../../bot/exchange/assumptions.js';
import { cursorPage } from '../pagination.js';
import { presentBankAccount } from '../present.js';
import { fail, noContent, ok, type Route } from '../router.js';

export const bankAccountRoutes: Route[] = [
  {
    method: 'GET',
    path: '/bank_accounts',
    auth: 'key',
    handler: ({ account, query }) => {
      const currency = query.get('currency');
      if (currency !== null && !(BANK_CURRENCIES as readonly string[]).includes(currency)) {
        fail(422, `currency must be one of ${BANK_CURRENCIES.join(', ')}`);
      }
      const items = account.bankAccounts.filter((b) => currency === null || b.currency === currency);
      const page = cursorPage(items, query, (b) => String(b.id));
      return ok(page.items.map(presentBankAccount), page.headers);
    },
  },
  {
    method: 'DELETE',
    path: '/bank_accounts/:id',
    auth: 'key',
    handler: ({ account, params }) => {
      const index = account.bankAccounts.findIndex((b) => String(b.id) === params.id);
      if (index < 0) fail(404, 'Bank account not found');
      account.bankAccounts.splice(index, 1);
      return noContent();
    },
  },
];
