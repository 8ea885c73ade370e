/** Travel Rule: known wallets and counterparty declarations (reference endpoints 1 and 9). */
import { z } from 'zod';
import {
  counterpartyInfoBody,
  counterpartyInfoResult,
  knownWallet,
  type CounterpartyInfoBody,
  type KnownWallet,
} from '../schemas.js';
import type { Call } from '../transport.js';

const knownWallets = z.array(knownWallet);

export function complianceOperations(call: Call) {
  return {
    /** POST /transactions/{transaction_id}/counterparty_info, for RECEIVE transactions only. */
    async submitCounterpartyInfo(transactionId: string, body: CounterpartyInfoBody): Promise<Record<string, unknown>> {
      const res = await call({
        operation: 'submitCounterpartyInfo',
        method: 'POST',
        path: '/transactions/{transaction_id}/counterparty_info',
        params: { transaction_id: transactionId },
        body: { value: body, schema: counterpartyInfoBody },
        response: counterpartyInfoResult,
      });
      return res.data;
    },

    /** GET /crypto_wallets: fuzzy search by name, may return inexact matches. */
    async listKnownWallets(query?: { name?: string }): Promise<KnownWallet[]> {
      const res = await call({
        operation: 'listKnownWallets',
        method: 'GET',
        path: '/crypto_wallets',
        query: { name: query?.name },
        response: knownWallets,
      });
      return res.data;
    },
  };
}
