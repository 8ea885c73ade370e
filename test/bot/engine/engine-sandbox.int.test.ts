/**
 * The engine on the real client against the sandbox over loopback HTTP: every kind of request
 * from approval to its final status, the re-quote paths, and polling through the sandbox's
 * withdrawal statuses (Travel Rule check, broadcast with hash and explorer link, completed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/bot/engine/engine.js';
import type { RequestEvent } from '../../../src/bot/ports/events.js';
import type { AddressBookAddress, CryptoCurrencyEntry } from '../../../src/bot/exchange/schemas.js';
import { SequentialIds } from '../../support/sequential-ids.js';
import { createPolicy } from '../../../src/bot/domain/policy.js';
import { isFinishedRequest, type RequestRecord } from '../../../src/bot/domain/record.js';
import { memoryAuditLog, memoryKv, memoryRepository } from '../../../src/bot/store/memory.js';
import { startTestExchange, type TestExchange } from '../../support/bot.js';
import { collect } from '../../../src/bot/engine/bounded-lists.js';
import type { RequestInput } from '../../../src/bot/engine/approval/make-request.js';

let sx: TestExchange;
let engine: Engine;
const events: RequestEvent[] = [];
let destination: AddressBookAddress;
let entry: CryptoCurrencyEntry;

beforeAll(async () => {
  sx = await startTestExchange({ seed: 'engine-e2e' });
  engine = createEngine({
    exchange: sx.exchange,
    requests: memoryRepository<RequestRecord>(isFinishedRequest),
    kv: memoryKv(),
    audit: memoryAuditLog(),
    notifier: { notify: (e: RequestEvent) => void events.push(e) },
    clock: sx.clock,
    ids: new SequentialIds('E'),
    policy: createPolicy({ requesters: ['U_REQ'], approvers: ['U_A1', 'U_A2'] }),
    config: { poll: { intervalMs: 2_000, maxIntervalMs: 10_000 } },
  });
  await engine.start();
  const book = await collect(sx.api.listAddressBook({ pageSize: 100 }));
  destination = book.find(
    (a) =>
      a.status === 'verified' &&
      a.wallet_identity &&
      !(a.withdrawal_cooldown_until && a.withdrawal_cooldown_until > sx.clock.now()),
  )!;
  entry = (await sx.api.listCryptoCurrencies()).find((e) =>
    destination.crypto_currency_networks.some((n) => n.uuid === e.network_id),
  )!;
});
afterAll(() => sx.sandbox.close());

async function approved(input: RequestInput): Promise<RequestRecord> {
  const created = await engine.request('U_REQ', input);
  if (!created.ok) throw new Error(`refused: ${created.message}`);
  await engine.approve(created.request.id, 'U_A1', created.request.snapshotHash);
  const last = await engine.approve(created.request.id, 'U_A2', created.request.snapshotHash);
  if (last.ok) await last.execution;
  await engine.idle();
  return (await engine.get(created.request.id))!;
}

async function runFor(ms: number, step = 2_000): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    sx.sandbox.control.advance(step);
    await engine.tick();
    await engine.idle();
  }
}

describe('engine against the sandbox', () => {
  it('crypto withdrawal: executed once, followed to completed, each change reported once', async () => {
    const r = await approved({
      kind: 'crypto_withdrawal',
      cryptoCurrencyId: entry.id,
      addressBookId: destination.id,
      amount: '0.01234567',
    });
    expect(r.state).toBe('submitted');
    expect(r.snapshot).toMatchObject({ amount: '0.01234567' });
    await runFor(80_000);
    const done = (await engine.get(r.id))!;
    expect(done).toMatchObject({
      state: 'completed',
      remote: {
        status: 'completed',
        transactionHash: expect.any(String),
        linkExplorer: expect.stringContaining(done.remote!.transactionHash!),
      },
    });
    const statuses = events
      .filter(
        (e): e is Extract<RequestEvent, { type: 'status.changed' }> =>
          e.type === 'status.changed' && e.requestId === r.id,
      )
      .map((e) => e.status);
    expect(statuses).toEqual(['pending', 'processing', 'broadcasted', 'completed']);
    expect(sx.sandbox.control.withdrawals().filter((w) => w.id === done.execution!.exchangeId)).toHaveLength(1);
  });

  it('fiat withdrawal and bank account removal', async () => {
    const banks = await collect(sx.api.listBankAccounts({ currency: 'USD' }, { pageSize: 100 }));
    const fiat = await approved({
      kind: 'fiat_withdrawal',
      currency: 'USD',
      bankAccountId: banks[0]!.id,
      amount: '1500',
    });
    expect(fiat.state).toBe('submitted');
    await runFor(130_000, 10_000);
    expect((await engine.get(fiat.id))!.state).toBe('completed');

    const removal = await approved({ kind: 'bank_account_removal', bankAccountId: banks.at(-1)!.id });
    expect(removal.state).toBe('completed');
    expect(
      (await collect(sx.api.listBankAccounts(undefined, { pageSize: 100 }))).some((b) => b.id === banks.at(-1)!.id),
    ).toBe(false);
  });

  it('trade: the quote expires during the approvals, is re-quoted within the limit and ordered; the order completes', async () => {
    const created = await engine.request('U_REQ', {
      kind: 'trade',
      symbol: 'BTC-USD',
      side: 'buy',
      quantity: '0.01',
      quantityCurrency: 'BTC',
      paymentMethod: 'user_balance',
      limit: { slippageBps: 1000 },
    });
    if (!created.ok) throw new Error(created.message);
    await engine.approve(created.request.id, 'U_A1', created.request.snapshotHash);
    sx.sandbox.control.advance(3_000);
    const last = await engine.approve(created.request.id, 'U_A2', created.request.snapshotHash);
    if (last.ok) await last.execution;
    await engine.idle();
    const r = (await engine.get(created.request.id))!;
    expect(r.state).toBe('submitted');
    expect(events.find((e) => e.type === 'trade.requoted' && e.requestId === r.id)).toMatchObject({
      reason: 'expired',
      withinLimit: true,
    });
    await runFor(6_000);
    expect(await engine.get(r.id)).toMatchObject({ state: 'completed', result: { price: expect.any(String) } });
  });

  it('trade: a limit the re-quote is beyond goes back for approval at the new price', async () => {
    const quote = await engine.indicativeQuote({
      symbol: 'BTC-USD',
      side: 'buy',
      quantity: '0.02',
      quantityCurrency: 'BTC',
      paymentMethod: 'user_balance',
    });
    // A ceiling well below the market: whatever the walk does in 3 s, the re-quote is beyond it.
    const limit = (Number(quote.price) * 0.5).toFixed(2);
    const created = await engine.request('U_REQ', {
      kind: 'trade',
      symbol: 'BTC-USD',
      side: 'buy',
      quantity: '0.02',
      quantityCurrency: 'BTC',
      paymentMethod: 'user_balance',
      limit: { price: limit },
    });
    if (!created.ok) throw new Error(created.message);
    const ordersBefore = sx.sandbox.control.orders().length;
    await engine.approve(created.request.id, 'U_A1', created.request.snapshotHash);
    sx.sandbox.control.advance(3_000);
    await engine.approve(created.request.id, 'U_A2', created.request.snapshotHash);
    await engine.idle();
    const r = (await engine.get(created.request.id))!;
    expect(r).toMatchObject({ state: 'awaiting_reapproval', round: 2, approvals: [] });
    expect(r.snapshotHash).not.toBe(created.request.snapshotHash);
    expect(sx.sandbox.control.orders()).toHaveLength(ordersBefore);
  });
});
