import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WITHDRAWAL_STATUSES } from '../../../src/bot/exchange/assumptions.js';
import { cryptoWithdrawal, cryptoWithdrawalListItem } from '../../../src/bot/exchange/schemas.js';
import { WITHDRAWAL_TIMELINE } from '../../../src/stand-ins/sandbox/timings.js';
import { makeKey } from './support/sign.js';
import { ALL_SCOPES, expectSchema, startTestSandbox, V1, type TestSandbox } from './support/sandbox.js';

let t: TestSandbox;
let treasury: string;
const other = makeKey();
beforeAll(async () => {
  t = await startTestSandbox({
    extraKeys: [{ publicKeyHex: other.compressedHex, scopes: ALL_SCOPES, account: 'other' }],
  });
  const book = (await t.api('GET', `${V1}/address_book/addresses?page[size]=50`)).body as Array<{
    id: string;
    label: string;
  }>;
  treasury = book.find((a) => a.label === 'Treasury cold storage')!.id;
});
afterAll(() => t.close());

const get = async (id: string) => {
  const a = await t.api('GET', `${V1}/crypto/withdrawals/${id}`);
  expect(a.status).toBe(200);
  return expectSchema(cryptoWithdrawal, a.body);
};
const btc = async () => t.sandbox.control.balances().find((b) => b.currency === 'BTC')!;

describe('crypto withdrawal lifecycle on the sandbox clock', () => {
  it('walks pending -> processing -> broadcasted -> completed with travel rule, pending reason, and a hash only once on chain', async () => {
    const before = await btc();
    const created = await t.api('POST', `${V1}/crypto/withdrawals`, {
      body: { crypto_currency_id: 101, amount: '0.5', address_book_address_id: treasury },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    let w = await get(id);
    expect([w.status, w.travel_rule_status, w.pending_reason, w.transaction_hash, w.link_explorer]).toEqual([
      'pending',
      'pending',
      'travel_rule_check',
      null,
      null,
    ]);
    expect((await btc()).held_by_withdrawals).toEqual(['0.5002']);
    expect((await btc()).locked).toBe(before.locked);

    const seen: string[] = [w.status];
    for (let i = 1; i < WITHDRAWAL_TIMELINE.length; i++) {
      t.sandbox.control.advance(WITHDRAWAL_TIMELINE[i]!.afterMs - WITHDRAWAL_TIMELINE[i - 1]!.afterMs - 1);
      expect((await get(id)).status).toBe(seen[seen.length - 1]); // not yet
      t.sandbox.control.advance(1);
      w = await get(id);
      seen.push(w.status);
      if (w.status === 'processing') {
        expect(w.travel_rule_status).toBe('approved');
        expect(w.pending_reason).toBeNull();
        expect(w.transaction_hash).toBeNull();
      }
      if (w.status === 'broadcasted') {
        expect(w.transaction_hash).toMatch(/^[0-9a-f]{64}$/);
        expect(w.link_explorer).toBe(`https://mempool.space/tx/${w.transaction_hash}`);
      }
    }
    expect(seen).toEqual(['pending', 'processing', 'broadcasted', 'completed']);
    for (const s of seen) expect(WITHDRAWAL_STATUSES).toContain(s);
    expect(w.invoice_downloadable).toBe(true);
    const after = await btc();
    expect(after.held_by_withdrawals).toEqual([]);
    expect(after.regular).toBe('2.9998'); // 3.5 - 0.5 - 0.0002 fee, gone for good
    const list = await t.api('GET', `${V1}/crypto/withdrawals?page[size]=1`);
    const item = expectSchema(cryptoWithdrawalListItem, list.body[0]);
    expect(item.id).toBe(id);
    expect(item.status).toBe('completed');
  });

  it('a failed or rejected withdrawal returns amount plus fee to regular', async () => {
    const start = (await btc()).regular;
    const created = await t.api('POST', `${V1}/crypto/withdrawals`, {
      body: { crypto_currency_id: 101, amount: '1', address_book_address_id: treasury },
    });
    expect((await btc()).regular).toBe('1.9996');
    t.sandbox.control.advance(6_000);
    t.sandbox.control.endWithdrawal(created.body.id, 'rejected');
    const w = await get(created.body.id);
    expect(w.status).toBe('rejected');
    expect((await btc()).regular).toBe(start);
    t.sandbox.control.advance(120_000);
    expect((await get(created.body.id)).status).toBe('rejected');
    expect(() => t.sandbox.control.endWithdrawal(created.body.id, 'failed')).toThrow(/already rejected/);
  });

  it("answers 404 for another account's withdrawal and for ids that are not uuids", async () => {
    const mine = (await t.api('GET', `${V1}/crypto/withdrawals`)).body[0].id;
    const a = await t.api('GET', `${V1}/crypto/withdrawals/${mine}`, { key: other });
    expect(a.status).toBe(404);
    expect((await t.api('GET', `${V1}/crypto/withdrawals/not-a-uuid`)).status).toBe(404);
  });
});
