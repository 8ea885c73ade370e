import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { add, sub } from '../../../../src/bot/domain/money.js';
import {
  DUPLICATE_CLIENT_ORDER_ID_MESSAGE,
  DUPLICATE_CLIENT_ORDER_ID_STATUS,
} from '../../../../src/bot/exchange/assumptions.js';
import { normalizeStatus } from '../../../../src/bot/domain/status.js';
import { isFinalOrderStatus } from '../../../../src/bot/exchange/statuses.js';
import { order as orderSchema } from '../../../../src/bot/exchange/schemas.js';
import { ORDER_COMPLETE_AFTER_MS, ORDER_OPEN_AFTER_MS } from '../../../../src/stand-ins/sandbox/timings.js';
import { makeKey } from '../support/sign.js';
import { ALL_SCOPES, expectSchema, startTestSandbox, V1, type TestSandbox } from '../support/sandbox.js';

let t: TestSandbox;
const deskB = makeKey();
beforeAll(async () => {
  t = await startTestSandbox({
    extraKeys: [{ publicKeyHex: deskB.compressedHex, scopes: ALL_SCOPES, account: 'desk-b' }],
  });
});
afterAll(() => t.close());

const quoteFor = async (body: Record<string, unknown>, key = t.key) =>
  (await t.api('POST', `${V1}/order_quotes`, { key, body: { payment_method: 'user_balance', ...body } })).body;
const place = (quoteId: string, clientOrderId?: string, key = t.key) =>
  t.api('POST', `${V1}/orders`, {
    key,
    body: {
      execution_type: 'rfq',
      order_quote_id: quoteId,
      ...(clientOrderId ? { client_order_id: clientOrderId } : {}),
    },
  });
const bal = (c: string) => t.sandbox.control.balances().find((b) => b.currency === c)!;
const getOrder = async (id: string) => expectSchema(orderSchema, (await t.api('GET', `${V1}/orders/${id}`)).body);

describe('orders', () => {
  it('go Pending -> Open -> Completed as the clock moves, and settle base and counter balances', async () => {
    t.sandbox.control.setPrice({ symbol: 'BTC-USD', price: '60000', volatilityBps: 0 });
    const usd = bal('USD').regular;
    const btc = bal('BTC').regular;
    const q = await quoteFor({ symbol: 'BTC-USD', side: 'buy', quantity: '0.5', currency: 'BTC' });
    expect(q.locked_price).toBe('60060');
    const created = await place(q.quote_id, 'co-1');
    expect(created.status).toBe(201);
    const o = expectSchema(orderSchema, created.body);
    expect(normalizeStatus(o.status)).toBe('pending');
    expect(o.client_order_id).toBe('co-1');
    // Paid side locked at once: 0.5 * 60060 = 30030 USD.
    expect(bal('USD').regular).toBe(sub(usd, '30030'));
    expect(bal('USD').locked_balance.orders).toBe('30030');
    t.sandbox.control.advance(ORDER_OPEN_AFTER_MS);
    expect(normalizeStatus((await getOrder(String(o.id))).status)).toBe('open');
    t.sandbox.control.advance(ORDER_COMPLETE_AFTER_MS - ORDER_OPEN_AFTER_MS);
    const done = await getOrder(String(o.id));
    expect(isFinalOrderStatus(done.status)).toBe(true);
    expect(normalizeStatus(done.status)).toBe('completed');
    expect(bal('USD').locked_balance.orders).toBe('0');
    // Received 0.5 BTC less the 10 bps fee.
    expect(done.fee).toBe('0.0005');
    expect(done.net_amount).toBe('0.4995');
    expect(bal('BTC').regular).toBe(add(btc, '0.4995'));
  });

  it('report statuses in mixed letter case, varying between orders and stages', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const q = await quoteFor({ symbol: 'ETH-USD', side: 'sell', quantity: String(1 + i / 10) });
      const o = await place(q.quote_id);
      seen.add(o.body.status);
      t.sandbox.control.advance(ORDER_OPEN_AFTER_MS);
      seen.add((await getOrder(o.body.id)).status);
      t.sandbox.control.advance(ORDER_COMPLETE_AFTER_MS);
      seen.add((await getOrder(o.body.id)).status);
    }
    const forms = [...seen];
    expect(forms.some((s) => s === s.toUpperCase())).toBe(true);
    expect(forms.some((s) => s === s.toLowerCase())).toBe(true);
    expect(forms.some((s) => s[0] === s[0]!.toUpperCase() && s.slice(1) === s.slice(1).toLowerCase())).toBe(true);
    expect(new Set(forms.map(normalizeStatus))).toEqual(new Set(['pending', 'open', 'completed']));
  });

  it('refuse a repeated client_order_id without replaying the first answer, per account', async () => {
    const before = t.sandbox.control.orders().length;
    const q1 = await quoteFor({ symbol: 'BTC-USD', side: 'buy', quantity: '100' });
    const first = await place(q1.quote_id, 'dup-id');
    expect(first.status).toBe(201);
    const q2 = await quoteFor({ symbol: 'BTC-USD', side: 'buy', quantity: '101' });
    const again = await place(q2.quote_id, 'dup-id');
    expect(again.status).toBe(DUPLICATE_CLIENT_ORDER_ID_STATUS);
    expect(again.body.errors[0].message).toBe(DUPLICATE_CLIENT_ORDER_ID_MESSAGE);
    expect(again.body.id).toBeUndefined();
    // The very same request again: still a refusal, never the first 201.
    const retry = await place(q1.quote_id, 'dup-id');
    expect(retry.status).toBe(DUPLICATE_CLIENT_ORDER_ID_STATUS);
    expect(t.sandbox.control.orders().length).toBe(before + 1);
    // Another account may use the same id.
    const qb = await quoteFor({ symbol: 'BTC-USD', side: 'buy', quantity: '100' }, deskB);
    expect((await place(qb.quote_id, 'dup-id', deskB)).status).toBe(201);
  });

  it('refuse a trade the balance cannot pay, at order time', async () => {
    t.sandbox.control.setBalance({ currency: 'SGD', regular: '100' });
    const q = await quoteFor({ symbol: 'BTC-SGD', side: 'buy', quantity: '150' });
    const a = await place(q.quote_id);
    expect(a.status).toBe(422);
    expect(a.body.errors[0].message).toMatch(/^Insufficient balance: the order needs 150 SGD but only 100 SGD/);
    expect(bal('SGD').regular).toBe('100');
  });

  it('list with client_order_id, page numbers and status filters', async () => {
    const list = await t.api('GET', `${V1}/orders?page[size]=100`);
    expect(list.status).toBe(200);
    for (const o of list.body) expectSchema(orderSchema, o);
    expect(list.body.find((o: { client_order_id: string }) => o.client_order_id === 'co-1')).toBeDefined();
    expect(list.body.find((o: { client_order_id: string }) => o.client_order_id === 'dup-id')).toBeDefined();
    const p = await t.api('GET', `${V1}/orders?page[size]=2&page[number]=2`);
    expect(p.body.map((o: { id: string }) => o.id)).toEqual(list.body.slice(2, 4).map((o: { id: string }) => o.id));
    const completed = await t.api('GET', `${V1}/orders?status[]=COMPLETED&page[size]=100`);
    expect(completed.body.length).toBeGreaterThan(0);
    for (const o of completed.body) expect(normalizeStatus(o.status)).toBe('completed');
    expect((await t.api('GET', `${V1}/orders/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it('can be cancelled through the control surface: Cancelling, then Cancelled with the lock returned', async () => {
    t.sandbox.control.setBalance({ currency: 'USD', regular: '1000' });
    const q = await quoteFor({ symbol: 'USDT-USD', side: 'buy', quantity: '500' });
    const o = await place(q.quote_id);
    expect(bal('USD').regular).toBe('500');
    t.sandbox.control.cancelOrder(o.body.id, 'risk limit');
    expect(normalizeStatus((await getOrder(o.body.id)).status)).toBe('cancelling');
    t.sandbox.control.advance(5_000);
    const done = await getOrder(o.body.id);
    expect(normalizeStatus(done.status)).toBe('cancelled');
    expect(done.cancel_reason).toBe('risk limit');
    expect(bal('USD').regular).toBe('1000');
  });
});
