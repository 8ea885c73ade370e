import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cryptoDeposit } from '../../../src/bot/exchange/schemas.js';
import { makeKey } from './support/sign.js';
import { expectSchema, startTestSandbox, T0, V1, type TestSandbox } from './support/sandbox.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

const control = (method: string, path: string, body?: unknown) =>
  t.api(method, `/_sandbox${path}`, { unsigned: true, ...(body === undefined ? {} : { body }) });

describe('control surface', () => {
  it('refuses any request carrying an exchange key, signed or not', async () => {
    const signed = await t.api('GET', '/_sandbox/state');
    expect(signed.status).toBe(403);
    expect(signed.body.errors[0].message).toMatch(/does not accept exchange API keys/);
    const reset = await t.api('POST', '/_sandbox/reset', { headers: { 'X-API-KEY': makeKey().compressedHex } });
    expect(reset.status).toBe(403);
  });

  it("answers only this machine: a forged Host (DNS rebinding) or another page's Origin is refused, and nothing changes", async () => {
    // A sandbox of its own: this test moves the clock the others start from.
    const own = await startTestSandbox();
    const clock = async () => (await own.api('GET', '/_sandbox/clock', { unsigned: true })).body.now as number;
    const before = await clock();
    const port = new URL(own.sandbox.url).port;
    const raw = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/_sandbox/clock/advance',
            headers: { 'content-type': 'text/plain', ...headers },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ ms: 60_000 }));
      });
    expect(await raw({ host: `evil.example:${port}` })).toBe(403);
    expect(await raw({ host: `127.0.0.1:${port}`, origin: 'http://evil.example' })).toBe(403);
    expect(await raw({ host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${Number(port) + 1}` })).toBe(403);
    expect(await clock()).toBe(before);
    // The machine's own tools (no Origin, or a page of this same server) still may.
    expect(await raw({ host: `localhost:${port}` })).toBe(200);
    expect(await raw({ host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` })).toBe(200);
    expect(await clock()).toBe(before + 120_000);
    await own.close();
  });

  it('is not served under the public API prefix', async () => {
    expect((await t.api('GET', `${V1}/_sandbox/state`)).status).toBe(404);
    expect((await t.api('GET', `${V1}/../_sandbox/state`)).status).toBe(404);
  });

  it('advances the clock, injects deposits, sets balances, prices and faults, and lists what was created', async () => {
    expect((await control('GET', '/clock')).body.now).toBe(T0);
    expect((await control('POST', '/clock/advance', { ms: 1500 })).body.now).toBe(T0 + 1500);

    const dep = await control('POST', '/deposits', { currency_id: 103, amount: '42.5', needs_counterparty_info: true });
    expect(dep.status).toBe(201);
    const d = expectSchema(cryptoDeposit, dep.body);
    expect([d.status, d.travel_rule_status, d.amount]).toEqual(['pending', 'required', '42.5']);
    expect((await t.api('GET', `${V1}/crypto/deposits?page[size]=1`)).body[0].id).toBe(d.id);

    const bal = await control('PUT', '/balances', { currency: 'ETH', regular: '7', orders: '1' });
    expect(bal.body).toMatchObject({ currency: 'ETH', regular: '7', locked: '2.5' });
    expect((await control('PUT', '/balances', { currency: 'ETH', regular: '-1' })).status).toBe(422);

    const price = await control('PUT', '/prices', { symbol: 'ETH-USD', price: '2000', volatility_bps: 0 });
    expect(price.body).toEqual({ symbol: 'ETH-USD', mid: '2000' });
    expect((await control('PUT', '/prices', { symbol: 'NOPE-USD', price: '1' })).status).toBe(404);

    expect(
      (await control('PUT', '/faults', { faults: [{ kind: 'error', path: '/accounts/balances', times: 1 }] })).body,
    ).toHaveLength(1);
    expect((await t.api('GET', `${V1}/accounts/balances`)).status).toBe(500);
    expect((await t.api('GET', `${V1}/accounts/balances`)).status).toBe(200);
    expect((await control('PUT', '/faults', { faults: [{ kind: 'explode' }] })).status).toBe(422);
    expect((await control('DELETE', '/faults')).status).toBe(204);

    const q = await t.api('POST', `${V1}/order_quotes`, {
      body: { symbol: 'ETH-USD', side: 'sell', quantity: '1', payment_method: 'user_balance' },
    });
    const o = await t.api('POST', `${V1}/orders`, {
      body: { execution_type: 'rfq', order_quote_id: q.body.quote_id, client_order_id: 'ctl-1' },
    });
    expect((await control('GET', '/quotes')).body.map((x: { quote_id: string }) => x.quote_id)).toContain(
      q.body.quote_id,
    );
    expect((await control('GET', '/orders')).body.map((x: { client_order_id: string }) => x.client_order_id)).toContain(
      'ctl-1',
    );
    expect((await control('POST', `/orders/${o.body.id}/cancel`, { reason: 'test' })).body.cancel_reason).toBe('test');

    const book = (await control('GET', '/addresses')).body as Array<{ id: string; label: string }>;
    const treasury = book.find((a) => a.label === 'Treasury cold storage')!.id;
    const w = await t.api('POST', `${V1}/crypto/withdrawals`, {
      body: { crypto_currency_id: 101, amount: '0.1', address_book_address_id: treasury },
    });
    const listed = (await control('GET', '/withdrawals')).body as Array<{ id: string; held: boolean }>;
    expect(listed.find((x) => x.id === w.body.id)?.held).toBe(true);
    expect((await control('POST', `/withdrawals/${w.body.id}/end`, { status: 'failed' })).body.status).toBe('failed');
    expect((await control('POST', `/withdrawals/${w.body.id}/end`, { status: 'failed' })).status).toBe(422);

    const unverified = book.find((a) => a.label === 'Personal wallet (unverified)')!.id;
    expect((await control('PATCH', `/addresses/${unverified}`, { status: 'verified' })).body.status).toBe('verified');
    const sub = await t.api('POST', `${V1}/transactions/${d.transaction.uuid}/counterparty_info`, {
      body: { wallet_identity_attributes: { entity_type: 'individual', entity_name: 'Jo', ownership: 'first_party' } },
    });
    expect(sub.status).toBe(201);
    expect((await control('GET', '/counterparty-submissions')).body[0].transaction_id).toBe(d.transaction.uuid);
    expect((await control('GET', '/requests')).body.length).toBeGreaterThan(5);
    expect((await control('GET', '/nothing')).status).toBe(404);
  });

  it("sets a withdrawal's or an order's status through their own rules: forward and kept there, ended or cancelled as ever, never back", async () => {
    const book = (await control('GET', '/addresses')).body as Array<{ id: string; label: string }>;
    const treasury = book.find((a) => a.label === 'Treasury cold storage')!.id;
    const held = async (id: string) =>
      ((await control('GET', '/withdrawals')).body as Array<{ id: string; held: boolean }>).find((x) => x.id === id)!
        .held;
    const w = (
      await t.api('POST', `${V1}/crypto/withdrawals`, {
        body: { crypto_currency_id: 101, amount: '0.1', address_book_address_id: treasury },
      })
    ).body;
    const status = async (id: string) => (await t.api('GET', `${V1}/crypto/withdrawals/${id}`)).body;

    // Broadcasted passes through processing (travel rule approved) and gets its hash; the clock then leaves it there.
    expect((await control('POST', `/withdrawals/${w.id}/status`, { status: 'broadcasted' })).body.status).toBe(
      'broadcasted',
    );
    await control('POST', '/clock/advance', { ms: 10 * 60_000 });
    expect(await status(w.id)).toMatchObject({
      status: 'broadcasted',
      travel_rule_status: 'approved',
      transaction_hash: expect.any(String),
    });
    expect(await held(w.id)).toBe(true);
    // Never back; completed releases the hold; a final status stays.
    expect((await control('POST', `/withdrawals/${w.id}/status`, { status: 'processing' })).status).toBe(422);
    expect((await control('POST', `/withdrawals/${w.id}/status`, { status: 'completed' })).body.status).toBe(
      'completed',
    );
    expect(await held(w.id)).toBe(false);
    expect((await control('POST', `/withdrawals/${w.id}/status`, { status: 'failed' })).status).toBe(422);
    // Ended as endWithdrawal ends it: the amount plus fee returns.
    const regular = async () =>
      (await control('GET', '/balances')).body.find((b: { currency: string }) => b.currency === 'BTC')
        .regular as string;
    const before = await regular();
    const v = (
      await t.api('POST', `${V1}/crypto/withdrawals`, {
        body: { crypto_currency_id: 101, amount: '0.1', address_book_address_id: treasury },
      })
    ).body;
    expect(await regular()).not.toBe(before);
    expect((await control('POST', `/withdrawals/${v.id}/status`, { status: 'rejected' })).body.status).toBe('rejected');
    expect(await regular()).toBe(before);
    expect((await control('POST', `/withdrawals/${v.id}/status`, { status: 'sent' })).status).toBe(422);
    expect((await control('POST', '/withdrawals/nope/status', { status: 'completed' })).status).toBe(404);
    // Redated, as an exchange whose clock is off would record it: the list's time filter follows.
    expect((await control('PATCH', `/withdrawals/${v.id}`, { created_at: T0 - 3_600_000 })).body.created_at).toBe(
      T0 - 3_600_000,
    );
    const inWindow = (await t.api('GET', `${V1}/crypto/withdrawals?from_time=${T0 - 60_000}&page[size]=50`))
      .body as Array<{ id: string }>;
    expect(inWindow.map((x) => x.id)).toContain(w.id);
    expect(inWindow.map((x) => x.id)).not.toContain(v.id);
    expect((await control('PATCH', `/withdrawals/${v.id}`, { created_at: -1 })).status).toBe(422);

    // An order held Open past the time it would complete; then completed and settled; never back.
    const order = async () => {
      const q = await t.api('POST', `${V1}/order_quotes`, {
        body: { symbol: 'ETH-USD', side: 'sell', quantity: '1', payment_method: 'user_balance' },
      });
      return (await t.api('POST', `${V1}/orders`, { body: { execution_type: 'rfq', order_quote_id: q.body.quote_id } }))
        .body as { id: string };
    };
    const orderStatus = async (id: string) =>
      String((await t.api('GET', `${V1}/orders/${id}`)).body.status).toLowerCase();
    const o = await order();
    expect(
      String((await control('POST', `/orders/${o.id}/status`, { status: 'open' })).body.status).toLowerCase(),
    ).toBe('open');
    await control('POST', '/clock/advance', { ms: 60_000 });
    expect(await orderStatus(o.id)).toBe('open');
    expect((await control('POST', `/orders/${o.id}/status`, { status: 'pending' })).status).toBe(422);
    expect(
      String((await control('POST', `/orders/${o.id}/status`, { status: 'completed' })).body.status).toLowerCase(),
    ).toBe('completed');
    expect(await orderStatus(o.id)).toBe('completed');
    expect((await control('POST', `/orders/${o.id}/status`, { status: 'cancelled' })).status).toBe(422);
    // Cancelled as cancelOrder cancels: Cancelling, then Cancelled.
    const c = await order();
    expect(
      String((await control('POST', `/orders/${c.id}/status`, { status: 'cancelled' })).body.status).toLowerCase(),
    ).toBe('cancelling');
    await control('POST', '/clock/advance', { ms: 5_000 });
    expect(await orderStatus(c.id)).toBe('cancelled');
  });

  it("injects a withdrawal made in the exchange's app, by the exchange's rules, at the time given", async () => {
    const book = (await control('GET', '/addresses')).body as Array<{ id: string; label: string }>;
    const id = (label: string) => book.find((a) => a.label === label)!.id;
    const btc = async () =>
      (await control('GET', '/balances')).body.find((b: { currency: string }) => b.currency === 'BTC')
        .regular as string;
    const before = await btc();
    const now = (await control('GET', '/clock')).body.now as number;
    const made = await control('POST', '/withdrawals', {
      crypto_currency_id: 101,
      amount: '0.1',
      address_book_address_id: id('Treasury cold storage'),
      note: 'by hand',
      created_at: now - 30_000,
    });
    expect(made.status).toBe(201);
    // Made 30 s ago: it has moved along its timeline since, and its amount plus fee left the balance.
    expect(made.body).toMatchObject({ created_at: now - 30_000, status: 'broadcasted', note: 'by hand' });
    expect(await btc()).not.toBe(before);
    const listed = (await t.api('GET', `${V1}/crypto/withdrawals?page[size]=50`)).body as Array<{ id: string }>;
    expect(listed.map((w) => w.id)).toContain(made.body.id);
    const refused = await control('POST', '/withdrawals', {
      crypto_currency_id: 102,
      amount: '1',
      address_book_address_id: id('Vendor without recipient details'),
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].message).toMatch(/Recipient information missing/);
  });

  it('holds a withdrawal at a status or Travel Rule status it never gives on its own (the reference shows none), kept until moved on by its rules', async () => {
    const book = (await control('GET', '/addresses')).body as Array<{ id: string; label: string }>;
    const treasury = book.find((a) => a.label === 'Treasury cold storage')!.id;
    const w = (
      await t.api('POST', `${V1}/crypto/withdrawals`, {
        body: { crypto_currency_id: 101, amount: '0.1', address_book_address_id: treasury },
      })
    ).body;
    const read = async () => (await t.api('GET', `${V1}/crypto/withdrawals/${w.id}`)).body;
    // The Travel Rule approved while the status stays pending: not a step of its timeline.
    expect(
      (await control('POST', `/withdrawals/${w.id}/hold`, { travel_rule_status: 'approved', pending_reason: null }))
        .body,
    ).toMatchObject({ status: 'pending', travel_rule_status: 'approved', pending_reason: null });
    await control('POST', '/clock/advance', { ms: 10 * 60_000 });
    expect(await read()).toMatchObject({ status: 'pending', travel_rule_status: 'approved' });
    expect((await control('POST', `/withdrawals/${w.id}/hold`, { status: 'held_for_review' })).body.status).toBe(
      'held_for_review',
    );
    await control('POST', '/clock/advance', { ms: 10 * 60_000 });
    expect(await read()).toMatchObject({ status: 'held_for_review', transaction_hash: null });
    // Its own statuses go through setWithdrawalStatus; a malformed one is refused.
    expect((await control('POST', `/withdrawals/${w.id}/hold`, { status: 'completed' })).status).toBe(422);
    expect((await control('POST', `/withdrawals/${w.id}/hold`, { status: 'Held!' })).status).toBe(422);
    expect((await control('POST', `/withdrawals/${w.id}/hold`, { pending_reason: 'Why?' })).status).toBe(422);
    expect((await control('POST', `/withdrawals/${w.id}/status`, { status: 'broadcasted' })).body).toMatchObject({
      status: 'broadcasted',
      transaction_hash: expect.any(String),
    });
    await control('POST', `/withdrawals/${w.id}/status`, { status: 'completed' });
    expect((await control('POST', `/withdrawals/${w.id}/hold`, { status: 'held_for_review' })).status).toBe(422);
  });

  it("sets a fiat withdrawal's status along its timeline and keeps it there, or rejects it with the funds returned", async () => {
    const usd = async () =>
      (await control('GET', '/balances')).body.find((b: { currency: string }) => b.currency === 'USD')
        .regular as string;
    const make = async () =>
      (
        await t.api('POST', `${V1}/fiat/withdrawals`, {
          body: { bank_account_id: 1001, currency: 'USD', amount: '1000' },
        })
      ).body as { id: number };
    const listed = async (id: number) =>
      ((await t.api('GET', `${V1}/fiat/withdrawals?page[size]=50`)).body as Array<{ id: number; status: string }>).find(
        (x) => x.id === id,
      )!.status;
    const a = await make();
    expect((await control('POST', `/fiat-withdrawals/${a.id}/status`, { status: 'processing' })).body.status).toBe(
      'processing',
    );
    await control('POST', '/clock/advance', { ms: 10 * 60_000 });
    expect(await listed(a.id)).toBe('processing');
    expect((await control('POST', `/fiat-withdrawals/${a.id}/status`, { status: 'pending' })).status).toBe(422);
    expect((await control('POST', `/fiat-withdrawals/${a.id}/status`, { status: 'completed' })).body.status).toBe(
      'completed',
    );
    expect((await control('POST', `/fiat-withdrawals/${a.id}/status`, { status: 'rejected' })).status).toBe(422);
    const before = await usd();
    const b = await make();
    expect(await usd()).not.toBe(before);
    expect((await control('POST', `/fiat-withdrawals/${b.id}/status`, { status: 'rejected' })).body.status).toBe(
      'rejected',
    );
    expect(await usd()).toBe(before);
    expect((await control('POST', '/fiat-withdrawals/nope/status', { status: 'completed' })).status).toBe(404);
    expect((await control('POST', `/fiat-withdrawals/${b.id}/status`, { status: 'sent' })).status).toBe(422);
  });

  it("changes the exchange's data as its app would: an address's tag or its removal, a fee, a fiat limit, a bank account", async () => {
    const book = (await control('GET', '/addresses')).body as Array<{ id: string; label: string }>;
    const partner = book.find((a) => a.label === 'OTC partner (ERC20)')!.id;
    expect((await control('PATCH', `/addresses/${partner}`, { address_tag: '12345' })).body.address_tag).toBe('12345');
    expect((await control('DELETE', `/addresses/${partner}`)).status).toBe(204);
    const listed = (await t.api('GET', `${V1}/address_book/addresses?page[size]=50`)).body as Array<{ id: string }>;
    expect(listed.map((a) => a.id)).not.toContain(partner);
    expect((await control('DELETE', `/addresses/${partner}`)).status).toBe(404);

    expect((await control('PATCH', '/currencies/102', { withdrawal_fee: '0.004' })).body.withdrawal_fee).toBe('0.004');
    const eth = (
      (await t.api('GET', `${V1}/crypto_currencies`)).body as Array<{ id: number; withdrawal_fee: string }>
    ).find((c) => c.id === 102)!;
    expect(eth.withdrawal_fee).toBe('0.004');
    expect((await control('PATCH', '/currencies/102', { withdrawal_fee: '-1' })).status).toBe(422);

    expect((await control('PUT', '/fiat-rules', { currency: 'USD', maximum: '500' })).body.maximum).toBe('500');
    const limits = (await t.api('GET', `${V1}/fiat/withdrawal_limits`)).body as Array<Record<string, string>>;
    expect(JSON.stringify(limits)).toContain('500');
    const over = await t.api('POST', `${V1}/fiat/withdrawals`, {
      body: { bank_account_id: 1001, currency: 'USD', amount: '1000' },
    });
    expect(over.status).toBe(422);
    expect((await control('PUT', '/fiat-rules', { currency: 'EUR', maximum: '1' })).status).toBe(404);

    const changed = await control('PATCH', '/bank-accounts/1001', { account_number: '0099999999', currency: 'SGD' });
    expect(changed.body).toMatchObject({ account_number: '0099999999', currency: 'SGD' });
    const banks = (await t.api('GET', `${V1}/bank_accounts`)).body as Array<{ id: number; currency: string }>;
    expect(banks.find((b) => b.id === 1001)!.currency).toBe('SGD');
    expect((await control('PATCH', '/bank-accounts/1001', { account_number: 'x' })).status).toBe(422);
    expect((await control('PATCH', '/bank-accounts/9', { verified: true })).status).toBe(404);
    // Put back what the next tests read.
    await control('PATCH', '/bank-accounts/1001', { currency: 'USD' });
    await control('PUT', '/fiat-rules', { currency: 'USD', maximum: '250000' });
  });

  it('registers keys for other accounts, seeded like the first', async () => {
    const k = makeKey();
    const a = await control('POST', '/keys', { public_key: k.uncompressedHex, scopes: ['read'], account: 'desk-c' });
    expect(a.status).toBe(201);
    expect(a.body.api_key).toBe(k.compressedHex);
    const book = await t.api('GET', `${V1}/address_book/addresses?page[size]=50`, { key: k });
    expect(book.status).toBe(200);
    expect(book.body).toHaveLength(6);
    expect((await control('GET', '/state')).body.accounts).toEqual(['main', 'desk-c']);
  });

  it('resets to the seeded state', async () => {
    const before = (await control('GET', '/withdrawals')).body.length;
    expect(before).toBeGreaterThan(3);
    expect((await control('POST', '/reset')).status).toBe(200);
    expect((await control('GET', '/withdrawals')).body).toHaveLength(3);
    expect((await control('GET', '/orders')).body).toHaveLength(0);
    expect((await t.api('GET', `${V1}/accounts/balances?currency=ETH`)).body[0].regular).toBe('45');
  });
});
