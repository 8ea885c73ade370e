/**
 * The exchange client (issue 2) against the running sandbox over real HTTP: every operation,
 * every list walked through its pages, and the error kinds the engine branches on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExchangeClient, type ExchangeClient } from '../../../src/bot/exchange/client.js';
import { ExchangeError } from '../../../src/bot/ports/exchange-error.js';
import { collect } from '../../../src/bot/engine/bounded-lists.js';
import { createSigner, parsePrivateKey } from '../../../src/bot/exchange/signer.js';
import { normalizeStatus } from '../../../src/bot/domain/status.js';
import { isFinalOrderStatus } from '../../../src/bot/exchange/statuses.js';
import { QUOTE_UNUSABLE_MESSAGES, SCOPE_FAILURE_STATUS } from '../../../src/bot/exchange/assumptions.js';
import { createSandboxClock } from '../../../src/stand-ins/sandbox/sandbox-clock.js';
import { startSandbox, type Sandbox } from '../../../src/stand-ins/sandbox/server.js';
import { makeKey, type TestKey } from './support/sign.js';
import { T0 } from './support/sandbox.js';

let sandbox: Sandbox;
let client: ExchangeClient;

function clientFor(key: TestKey, options: Partial<Parameters<typeof createExchangeClient>[0]> = {}): ExchangeClient {
  return createExchangeClient({
    baseUrl: sandbox.url,
    signer: createSigner(parsePrivateKey(key.privateKeyHex)),
    rateLimit: false,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });
}

async function failure(p: Promise<unknown>): Promise<ExchangeError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ExchangeError);
    return e as ExchangeError;
  }
  throw new Error('expected the call to fail');
}

const readOnly = makeKey();
beforeAll(async () => {
  const key = makeKey();
  sandbox = await startSandbox({
    seed: 'client-test',
    clock: createSandboxClock({ startMs: T0, followRealTime: false }),
    keys: [
      { publicKeyHex: key.compressedHex, scopes: ['read', 'transfer', 'trade'] },
      { publicKeyHex: readOnly.compressedHex, scopes: ['read'] },
    ],
  });
  client = clientFor(key);
});
afterAll(() => sandbox.close());

describe('the client against the sandbox', () => {
  it('reads balances, networks, currency entries, wallets, fiat fees and limits, and the spot price', async () => {
    const balances = await client.listBalances();
    expect(balances.map((b) => b.currency)).toContain('BTC');
    expect((await client.listBalances({ currency: 'ETH' })).map((b) => b.currency)).toEqual(['ETH']);
    expect(await client.listNetworks()).toHaveLength(3);
    expect((await client.listCryptoCurrencies()).filter((e) => e.code === 'USDT')).toHaveLength(2);
    expect((await client.listKnownWallets({ name: 'krakn' }))[0]!.name).toBe('Kraken');
    expect((await client.listFiatWithdrawalFees()).map((f) => f.currency).sort()).toEqual(['SGD', 'USD']);
    expect(await client.listFiatWithdrawalLimits()).toHaveLength(2);
    const spot = await client.getSpotPrice('BTC', 'USD');
    expect(spot.symbol).toBe('BTC-USD');
  });

  it('walks cursor lists through X-Next-Page, and in offset mode', async () => {
    expect(await collect(client.listAddressBook({ pageSize: 2 }))).toHaveLength(6);
    expect(await collect(client.listAddressBook({ pageSize: 4, mode: 'offset' }))).toHaveLength(6);
    expect(await collect(client.listBankAccounts(undefined, { pageSize: 1 }))).toHaveLength(3);
    expect(await collect(client.listBankAccounts({ currency: 'SGD' }))).toHaveLength(2);
    expect(await collect(client.listCryptoDeposits(undefined, { pageSize: 2 }))).toHaveLength(5);
    expect(await collect(client.listCryptoDeposits({ created_at_after: T0 - 3 * 3_600_000 }))).toHaveLength(2);
    expect(await collect(client.listCryptoWithdrawals(undefined, { pageSize: 2 }))).toHaveLength(3);
    expect(await collect(client.listFiatDeposits({ pageSize: 2 }))).toHaveLength(3);
    expect(await collect(client.listFiatWithdrawals())).toHaveLength(2);
  });

  it('creates, reads and lists a crypto withdrawal, and maps refusals to error kinds', async () => {
    const book = await collect(client.listAddressBook());
    const treasury = book.find((a) => a.label === 'Treasury cold storage')!;
    const w = await client.createCryptoWithdrawal({
      crypto_currency_id: 101,
      amount: '0.123456789',
      address_book_address_id: treasury.id,
      request_id: 'client-1',
    });
    expect(w.amount).toBe('0.12345678');
    expect((await client.getCryptoWithdrawal(w.id)).status).toBe('pending');
    sandbox.control.advance(60_000);
    const got = await client.getCryptoWithdrawal(w.id);
    expect(got.status).toBe('completed');
    expect(got.transaction_hash).toBeTruthy();
    expect((await collect(client.listCryptoWithdrawals({ from_time: T0 })))[0]!.id).toBe(w.id);

    const cooldown = book.find((a) => a.label === 'New exchange account')!;
    const refused = await failure(
      client.createCryptoWithdrawal({ crypto_currency_id: 102, amount: '0.1', address_book_address_id: cooldown.id }),
    );
    expect([refused.kind, refused.status]).toEqual(['unprocessable', 422]);
    expect(refused.userMessage).toMatch(/cooldown/);
    const missing = await failure(
      client.createCryptoWithdrawal({
        crypto_currency_id: 101,
        amount: '0.1',
        address_book_address_id: '00000000-0000-4000-8000-000000000000',
      }),
    );
    expect(missing.kind).toBe('not_found');
    expect((await failure(client.getCryptoWithdrawal('00000000-0000-4000-8000-000000000000'))).kind).toBe('not_found');
  });

  it('creates a fiat withdrawal and removes a bank account', async () => {
    const banks = await collect(client.listBankAccounts());
    const usd = banks.find((b) => b.currency === 'USD')!;
    const f = await client.createFiatWithdrawal({ bank_account_id: usd.id, currency: 'USD', amount: '500' });
    expect(f.status).toBe('pending');
    expect((await collect(client.listFiatWithdrawals())).map((x) => x.id)).toContain(f.id);
    const selfAdded = banks.find((b) => b.verified === false)!;
    await client.deleteBankAccount(String(selfAdded.id));
    expect((await failure(client.deleteBankAccount(String(selfAdded.id)))).kind).toBe('not_found');
  });

  it('submits counterparty info: 201, then 422 already exists, 404 unknown', async () => {
    const needing = (await collect(client.listCryptoDeposits())).find((d) => d.travel_rule_status === 'required')!;
    const body = {
      wallet_identity_attributes: {
        entity_type: 'individual' as const,
        entity_name: 'Lee Wong',
        ownership: 'third_party' as const,
      },
    };
    await client.submitCounterpartyInfo(needing.transaction.uuid, body);
    const again = await failure(client.submitCounterpartyInfo(needing.transaction.uuid, body));
    expect(again.messages).toEqual(['Counterparty info already exists']);
    const unknown = await failure(client.submitCounterpartyInfo('00000000-0000-4000-8000-000000000000', body));
    expect([unknown.kind, unknown.messages[0]]).toEqual(['not_found', 'Transaction not found']);
  });

  it('quotes, orders, follows the order to Completed and finds it by client_order_id', async () => {
    const q = await client.createQuote({
      symbol: 'ETH-USD',
      side: 'buy',
      quantity: '1',
      currency: 'ETH',
      payment_method: 'user_balance',
    });
    const o = await client.createOrder({
      execution_type: 'rfq',
      order_quote_id: q.quote_id,
      client_order_id: 'client-order-1',
    });
    expect(normalizeStatus(o.status)).toBe('pending');
    sandbox.control.advance(5_000);
    expect(isFinalOrderStatus((await client.getOrder(String(o.id))).status)).toBe(true);
    const listed = await collect(client.listOrders({ from_time: T0 }));
    expect(listed.find((x) => x.client_order_id === 'client-order-1')?.id).toBe(o.id);
    const reuse = await failure(client.createOrder({ execution_type: 'rfq', order_quote_id: q.quote_id }));
    expect(reuse.messages).toEqual([QUOTE_UNUSABLE_MESSAGES.used]);
  });

  it('maps 401 and the scope refusal to unauthorized and forbidden', async () => {
    const stranger = clientFor(makeKey());
    expect((await failure(stranger.listBalances())).kind).toBe('unauthorized');
    const reader = clientFor(readOnly);
    const forbidden = await failure(
      reader.createQuote({ symbol: 'BTC-USD', side: 'buy', quantity: '10', payment_method: 'user_balance' }),
    );
    expect([forbidden.kind, forbidden.status]).toEqual(['forbidden', SCOPE_FAILURE_STATUS]);
  });

  it('under faults: reads are retried through 500s; a dropped write is outcome-unknown yet committed; a hang times out', async () => {
    sandbox.control.setFaults([{ kind: 'error', method: 'GET', path: '/accounts/balances', times: 2 }]);
    expect((await client.listBalances()).length).toBeGreaterThan(0);

    const treasury = (await collect(client.listAddressBook())).find((a) => a.label === 'Treasury cold storage')!;
    const before = sandbox.control.withdrawals().length;
    sandbox.control.setFaults([{ kind: 'drop_after_commit', method: 'POST', path: '/crypto/withdrawals', times: 1 }]);
    const dropped = await failure(
      client.createCryptoWithdrawal({ crypto_currency_id: 101, amount: '0.01', address_book_address_id: treasury.id }),
    );
    expect(dropped.outcomeUnknown).toBe(true);
    expect(sandbox.control.withdrawals().length).toBe(before + 1);

    sandbox.control.setFaults([
      { kind: 'rate_limit', method: 'POST', path: '/order_quotes', retryAfterSeconds: 3, times: 1 },
    ]);
    const limited = await failure(
      client.createQuote({ symbol: 'BTC-USD', side: 'buy', quantity: '10', payment_method: 'user_balance' }),
    );
    expect([limited.kind, limited.retryAfterMs]).toEqual(['rate_limited', 3_000]);

    sandbox.control.setFaults([{ kind: 'hang', path: '/crypto_currencies' }]);
    const slow = await failure(clientFor(readOnly, { timeoutMs: 100, retry: false }).listCryptoCurrencies());
    expect(slow.kind).toBe('timeout');
    sandbox.control.clearFaults();
  });
});
