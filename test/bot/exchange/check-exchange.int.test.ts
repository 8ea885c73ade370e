import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkExchange, checkExchangeCli, readCheckEnv } from '../../../src/bot/exchange/check-exchange.js';
import { API, DROP, harness, ORIGIN, useNock } from './support/client.js';
import { fakeClock } from './support/clock.js';
import { balanceBTC } from './support/fixtures.js';
import { TEST_PRIVATE_KEY_HEX } from './support/keys.js';

useNock();

const env = { baseUrl: ORIGIN, privateKey: TEST_PRIVATE_KEY_HEX };
const SERVER_NOW = Date.parse('Tue, 14 Nov 2023 22:13:20 GMT');

async function run(e: Parameters<typeof checkExchange>[0], clockStart = SERVER_NOW) {
  const lines: string[] = [];
  const code = await checkExchange(e, { clock: fakeClock(clockStart), out: (l) => lines.push(l) });
  return { code, text: lines.join('\n') };
}

describe('check-exchange', () => {
  it('prints balances as a table, locked summed from locked_balance', async () => {
    const h = harness();
    h.scope.get(`${API}/accounts/balances`).reply(200, [
      balanceBTC,
      {
        ...balanceBTC,
        currency: 'USDT',
        regular: '10',
        locked: '0',
        locked_balance: { orders: '0', alternative_products: '0' },
      },
    ]);
    const { code, text } = await run(env);
    expect(code).toBe(0);
    h.rec.expectAllSigned();
    const rows = text.split('\n');
    expect(rows[1]!.split(/\s+/)).toEqual(['currency', 'available', 'locked', 'total']);
    expect(rows[3]!.split(/\s+/)).toEqual(['BTC', '1.50000000', '0.25', '1.75']);
    expect(rows[4]!.split(/\s+/)).toEqual(['USDT', '10', '0', '10']);
  });

  it.each([
    ['no base URL', { privateKey: TEST_PRIVATE_KEY_HEX }, /^EXCHANGE_BASE_URL is not set/],
    ['no key', { baseUrl: ORIGIN }, /^No exchange key is configured/],
    [
      'a broken key',
      { baseUrl: ORIGIN, privateKey: TEST_PRIVATE_KEY_HEX.slice(2) },
      /^The exchange key cannot be used: EXCHANGE_PRIVATE_KEY: /,
    ],
    ['a bad base URL', { baseUrl: 'not a url', privateKey: TEST_PRIVATE_KEY_HEX }, /^EXCHANGE_BASE_URL is not usable/],
    [
      'plain HTTP to another host',
      { baseUrl: 'http://exchange.example', privateKey: TEST_PRIVATE_KEY_HEX },
      /^EXCHANGE_BASE_URL is plain http:\/\/ to exchange\.example: signed requests go only over https:\/\/ \(plain http only to this machine/,
    ],
  ])('says one sentence for %s, and exits non-zero', async (_n, e, sentence) => {
    const { code, text } = await run(e);
    expect(code).toBe(1);
    expect(text).toMatch(sentence);
    expect(text.split('\n')).toHaveLength(1);
    expect(text.toLowerCase()).not.toContain(TEST_PRIVATE_KEY_HEX.slice(2, 30));
  });

  it('refuses plain HTTP before sending anything, and allows it on loopback', async () => {
    let sent = 0;
    const fetch = (async () => {
      sent += 1;
      throw new Error('no network here');
    }) as unknown as typeof globalThis.fetch;
    const lines: string[] = [];
    const refused = await checkExchange(
      { baseUrl: 'http://exchange.example:8080', privateKey: TEST_PRIVATE_KEY_HEX },
      { fetch, clock: fakeClock(SERVER_NOW), out: (l) => lines.push(l) },
    );
    expect(refused).toBe(1);
    expect(sent).toBe(0);
    const local = await checkExchange(
      { baseUrl: 'http://127.0.0.1:9', privateKey: TEST_PRIVATE_KEY_HEX },
      { fetch, clock: fakeClock(SERVER_NOW), out: (l) => lines.push(l) },
    );
    expect(local).toBe(1);
    expect(sent).toBeGreaterThan(0);
    expect(lines.at(-1)).toMatch(/could not be reached/);
  });

  it('tells clock skew from the server Date header on a 401', async () => {
    const h = harness();
    h.scope
      .get(`${API}/accounts/balances`)
      .reply(401, { errors: [{ message: 'Unauthorized' }] }, { Date: new Date(SERVER_NOW).toUTCString() });
    const { code, text } = await run(env, SERVER_NOW + 95_000);
    expect(code).toBe(1);
    expect(text).toBe(
      "The exchange refused the request and this machine's clock is 95 s ahead of the exchange's: fix the clock (NTP) and try again.",
    );
  });

  it('says the key was not accepted on a 401 with clocks in step', async () => {
    const h = harness();
    h.scope
      .get(`${API}/accounts/balances`)
      .reply(401, { errors: [{ message: 'Unauthorized' }] }, { Date: new Date(SERVER_NOW).toUTCString() });
    const { code, text } = await run(env, SERVER_NOW + 1_000);
    expect(code).toBe(1);
    expect(text).toMatch(
      /^The exchange did not accept the key \(401\): check that public key 03[0-9A-F]{64} is registered/,
    );
  });

  it('says the network is unreachable after the reads are retried', async () => {
    const h = harness();
    h.scope
      .get(`${API}/accounts/balances`)
      .times(3)
      .replyWithError({ ...DROP, code: 'ECONNREFUSED' });
    const { code, text } = await run(env);
    expect(code).toBe(1);
    expect(text).toBe(
      `The exchange at ${ORIGIN} could not be reached (ECONNREFUSED): check EXCHANGE_BASE_URL and the network.`,
    );
    expect(h.rec.requests).toHaveLength(3);
  });

  it('reads the four variables from the environment', () => {
    expect(
      readCheckEnv({
        EXCHANGE_BASE_URL: 'u',
        EXCHANGE_PRIVATE_KEY: 'k',
        EXCHANGE_PRIVATE_KEY_FILE: 'f',
        EXCHANGE_API_KEY: 'a',
      }),
    ).toEqual({ baseUrl: 'u', privateKey: 'k', privateKeyFile: 'f', apiKey: 'a' });
  });

  it('--help prints the usage (what it reads, the rules on the URL and the key file) and exits 0 without configuration', async () => {
    for (const flag of ['--help', '-h']) {
      const out: string[] = [];
      expect(await checkExchangeCli([flag], {}, { out: (l) => out.push(l) })).toBe(0);
      expect(out.join('\n')).toMatch(/^usage: npm run check-exchange\n/);
      expect(out.join('\n')).toMatch(/EXCHANGE_BASE_URL.*plain http:\/\/ only to this machine/s);
      expect(out.join('\n')).toMatch(/EXCHANGE_PRIVATE_KEY_FILE.*chmod 600/s);
    }
    const err: string[] = [];
    expect(await checkExchangeCli(['--bogus'], {}, { out: (l) => err.push(l) })).toBe(2);
    expect(err.join('\n')).toMatch(/^unknown argument --bogus\nusage: npm run check-exchange/);
  });

  it('runs as a script: one sentence and exit code 1 without configuration', async () => {
    const result = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/bot/exchange/check-exchange.ts'],
      { env: { PATH: process.env.PATH ?? '' } },
    ).then(
      () => ({ code: 0, stdout: '' }),
      (e: { code: number; stdout: string }) => e,
    );
    expect(result.code).toBe(1);
    expect(result.stdout.trim()).toMatch(/^EXCHANGE_BASE_URL is not set/);
  });
});
