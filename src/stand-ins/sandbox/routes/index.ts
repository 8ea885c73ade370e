/** Every public API route of the sandbox, one group per file. */
import type { Route } from '../router.js';
import { addressBookRoutes } from './address-book.js';
import { balanceRoutes } from './balances.js';
import { bankAccountRoutes } from './bank-accounts.js';
import { counterpartyRoutes } from './counterparty.js';
import { depositRoutes } from './deposits.js';
import { fiatRoutes } from './fiat.js';
import { lookupRoutes } from './lookups.js';
import { orderRoutes } from './orders.js';
import { priceRoutes } from './prices.js';
import { quoteRoutes } from './quotes.js';
import { walletRoutes } from './wallets.js';
import { withdrawalRoutes } from './withdrawals.js';

export const ROUTES: readonly Route[] = [
  ...balanceRoutes,
  ...bankAccountRoutes,
  ...depositRoutes,
  ...withdrawalRoutes,
  ...walletRoutes,
  ...fiatRoutes,
  ...counterpartyRoutes,
  ...lookupRoutes,
  ...addressBookRoutes,
  ...quoteRoutes,
  ...orderRoutes,
  ...priceRoutes,
];
