import { afterEach, describe, expect, it } from 'vitest';
import { cryptoWithdrawal, errorBody } from '../../../src/bot/exchange/schemas.js';
import { expectSchema, startTestSandbox, V1, type TestSandbox } from './support/sandbox.js';

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
  };
}
const count = () => t.sandbox.control.withdrawals().length;

describe('fault injection', () => {
  it('adds latency to matching routes only', async () => {
    t = await startTestSandbox({
      faults: [{ kind: 'latency', method: 'GET', path: '/accounts/balances', latencyMs: 120 }],
    });
    let start = performance.now();
    expect((await t.api('GET', `${V1}/accounts/balances`)).status).toBe(200);
    expect(performance.now() - start).toBeGreaterThanOrEqual(115);
    start = performance.now();
    expect((await t.api('GET', `${V1}/crypto_currencies`)).status).toBe(200);
    expect(performance.now() - start).toBeLessThan(100);
  });

  it('answers 500 or 429 with Retry-After without doing the work', async () => {
    t = await startTestSandbox();
    const body = await withdrawalBody();
    const before = count();
    t.sandbox.control.setFaults([{ kind: 'error', method: 'POST', path: '/crypto/withdrawals', times: 1 }]);
    const a = await t.api('POST', WITHDRAWALS, { body });
    expect(a.status).toBe(500);
    expectSchema(errorBody, a.body);
    expect(count()).toBe(before);
    // A refusal worded as the exchange might word one the reference leaves unshown.
    t.sandbox.control.setFaults([
      {
        kind: 'error',
        method: 'POST',
        path: '/crypto/withdrawals',
        status: 422,
        message: 'Risk assessment required',
        times: 1,
      },
    ]);
    const refused = await t.api('POST', WITHDRAWALS, { body });
    expect([refused.status, refused.body.errors[0].message]).toEqual([422, 'Risk assessment required']);
    expect(count()).toBe(before);
    t.sandbox.control.setFaults([{ kind: 'rate_limit', path: '/crypto/*', retryAfterSeconds: 7, times: 2 }]);
    const b = await t.api('POST', WITHDRAWALS, { body });
    expect(b.status).toBe(429);
    expect(b.headers.get('retry-after')).toBe('7');
    expect((await t.api('GET', WITHDRAWALS)).status).toBe(429);
    // `times` used up: back to normal.
    expect((await t.api('POST', WITHDRAWALS, { body })).status).toBe(201);
    expect(count()).toBe(before + 1);
  });

  it('hangs until the caller gives up, and close() still returns', async () => {
    t = await startTestSandbox({ faults: [{ kind: 'hang', path: '/accounts/balances' }] });
    const start = performance.now();
    await expect(
      fetch(`${t.sandbox.url}${V1}/accounts/balances`, { signal: AbortSignal.timeout(150) }),
    ).rejects.toThrow();
    expect(performance.now() - start).toBeGreaterThanOrEqual(140);
    // Leave one hanging for close() to cut.
    const pending = fetch(`${t.sandbox.url}${V1}/accounts/balances`).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 20));
    await t.close();
    expect(await pending).toBeInstanceOf(Error);
    t = await startTestSandbox(); // for afterEach
  });

  it('drop: the connection closes before the work, nothing is created', async () => {
    t = await startTestSandbox();
    const body = await withdrawalBody();
    const before = count();
    t.sandbox.control.addFault({ kind: 'drop', method: 'POST', path: '/crypto/withdrawals', times: 1 });
    await expect(t.api('POST', WITHDRAWALS, { body })).rejects.toThrow();
    expect(count()).toBe(before);
  });

  it('drop_after_commit: the withdrawal is created but the caller never hears of it', async () => {
    t = await startTestSandbox();
    const body = { ...(await withdrawalBody()), note: 'dropped-once' };
    const before = count();
    t.sandbox.control.addFault({ kind: 'drop_after_commit', method: 'POST', path: '/crypto/withdrawals', times: 1 });
    await expect(t.api('POST', WITHDRAWALS, { body })).rejects.toThrow();
    expect(count()).toBe(before + 1);
    // Listing recent withdrawals (what a careful caller does) shows it.
    const recent = (await t.api('GET', WITHDRAWALS)).body;
    expect(recent[0].note).toBe('dropped-once');
    expect(t.sandbox.control.requests().at(-2)).toMatchObject({
      method: 'POST',
      status: 0,
      fault: 'drop_after_commit',
    });
  });

  it('malformed_json and schema_break: the work is done, the answer is unreadable or the wrong shape', async () => {
    t = await startTestSandbox();
    const body = await withdrawalBody();
    t.sandbox.control.setFaults([{ kind: 'malformed_json', method: 'POST', path: '/crypto/withdrawals', times: 1 }]);
    const a = await t.api('POST', WITHDRAWALS, { body });
    expect(a.status).toBe(201);
    expect(typeof a.body).toBe('string'); // not parseable JSON
    t.sandbox.control.setFaults([{ kind: 'schema_break', method: 'POST', path: '/crypto/withdrawals', times: 1 }]);
    const b = await t.api('POST', WITHDRAWALS, { body });
    expect(b.status).toBe(201);
    expect(cryptoWithdrawal.safeParse(b.body).success).toBe(false);
    expect(t.sandbox.control.withdrawals().filter((w) => w.held)).toHaveLength(2);
  });

  it('error rates are seeded: the same seed hits the same requests', async () => {
    const pattern = async (seed: string) => {
      t = await startTestSandbox({ seed, faults: [{ kind: 'error', path: '/crypto_currencies', probability: 0.5 }] });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await t.api('GET', `${V1}/crypto_currencies`)).status);
      await t.close();
      return statuses.join(',');
    };
    const a = await pattern('faults-a');
    expect(await pattern('faults-a')).toBe(a);
    expect(a).toContain('500');
    expect(a).toContain('200');
    t = await startTestSandbox();
  });
});
