import { describe, expect, it } from 'vitest';
import type { AccessLogEntry } from '../../../src/stand-ins/sandbox/control.js';
import { startTestSandbox, V1 } from './support/sandbox.js';

describe('access log', () => {
  it('reports method, path and status of each request and nothing secret', async () => {
    const entries: AccessLogEntry[] = [];
    const t = await startTestSandbox({ onRequest: (e) => entries.push(e) });
    try {
      await t.api('GET', `${V1}/crypto/withdrawals?page[size]=1`);
      await t.api('GET', `${V1}/accounts/balances`, { headers: { 'X-API-Timestamp': '1' } });
      await t.api('POST', `${V1}/order_quotes`, {
        body: { symbol: 'BTC-USD', side: 'buy', quantity: '10', payment_method: 'user_balance' },
      });
      expect(entries.map((e) => [e.method, e.path, e.status])).toEqual([
        ['GET', `${V1}/crypto/withdrawals`, 200],
        ['GET', `${V1}/accounts/balances`, 401],
        ['POST', `${V1}/order_quotes`, 201],
      ]);
      expect(entries[0]!.account).toBe('main');
      const text = JSON.stringify(entries);
      expect(text).not.toContain(t.key.compressedHex);
      expect(text).not.toContain('page[size]');
      expect(text.toLowerCase()).not.toContain('signature');
      expect(t.sandbox.control.requests()).toEqual(entries);
    } finally {
      await t.close();
    }
  });
});
