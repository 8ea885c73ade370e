/** Balances and bank accounts (reference endpoints 2, 3, 4). */
import { z } from 'zod';
import { cursorItems, withPage, type CursorListOptions } from '../pagination.js';
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
      const operation = 'listBankAccounts';
      return cursorItems(
        operation,
        (page) =>
          call({
            operation,
            method: 'GET',
            path: '/bank_accounts',
            query: withPage({ currency: query?.currency }, page),
            response: bankAccounts,
          }),
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
