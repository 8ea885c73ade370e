/** Balances and bank accounts (reference endpoints 2, 3, 4). */
import { z } from 'zod';
import { pagedList, type CursorListOptions } from '../pagination.js';
import { balance, bankAccount, type Balance, type BankAccount } from '../schemas.js';
import type { Call } from '../transport.js';

const balances = z.array(balance);
const bankAccounts = z.array(bankAccount);

/** Operations on balances and bank accounts, over one bound transport. */
export function accountsOperations(call: Call) {
  return {
    /** GET /accounts/balances: non-zero balances, optionally of one asset. */
    async listBalances(query?: { currency?: string }): Promise<Balance[]> {
      const res = await call({
        operation: 'listBalances',
        method: 'GET',
        path: '/accounts/balances',
        query: { currency: query?.currency },
        response: balances,
      });
      return res.data;
    },

    /** GET /bank_accounts, cursor-paged. */
    listBankAccounts(
      query?: { currency?: string },
      opts?: CursorListOptions,
    ): AsyncGenerator<BankAccount, void, undefined> {
      return pagedList(
        call,
        {
          operation: 'listBankAccounts',
          path: '/bank_accounts',
          response: bankAccounts,
          paging: 'cursor',
          filters: { currency: query?.currency },
        },
        opts,
      );
    },

    /** DELETE /bank_accounts/{id}: 204, no body. */
    async deleteBankAccount(id: string): Promise<void> {
      await call({
        operation: 'deleteBankAccount',
        method: 'DELETE',
        path: '/bank_accounts/{id}',
        params: { id },
        response: null,
      });
    },
  };
}
