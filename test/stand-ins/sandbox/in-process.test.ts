/**
 * The sandbox behind an in-process `fetch`: the real client, signed, against the real sandbox rules,
 * with no socket (the unit tier refuses one); faults reach the client as they would on the wire.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { collect } from '../../../src/bot/engine/bounded-lists.js';
import { createSandboxClock } from '../../../src/stand-ins/sandbox/sandbox-clock.js';
import { openSandbox, type InProcessSandbox } from '../../../src/stand-ins/sandbox/in-process.js';
import type { SandboxCommit } from '../../../src/stand-ins/sandbox/core.js';
import { testClient } from '../../support/bot-exchange.js';
import { makeKey } from './support/sign.js';
import { T0 } from './support/sandbox.js';

let open: InProcessSandbox[] = [];
afterEach(async () => {
  await Promise.all(open.map((s) => s.close()));
  open = [];
});

function setUp(o: { timeoutMs?: number; onCommit?: (c: SandboxCommit) => void } = {}) {
  const key = makeKey();
  const sandbox = openSandbox({
    seed: 'in-process',
    clock: createSandboxClock({ startMs: T0, followRealTime: false }),
    authNow: Date.now,
    keys: [{ publicKeyHex: key.compressedHex, scopes: ['read', 'transfer', 'trade'] }],
    ...(o.onCommit ? { onCommit: o.onCommit } : {}),
  });
  open.push(sandbox);
  const client = testClient(sandbox.url, key.privateKeyHex, {
    fetch: sandbox.fetch,
    retry: false,
    timeoutMs: o.timeoutMs ?? 1_000,
  });
  return { sandbox, client };
}

async function usable(s: ReturnType<typeof setUp>) {
  const book = await collect(s.client.listAddressBook({ pageSize: 100 }));
  const entries = await s.client.listCryptoCurrencies();
  const address = book.find((a) => a.status === 'verified' && !a.withdrawal_cooldown_until)!;
  const entry = entries.find((e) => address.crypto_currency_networks.some((n) => n.uuid === e.network_id))!;
  return { address, entry };
}

describe('the sandbox in process', () => {
  it('serves the signed client: a withdrawal made is read back and listed, and the access log has each request', async () => {
    const s = setUp();
    const { address, entry } = await usable(s);
    const made = await s.client.createCryptoWithdrawal({
      crypto_currency_id: entry.id,
      amount: entry.minimum_withdrawal ?? '1',
      address_book_address_id: address.id,
      request_id: 'in-process-1',
    });
    expect((await s.client.getCryptoWithdrawal(made.id)).id).toBe(made.id);
    expect((await collect(s.client.listCryptoWithdrawals())).map((w) => w.id)).toContain(made.id);
    expect(s.sandbox.control.requests().map((r) => `${r.method} ${r.status}`)).toContain('POST 201');
  });

  it('answers without waiting on a timer: a 1 ms client timeout never fires, so a short one only ends a hang', async () => {
    const s = setUp({ timeoutMs: 1 });
    for (let i = 0; i < 100; i++) {
      await s.client.listBalances();
      await collect(s.client.listCryptoWithdrawals(undefined, { pageSize: 2, maxPages: 2 }));
    }
  });

  it('a signature the sandbox cannot verify is refused as on the wire (401)', async () => {
    const s = setUp();
    const stranger = testClient(s.sandbox.url, makeKey().privateKeyHex, { fetch: s.sandbox.fetch, retry: false });
    await expect(stranger.listBalances()).rejects.toMatchObject({ kind: 'unauthorized', status: 401 });
  });

  it('drop is a network failure, hang a timeout, error a 5xx; the *_after_commit faults committed the write', async () => {
    const s = setUp({ timeoutMs: 50 });
    const { address, entry } = await usable(s);
    s.sandbox.control.addFault({ kind: 'drop', path: '/accounts/balances', times: 1 });
    await expect(s.client.listBalances()).rejects.toMatchObject({ kind: 'network' });
    s.sandbox.control.addFault({ kind: 'hang', path: '/accounts/balances', times: 1 });
    await expect(s.client.listBalances()).rejects.toMatchObject({ kind: 'timeout' });
    s.sandbox.control.addFault({ kind: 'error', status: 502, path: '/accounts/balances', times: 1 });
    await expect(s.client.listBalances()).rejects.toMatchObject({ kind: 'server', status: 502 });
    s.sandbox.control.addFault({ kind: 'drop_after_commit', method: 'POST', path: '/crypto/withdrawals', times: 1 });
    const body = {
      crypto_currency_id: entry.id,
      amount: entry.minimum_withdrawal ?? '1',
      address_book_address_id: address.id,
      request_id: 'in-process-2',
    };
    await expect(s.client.createCryptoWithdrawal(body)).rejects.toMatchObject({ kind: 'network' });
    expect(s.sandbox.control.withdrawals().filter((w) => w.request_id === 'in-process-2')).toHaveLength(1);
    // Committed, then no answer at all, or a gateway's 5xx.
    s.sandbox.control.addFault({ kind: 'hang_after_commit', method: 'POST', path: '/crypto/withdrawals', times: 1 });
    await expect(s.client.createCryptoWithdrawal({ ...body, request_id: 'in-process-4' })).rejects.toMatchObject({
      kind: 'timeout',
    });
    s.sandbox.control.addFault({ kind: 'error_after_commit', method: 'POST', path: '/crypto/withdrawals', times: 1 });
    await expect(s.client.createCryptoWithdrawal({ ...body, request_id: 'in-process-5' })).rejects.toMatchObject({
      kind: 'server',
      status: 502,
    });
    const made = s.sandbox.control.withdrawals().map((w) => w.request_id);
    expect(made.filter((id) => id === 'in-process-4' || id === 'in-process-5')).toEqual([
      'in-process-4',
      'in-process-5',
    ]);
    expect((await s.client.listBalances()).length).toBeGreaterThan(0);
  });

  it('a hung request ends when the sandbox closes', async () => {
    const s = setUp({ timeoutMs: 60_000 });
    s.sandbox.control.addFault({ kind: 'hang', path: '/accounts/balances' });
    const waiting = s.client.listBalances();
    await s.sandbox.close();
    await expect(waiting).rejects.toMatchObject({ kind: 'network' });
  });

  it('onCommit hears of a write at its commit, before the caller has the answer, and never of a read or a refusal', async () => {
    const heard: { commit: SandboxCommit; answered: boolean }[] = [];
    let answered = false;
    const s = setUp({ onCommit: (commit) => heard.push({ commit, answered }) });
    const { address, entry } = await usable(s);
    await s.client.listBalances();
    await expect(
      s.client.createCryptoWithdrawal({
        crypto_currency_id: entry.id,
        amount: '1000000000',
        address_book_address_id: address.id,
      }),
    ).rejects.toMatchObject({ kind: 'unprocessable' });
    const made = await s.client.createCryptoWithdrawal({
      crypto_currency_id: entry.id,
      amount: entry.minimum_withdrawal ?? '1',
      address_book_address_id: address.id,
      request_id: 'in-process-3',
    });
    answered = true;
    expect(heard).toEqual([
      {
        answered: false,
        commit: expect.objectContaining({
          method: 'POST',
          path: '/public_api/v1/crypto/withdrawals',
          at: T0,
          body: expect.objectContaining({ request_id: 'in-process-3' }),
          answer: expect.objectContaining({ id: made.id }),
        }),
      },
    ]);
  });

  it("the client measures the exchange's clock from its Date header", async () => {
    const s = setUp();
    await s.client.listBalances();
    // The sandbox clock stands at T0; the client's is the machine's.
    expect(Math.abs(s.client.clockOffsetMs()! - (T0 - Date.now()))).toBeLessThan(2_000);
  });
});
