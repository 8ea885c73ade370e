/**
 * The engine's exchange port over the real client and the sandbox (real HTTP): the refusals it
 * reads from the exchange's words, and records in the engine's terms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isExchangeError, type ExchangeError } from '../../../src/bot/ports/exchange-error.js';
import { listedFiatWithdrawal } from '../../../src/bot/exchange/adapter/remote-views.js';
import { startTestExchange, type TestExchange } from '../../support/bot.js';
import { DEFAULT_QUOTE_LIFETIME_MS } from '../../../src/stand-ins/sandbox/timings.js';

let sx: TestExchange;
beforeAll(async () => {
  sx = await startTestExchange({ seed: 'engine-port' });
});
afterAll(async () => {
  await sx?.sandbox.close();
});

async function refusal(call: Promise<unknown>): Promise<ExchangeError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isExchangeError(err)) throw new Error(`expected an ExchangeError, got ${String(err)}`);
  return err;
}

const terms = {
  symbol: 'BTC-USD',
  side: 'buy' as const,
  quantity: '0.01',
  quantityCurrency: null,
  paymentMethod: 'user_balance',
};

describe('the exchange port reads refusals into the engine terms', () => {
  it('an order on a used client_order_id is "duplicate_client_order_id": it exists, find it', async () => {
    const first = await sx.exchange.quote(terms);
    const placed = await sx.exchange.placeOrder(first.quoteId, 'key-dup-1');
    expect(placed.exchangeId).not.toBe('');
    const second = await sx.exchange.quote(terms);
    const err = await refusal(sx.exchange.placeOrder(second.quoteId, 'key-dup-1'));
    expect(err.refusal).toBe('duplicate_client_order_id');
    // The exchange's own words are kept for people.
    expect(err.userMessage).toMatch(/client_order_id/);
  });

  it('an order on an expired quote is "quote_unusable": take a new one', async () => {
    const quote = await sx.exchange.quote(terms);
    sx.sandbox.control.advance(DEFAULT_QUOTE_LIFETIME_MS + 1_000);
    const err = await refusal(sx.exchange.placeOrder(quote.quoteId, 'key-expired-1'));
    expect(err.refusal).toBe('quote_unusable');
  });

  it('a second declaration for a transaction is "counterparty_already_declared"; any other refusal is not read as one', async () => {
    const deposit = sx.sandbox.control.injectDeposit({ amount: '1', needsCounterpartyInfo: true });
    const declaration = { entityType: 'entity' as const, legalName: 'Acme Pte Ltd', ownership: 'third_party' as const };
    await sx.exchange.declareCounterparty(deposit.transaction.uuid, declaration);
    const again = await refusal(sx.exchange.declareCounterparty(deposit.transaction.uuid, declaration));
    expect(again.refusal).toBe('counterparty_already_declared');
    const missing = await refusal(sx.exchange.declareCounterparty('1b4e28ba-2fa1-11d2-883f-0016d3cca427', declaration));
    expect(missing.kind).toBe('not_found');
    expect(missing.refusal).toBeUndefined();
  });
});

describe('records in the engine terms', () => {
  it('deposits carry what their statuses mean for compliance', async () => {
    const injected = sx.sandbox.control.injectDeposit({ amount: '2.5', needsCounterpartyInfo: true });
    const found = [];
    for await (const d of sx.exchange.cryptoDeposits(
      { createdAfter: injected.created_at - 1 },
      { pageSize: 100, maxItems: 100 },
    ))
      found.push(d);
    const d = found.find((x) => x.id === injected.id)!;
    expect(d).toMatchObject({
      transactionId: injected.transaction.uuid,
      amount: '2.5',
      final: false,
      needsDeclaration: true,
      acceptsDeclaration: true,
      reviewOpen: true,
    });
  });

  it('a fiat list item keeps an amount only when it is a decimal, and is left out without an id', () => {
    expect(listedFiatWithdrawal({ id: 7, amount: '1e3', status: 'pending' })).toMatchObject({
      exchangeId: '7',
      amount: null,
      final: null,
    });
    expect(
      listedFiatWithdrawal({ id: 8, amount: '1000.50', status: 'Completed', created_at: '2026-11-24T00:00:00Z' }),
    ).toMatchObject({ amount: '1000.50', final: 'completed', createdAt: Date.parse('2026-11-24T00:00:00Z') });
    expect(listedFiatWithdrawal({ amount: '5', status: 'pending' })).toBeUndefined();
  });

  it('saved addresses and bank accounts come with what a request keeps of them', async () => {
    const addresses = [];
    for await (const a of sx.exchange.savedAddresses({ pageSize: 100 })) addresses.push(a);
    expect(addresses.length).toBeGreaterThan(0);
    for (const a of addresses) expect(a.verified).toBe(a.status.toLowerCase() === 'verified');
    const banks = [];
    for await (const b of sx.exchange.bankAccounts(undefined, { pageSize: 100 })) banks.push(b);
    expect(banks.length).toBeGreaterThan(0);
    for (const b of banks) {
      expect(b.accountNumberDigest).toMatch(/^[0-9a-f]{64}$/);
      // The display keeps only the last four digits.
      expect(b.display).toMatch(/••••\d{4}/);
    }
  });
});
