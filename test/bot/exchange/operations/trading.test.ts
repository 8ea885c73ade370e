import { describe, expect, it } from 'vitest';
import { QUOTE_UNUSABLE_MESSAGES, isQuoteUnusableMessage } from '../../../../src/bot/exchange/assumptions.js';
import { collect } from '../../../../src/bot/engine/bounded-lists.js';
import { isFinalOrderStatus } from '../../../../src/bot/exchange/statuses.js';
import { API, harness, useNock } from '../support/client.js';
import { many, orderItem, quoteCreated } from '../support/fixtures.js';

useNock();

describe('createQuote', () => {
  it('POSTs the quote request once to /order_quotes', async () => {
    const h = harness();
    const body = {
      symbol: 'BTC-SGD',
      side: 'buy' as const,
      quantity: '1000.00',
      currency: 'SGD',
      payment_method: 'user_balance',
    };
    h.scope.post(`${API}/order_quotes`, body).once().reply(201, quoteCreated);
    await expect(h.client.createQuote(body)).resolves.toEqual(quoteCreated);
    h.rec.expectAllSigned();
    expect(h.rec.requests[0]!.body).toBe(
      '{"symbol":"BTC-SGD","side":"buy","quantity":"1000.00","currency":"SGD","payment_method":"user_balance"}',
    );
  });

  it('refuses a quote whose expires_at is not an integer', async () => {
    const h = harness();
    h.scope.post(`${API}/order_quotes`).reply(201, { ...quoteCreated, expires_at: '2024-01-01' });
    await expect(
      h.client.createQuote({ symbol: 'BTC-SGD', side: 'sell', quantity: '0.1', payment_method: 'user_balance' }),
    ).rejects.toMatchObject({ kind: 'invalid_response', fieldPath: 'expires_at' });
  });

  it.each(['0', '0.00', '-65000.5'])(
    'refuses a locked price of %s as malformed: nothing is ever traded at it',
    async (price) => {
      const h = harness();
      h.scope.post(`${API}/order_quotes`).reply(201, { ...quoteCreated, locked_price: price });
      await expect(
        h.client.createQuote({ symbol: 'BTC-SGD', side: 'sell', quantity: '0.1', payment_method: 'user_balance' }),
      ).rejects.toMatchObject({ kind: 'invalid_response', fieldPath: 'locked_price' });
    },
  );
});

describe('createOrder', () => {
  const body = {
    execution_type: 'rfq' as const,
    order_quote_id: 'q-123',
    client_order_id: 'c0ffee00-0000-4000-8000-000000000001',
  };

  it('POSTs the order once and returns it (201 means created, not completed)', async () => {
    const h = harness();
    h.scope
      .post(`${API}/orders`, body)
      .once()
      .reply(201, { ...orderItem, status: 'pending' });
    const order = await h.client.createOrder(body);
    expect(order.status).toBe('pending');
    expect(isFinalOrderStatus(order.status)).toBe(false);
    h.rec.expectAllSigned();
  });

  it('keeps an unusable-quote refusal recognisable', async () => {
    const h = harness();
    h.scope.post(`${API}/orders`).reply(422, { errors: [{ message: QUOTE_UNUSABLE_MESSAGES.expired }] });
    const err = await h.client.createOrder(body).catch((e: { messages: string[] }) => e);
    expect(err).toMatchObject({ kind: 'unprocessable', status: 422 });
    expect(isQuoteUnusableMessage((err as { messages: string[] }).messages[0]!)).toBe(true);
  });
});

describe('getOrder', () => {
  it('GETs /orders/{order_id} with the id encoded as one segment', async () => {
    const h = harness();
    h.scope.get(`${API}/orders/o%2F1`).reply(200, orderItem);
    const order = await h.client.getOrder('o/1');
    expect(isFinalOrderStatus(order.status)).toBe(true); // "Completed", compared case-insensitively
    h.rec.expectAllSigned();
  });

  it('refuses an order without a status', async () => {
    const h = harness();
    h.scope.get(`${API}/orders/o-1`).reply(200, { id: 'o-1' });
    await expect(h.client.getOrder('o-1')).rejects.toMatchObject({
      kind: 'invalid_response',
      operation: 'getOrder',
      fieldPath: 'status',
    });
  });
});

describe('listOrders', () => {
  it('pages by number with from_time and to_time, stopping on a short page', async () => {
    const h = harness();
    const page = (n: number, count: number) => many(orderItem, count, (i) => ({ id: `o-${n}-${i}` }));
    h.scope
      .get(`${API}/orders`)
      .query({ from_time: '1000', to_time: '2000', 'page[number]': '1', 'page[size]': '2' })
      .reply(200, page(1, 2))
      .get(`${API}/orders`)
      .query({ from_time: '1000', to_time: '2000', 'page[number]': '2', 'page[size]': '2' })
      .reply(200, page(2, 1));
    const orders = await collect(h.client.listOrders({ from_time: 1000, to_time: 2000 }, { pageSize: 2 }));
    expect(orders.map((o) => o.id)).toEqual(['o-1-0', 'o-1-1', 'o-2-0']);
    h.rec.expectAllSigned();
    expect(h.rec.requests[1]!.path).toBe(
      `${API}/orders?from_time=1000&to_time=2000&page%5Bnumber%5D=2&page%5Bsize%5D=2`,
    );
  });
});
