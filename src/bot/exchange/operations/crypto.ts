/** Crypto deposits and withdrawals (reference endpoints 5, 6, 7, 8). */
import { z } from 'zod';
import { pagedList, type CursorListOptions } from '../pagination.js';
import {
  createCryptoWithdrawalBody,
  cryptoDeposit,
  cryptoWithdrawal,
  cryptoWithdrawalListItem,
  type CreateCryptoWithdrawalBody,
  type CryptoDeposit,
  type CryptoWithdrawal,
  type CryptoWithdrawalListItem,
} from '../schemas.js';
import type { Call } from '../transport.js';

const deposits = z.array(cryptoDeposit);
const withdrawals = z.array(cryptoWithdrawalListItem);

/** Operations on crypto deposits and withdrawals, over one bound transport. */
export function cryptoOperations(call: Call) {
  return {
    /** GET /crypto/deposits, cursor-paged; bounds in epoch ms. */
    listCryptoDeposits(
      query?: { created_at_after?: number; created_at_before?: number },
      opts?: CursorListOptions,
    ): AsyncGenerator<CryptoDeposit, void, undefined> {
      const filters = { created_at_after: query?.created_at_after, created_at_before: query?.created_at_before };
      return pagedList(
        call,
        { operation: 'listCryptoDeposits', path: '/crypto/deposits', response: deposits, paging: 'cursor', filters },
        opts,
      );
    },

    /** Never retried: after `outcomeUnknown`, list recent withdrawals before sending again. */
    async createCryptoWithdrawal(body: CreateCryptoWithdrawalBody): Promise<CryptoWithdrawal> {
      const res = await call({
        operation: 'createCryptoWithdrawal',
        method: 'POST',
        path: '/crypto/withdrawals',
        body: { value: body, schema: createCryptoWithdrawalBody },
        response: cryptoWithdrawal,
      });
      return res.data;
    },

    /** GET /crypto/withdrawals, cursor-paged; `from_time`/`to_time` bound created_at (ms). */
    listCryptoWithdrawals(
      query?: { from_time?: number; to_time?: number },
      opts?: CursorListOptions,
    ): AsyncGenerator<CryptoWithdrawalListItem, void, undefined> {
      const filters = { from_time: query?.from_time, to_time: query?.to_time };
      return pagedList(
        call,
        {
          operation: 'listCryptoWithdrawals',
          path: '/crypto/withdrawals',
          response: withdrawals,
          paging: 'cursor',
          filters,
        },
        opts,
      );
    },

    /** GET /crypto/withdrawals/{id}: 404 also for another user's withdrawal. */
    async getCryptoWithdrawal(id: string): Promise<CryptoWithdrawal> {
      const res = await call({
        operation: 'getCryptoWithdrawal',
        method: 'GET',
        path: '/crypto/withdrawals/{id}',
        params: { id },
        response: cryptoWithdrawal,
      });
      return res.data;
    },
  };
}
