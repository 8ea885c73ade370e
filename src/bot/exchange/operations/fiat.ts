/** Fiat deposits, withdrawals, fees and limits (reference endpoints 10 to 14). */
import { z } from 'zod';
import { pagedList } from '../pagination.js';
import {
  createFiatWithdrawalBody,
  fiatDeposit,
  fiatWithdrawal,
  fiatWithdrawalFee,
  fiatWithdrawalLimit,
  fiatWithdrawalListItem,
  type CreateFiatWithdrawalBody,
  type FiatDeposit,
  type FiatWithdrawal,
  type FiatWithdrawalFee,
  type FiatWithdrawalLimit,
  type FiatWithdrawalListItem,
} from '../schemas.js';
import type { Call } from '../transport.js';
import type { ListOptions } from '../../ports/list-options.js';

/** Endpoints 10 and 13 answer "an array" as JSON:API; a `{data: [{id, attributes}]}` document is unwrapped, a plain array passes. */
export function unwrapJsonApi(json: unknown): unknown {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return json;
  const data = (json as { data?: unknown }).data;
  if (!Array.isArray(data)) return json;
  return data.map((item: unknown) => {
    const attributes = (item as { attributes?: unknown } | null)?.attributes;
    if (attributes === null || typeof attributes !== 'object') return item;
    return { id: (item as { id?: unknown }).id, ...attributes };
  });
}

const deposits = z.preprocess(unwrapJsonApi, z.array(fiatDeposit));
const withdrawals = z.preprocess(unwrapJsonApi, z.array(fiatWithdrawalListItem));
const fees = z.array(fiatWithdrawalFee);
const limits = z.array(fiatWithdrawalLimit);

/** Operations on fiat deposits, withdrawals, fees and limits, over one bound transport. */
export function fiatOperations(call: Call) {
  return {
    /** GET /fiat/deposits, page-number paged. */
    listFiatDeposits(opts?: ListOptions): AsyncGenerator<FiatDeposit, void, undefined> {
      return pagedList(
        call,
        { operation: 'listFiatDeposits', path: '/fiat/deposits', response: deposits, paging: 'numbered' },
        opts,
      );
    },

    /** GET /fiat/withdrawal_fees: one row per enabled currency. */
    async listFiatWithdrawalFees(): Promise<FiatWithdrawalFee[]> {
      return (
        await call({
          operation: 'listFiatWithdrawalFees',
          method: 'GET',
          path: '/fiat/withdrawal_fees',
          response: fees,
        })
      ).data;
    },

    /** GET /fiat/withdrawal_limits: empty when no fiat is enabled. */
    async listFiatWithdrawalLimits(): Promise<FiatWithdrawalLimit[]> {
      return (
        await call({
          operation: 'listFiatWithdrawalLimits',
          method: 'GET',
          path: '/fiat/withdrawal_limits',
          response: limits,
        })
      ).data;
    },

    /** GET /fiat/withdrawals, page-number paged. */
    listFiatWithdrawals(opts?: ListOptions): AsyncGenerator<FiatWithdrawalListItem, void, undefined> {
      return pagedList(
        call,
        { operation: 'listFiatWithdrawals', path: '/fiat/withdrawals', response: withdrawals, paging: 'numbered' },
        opts,
      );
    },

    /** POST /fiat/withdrawals (body fields are an assumption, see assumptions.ts). Never retried. */
    async createFiatWithdrawal(body: CreateFiatWithdrawalBody): Promise<FiatWithdrawal> {
      const res = await call({
        operation: 'createFiatWithdrawal',
        method: 'POST',
        path: '/fiat/withdrawals',
        body: { value: body, schema: createFiatWithdrawalBody },
        response: fiatWithdrawal,
      });
      return res.data;
    },
  };
}
