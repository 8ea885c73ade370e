import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cryptoDeposit } from '../../../src/bot/exchange/schemas.js';
import { expectSchema, startTestSandbox, T0, V1, type TestSandbox } from './support/sandbox.js';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('time filters', () => {
  it('crypto deposits: created_at_after and created_at_before (epoch ms)', async () => {
    const recent = await t.api('GET', `${V1}/crypto/deposits?created_at_after=${T0 - 3 * HOUR}&page[size]=50`);
    expect(recent.status).toBe(200);
    const items = recent.body.map((x: unknown) => expectSchema(cryptoDeposit, x));
    expect(items).toHaveLength(2);
    for (const d of items) expect(d.created_at).toBeGreaterThan(T0 - 3 * HOUR);
    const old = await t.api('GET', `${V1}/crypto/deposits?created_at_before=${T0 - 5 * DAY}&page[size]=50`);
    expect(old.body).toHaveLength(2);
    const window = await t.api(
      'GET',
      `${V1}/crypto/deposits?created_at_after=${T0 - 8 * DAY}&created_at_before=${T0 - DAY}&page[size]=50`,
    );
    expect(window.body).toHaveLength(2);
  });

  it('crypto withdrawals: from_time and to_time (inclusive)', async () => {
    const all = (await t.api('GET', `${V1}/crypto/withdrawals?page[size]=50`)).body as Array<{ created_at: number }>;
    const newest = Math.max(...all.map((w) => w.created_at));
    const a = await t.api('GET', `${V1}/crypto/withdrawals?from_time=${newest}&page[size]=50`);
    expect(a.body).toHaveLength(1);
    const b = await t.api('GET', `${V1}/crypto/withdrawals?to_time=${newest - 1}&page[size]=50`);
    expect(b.body).toHaveLength(all.length - 1);
  });

  it('orders: from_time and to_time', async () => {
    const q = await t.api('POST', `${V1}/order_quotes`, {
      body: { symbol: 'ETH-USD', side: 'buy', quantity: '100', payment_method: 'user_balance' },
    });
    const o = await t.api('POST', `${V1}/orders`, { body: { execution_type: 'rfq', order_quote_id: q.body.quote_id } });
    expect(o.status).toBe(201);
    expect((await t.api('GET', `${V1}/orders?from_time=${T0}`)).body).toHaveLength(1);
    expect((await t.api('GET', `${V1}/orders?to_time=${T0 - 1}`)).body).toHaveLength(0);
  });

  it('refuses invalid time parameters with 422', async () => {
    const cases = [
      ['crypto/deposits', 'created_at_after', 'yesterday'],
      ['crypto/deposits', 'created_at_before', '-1'],
      ['crypto/deposits', 'created_at_after', '1.5'],
      ['crypto/deposits', 'created_at_before', ''],
      ['crypto/withdrawals', 'from_time', '2025-01-01'],
      ['crypto/withdrawals', 'to_time', '1e12'],
      ['orders', 'from_time', 'abc'],
    ];
    for (const [path, name, value] of cases) {
      const a = await t.api('GET', `${V1}/${path}?${name}=${encodeURIComponent(value!)}`);
      expect(a.status, `${path} ${name}=${value}`).toBe(422);
      expect(a.body.errors[0].message).toContain(name);
    }
  });
});
