/** RFQ trading: quotes and orders (workflow guide). */
import { z } from 'zod';
import type { ListOptions } from '../../ports/list-options.js';
import { pagedList } from '../pagination.js';
import {
  createOrderBody,
  createQuoteBody,
  order,
  quote,
  type CreateOrderBody,
  type CreateQuoteBody,
  type Order,
  type Quote,
} from '../schemas.js';
import type { Call } from '../transport.js';

const orders = z.array(order);

export function tradingOperations(call: Call) {
  return {
    /** POST /order_quotes: locks a price until `expires_at`; executes nothing. */
    async createQuote(body: CreateQuoteBody): Promise<Quote> {
      const res = await call({
        operation: 'createQuote',
        method: 'POST',
        path: '/order_quotes',
        body: { value: body, schema: createQuoteBody },
        response: quote,
      });
      return res.data;
    },

    /** Never retried: after a timeout, look the order up by `client_order_id` before anything else. */
    async createOrder(body: CreateOrderBody): Promise<Order> {
      const res = await call({
        operation: 'createOrder',
        method: 'POST',
        path: '/orders',
        body: { value: body, schema: createOrderBody },
        response: order,
      });
      return res.data;
    },

    /** GET /orders/{order_id}. */
    async getOrder(id: string): Promise<Order> {
      const res = await call({
        operation: 'getOrder',
        method: 'GET',
        path: '/orders/{order_id}',
        params: { order_id: id },
        response: order,
      });
      return res.data;
    },

    /** GET /orders, page-number paged; `from_time`/`to_time` in epoch ms. */
    listOrders(
      query?: { from_time?: number; to_time?: number },
      opts?: ListOptions,
    ): AsyncGenerator<Order, void, undefined> {
      const filters = { from_time: query?.from_time, to_time: query?.to_time };
      return pagedList(
        call,
        { operation: 'listOrders', path: '/orders', response: orders, paging: 'numbered', filters },
        opts,
      );
    },
  };
}
