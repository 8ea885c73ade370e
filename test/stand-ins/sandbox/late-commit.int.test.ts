/**
 * The late_commit fault: a slow exchange takes a write, answers nothing in time, and commits it
 * later on its own clock, whatever the caller did meanwhile. What a careless client does with it
 * (sends again) is shown here at the HTTP edge; the bot's answer is in test/faults/late-commit.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DUPLICATE_CLIENT_ORDER_ID_MESSAGE } from '../../../src/bot/exchange/assumptions.js';
import { startTestSandbox, V1, type TestSandbox } from './support/sandbox.js';

let t: TestSandbox;
afterEach(() => t.close());

const WITHDRAWALS = `${V1}/crypto/withdrawals`;
async function withdrawalBody(): Promise<Record<string, unknown>> {
  const book = (await t.api('GET', `${V1}/address_book/addresses?page[size]=50`)).body as Array<{
    id: string;
    label: string;
  }>;
  return {
    crypto_currency_id: 101,
    amount: '0.01',
    address_book_address_id: book.find((a) => a.label === 'Treasury cold storage')!.id,
    request_id: 'rq-1',
  };
}
const listed = async () =>
  (await t.api('GET', `${WITHDRAWALS}?page[size]=100`)).body as Array<{
    id: string;
    created_at: number;
    amount: string;
  }>;

describe('late_commit', () => {
  it('a withdrawal the caller gave up on appears later, created when the exchange committed it', async () => {
    t = await startTestSandbox();
    const body = await withdrawalBody();
    const before = (await listed()).length;
    t.sandbox.control.setFaults([
      {
        kind: 'late_commit',
        method: 'POST',
        path: '/crypto/withdrawals',
        commitAfterMs: 60_000,
        answer: 'gateway_timeout',
        times: 1,
      },
    ]);
    const sentAt = t.sandbox.clock.now();
    const first = await t.api('POST', WITHDRAWALS, { body });
    expect(first.status).toBe(504);
    expect(await listed()).toHaveLength(before);
    t.sandbox.control.advance(59_000);
    expect(await listed()).toHaveLength(before);
    t.sandbox.control.advance(1_000);
    const after = await listed();
    expect(after).toHaveLength(before + 1);
    expect(after[0]!.created_at).toBe(sentAt + 60_000);
    expect(t.sandbox.control.requests().some((r) => r.fault === 'late_commit:committed' && r.status === 201)).toBe(
      true,
    );
  });

  it('a client that sends again meanwhile creates a second withdrawal: request_id is no protection', async () => {
    t = await startTestSandbox();
    const body = await withdrawalBody();
    const before = (await listed()).length;
    t.sandbox.control.setFaults([
      {
        kind: 'late_commit',
        method: 'POST',
        path: '/crypto/withdrawals',
        commitAfterMs: 15_000,
        answer: 'drop',
        times: 1,
      },
    ]);
    await expect(t.api('POST', WITHDRAWALS, { body })).rejects.toThrow();
    t.sandbox.control.advance(5_000);
    expect((await t.api('POST', WITHDRAWALS, { body })).status).toBe(201);
    t.sandbox.control.advance(10_000);
    expect(await listed()).toHaveLength(before + 2);
  });

  it('an order keeps its client_order_id from receipt: a repeat is refused as a duplicate, and the late one commits on the quote it was taken with', async () => {
    t = await startTestSandbox();
    const quote = (
      await t.api('POST', `${V1}/order_quotes`, {
        body: { symbol: 'BTC-USD', side: 'buy', quantity: '0.001', currency: 'BTC', payment_method: 'user_balance' },
      })
    ).body as { quote_id: string };
    const order = { execution_type: 'rfq', order_quote_id: quote.quote_id, client_order_id: 'coid-1' };
    t.sandbox.control.setFaults([
      { kind: 'late_commit', method: 'POST', path: '/orders', commitAfterMs: 900_000, times: 1 },
    ]);
    const hung = t.api('POST', `${V1}/orders`, { body: order, timeoutMs: 100 }).catch((e: unknown) => e);
    expect(await hung).toBeInstanceOf(Error);
    const repeat = await t.api('POST', `${V1}/orders`, { body: order });
    expect(repeat.status).toBe(422);
    expect(JSON.stringify(repeat.body)).toContain(DUPLICATE_CLIENT_ORDER_ID_MESSAGE);
    expect(t.sandbox.control.orders()).toHaveLength(0);
    t.sandbox.control.advance(900_000);
    expect(t.sandbox.control.orders().map((o) => o.client_order_id)).toEqual(['coid-1']);
  });

  it('dates its answers by its own clock', async () => {
    t = await startTestSandbox();
    t.sandbox.control.advance(3_600_000);
    const res = await t.api('GET', `${V1}/accounts/balances`);
    expect(Date.parse(res.headers.get('date')!)).toBe(Math.floor(t.sandbox.clock.now() / 1000) * 1000);
  });
});
