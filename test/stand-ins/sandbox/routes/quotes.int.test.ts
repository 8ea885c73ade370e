import { afterEach, describe, expect, it } from 'vitest';
import {
  QUOTE_UNUSABLE_MESSAGES,
  QUOTE_UNUSABLE_STATUS,
  isQuoteUnusableMessage,
} from '../../../../src/bot/exchange/assumptions.js';
import { quote } from '../../../../src/bot/exchange/schemas.js';
import { makeKey } from '../support/sign.js';
import { ALL_SCOPES, expectSchema, startTestSandbox, T0, V1, type TestSandbox } from '../support/sandbox.js';

let t: TestSandbox;
afterEach(() => t?.close());

const BODY = { symbol: 'BTC-USD', side: 'buy', quantity: '5000', payment_method: 'user_balance' } as const;
const newQuote = async (body: Record<string, unknown> = BODY, key?: TestSandbox['key']) => {
  const a = await t.api('POST', `${V1}/order_quotes`, { body, ...(key ? { key } : {}) });
  expect(a.status).toBe(201);
  return expectSchema(quote, a.body);
};
const order = (quoteId: string, extra: Record<string, unknown> = {}, key?: TestSandbox['key']) =>
  t.api('POST', `${V1}/orders`, {
    body: { execution_type: 'rfq', order_quote_id: quoteId, ...extra },
    ...(key ? { key } : {}),
  });

function unusable(a: { status: number; body: any }, message: string) {
  expect(a.status).toBe(QUOTE_UNUSABLE_STATUS);
  expect(a.body.errors[0].message).toBe(message);
  expect(isQuoteUnusableMessage(message)).toBe(true);
}

describe('quotes', () => {
  it('lock a price with expires_at = now + the lifetime (default 2.5 s, configurable)', async () => {
    t = await startTestSandbox();
    const q = await newQuote();
    expect(q.expires_at).toBe(T0 + 2_500);
    expect(q.locked_price).toMatch(/^\d+(\.\d{1,2})?$/);
    await t.close();
    t = await startTestSandbox({ quoteLifetimeMs: 10_000 });
    expect((await newQuote()).expires_at).toBe(T0 + 10_000);
  });

  it('come from a seeded random walk per pair: same seed, same prices; the clock moves them', async () => {
    const walk = async (seed: string) => {
      t = await startTestSandbox({ seed });
      const prices: string[] = [];
      for (let i = 0; i < 5; i++) {
        prices.push(
          (await newQuote()).locked_price,
          (await newQuote({ ...BODY, symbol: 'ETH-USD', side: 'sell', quantity: '1' })).locked_price,
        );
        t.sandbox.control.advance(30_000);
      }
      await t.close();
      return prices;
    };
    const a = await walk('walk-1');
    const b = await walk('walk-1');
    const c = await walk('walk-2');
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
    expect(new Set(a.filter((_, i) => i % 2 === 0)).size).toBeGreaterThan(1);
    t = await startTestSandbox();
  });

  it('buy above and sell below the spot mid; the control surface can set price and drift', async () => {
    t = await startTestSandbox();
    t.sandbox.control.setPrice({ symbol: 'BTC-USD', price: '50000', volatilityBps: 0 });
    const buy = await newQuote({ ...BODY, quantity: '1', currency: 'BTC' });
    const sell = await newQuote({ ...BODY, side: 'sell', quantity: '2' });
    expect(buy.locked_price).toBe('50050');
    expect(sell.locked_price).toBe('49950');
    t.sandbox.control.setPrice({ symbol: 'BTC-USD', driftBps: 100 });
    t.sandbox.control.advance(10_000);
    expect(Number((await newQuote({ ...BODY, quantity: '3' })).locked_price)).toBeGreaterThan(55_000);
  });

  it('refuse unknown pairs, payment methods and currencies, and bodies that break the schema (422)', async () => {
    t = await startTestSandbox();
    for (const body of [
      { ...BODY, symbol: 'DOGE-USD' },
      { ...BODY, payment_method: 'credit_card' },
      { ...BODY, currency: 'EUR' },
      { ...BODY, side: 'hold' },
      { ...BODY, quantity: 5000 },
      { ...BODY, quantity: '0.001' },
    ]) {
      const a = await t.api('POST', `${V1}/order_quotes`, { body });
      expect(a.status, JSON.stringify(body)).toBe(422);
    }
  });
});

describe('quote usability (orders on unusable quotes)', () => {
  it('refuses an expired quote', async () => {
    t = await startTestSandbox();
    const q = await newQuote();
    t.sandbox.control.advance(2_500);
    expect((await order(q.quote_id, { client_order_id: 'a' })).status).toBe(201); // at expires_at: still usable
    const q2 = await newQuote({ ...BODY, quantity: '6000' });
    t.sandbox.control.advance(2_501);
    unusable(await order(q2.quote_id), QUOTE_UNUSABLE_MESSAGES.expired);
  });

  it('refuses a quote superseded by a newer one for the same account, quantity, pair and payment method', async () => {
    t = await startTestSandbox();
    const first = await newQuote();
    const otherQuantity = await newQuote({ ...BODY, quantity: '5001' });
    const otherPair = await newQuote({ ...BODY, symbol: 'ETH-USD' });
    const second = await newQuote({ ...BODY, quantity: '5000.00' });
    unusable(await order(first.quote_id), QUOTE_UNUSABLE_MESSAGES.superseded);
    expect((await order(otherQuantity.quote_id)).status).toBe(201);
    expect((await order(otherPair.quote_id)).status).toBe(201);
    expect((await order(second.quote_id)).status).toBe(201);
  });

  it('refuses a quote that was already used', async () => {
    t = await startTestSandbox();
    const q = await newQuote();
    expect((await order(q.quote_id, { client_order_id: 'one' })).status).toBe(201);
    unusable(await order(q.quote_id, { client_order_id: 'two' }), QUOTE_UNUSABLE_MESSAGES.used);
  });

  it("refuses another account's quote and an unknown quote id", async () => {
    const stranger = makeKey();
    t = await startTestSandbox({
      extraKeys: [{ publicKeyHex: stranger.compressedHex, scopes: ALL_SCOPES, account: 'desk-b' }],
    });
    const q = await newQuote(BODY, stranger);
    unusable(await order(q.quote_id), QUOTE_UNUSABLE_MESSAGES.foreign);
    unusable(await order('no-such-quote'), QUOTE_UNUSABLE_MESSAGES.foreign);
    // The other account's quote is unaffected and still usable by its owner.
    expect((await order(q.quote_id, {}, stranger)).status).toBe(201);
  });
});
