/**
 * /balances and /desk through Bolt's real HTTP receiver with signed requests, the fake Slack Web
 * API recording what the bot says, and an in-test fake of the ExchangePort.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Balance, CryptoWithdrawalListItem } from '../../../../src/bot/exchange/schemas.js';
import { ExchangeError } from '../../../../src/bot/ports/exchange-error.js';
import { ACTION, BLOCK } from '../../../../src/bot/slack/kit/slack-ids.js';
import { deferred, fakeExchange, listOf, PEOPLE, startHarness, type Harness } from '../support/harness.js';

const balances: Balance[] = [
  {
    currency: 'BTC',
    regular: '1.5',
    locked: '777.0707',
    locked_balance: { orders: '0.25', alternative_products: '0.125' },
  },
  {
    currency: 'SGD',
    regular: '12345.67',
    locked: '777.0707',
    locked_balance: { orders: '0', alternative_products: '0' },
  },
];

function withdrawal(i: number): CryptoWithdrawalListItem {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    amount: `0.${i}`,
    created_at: 1_714_572_180_000 + i,
    status: 'completed',
    crypto_currency: { id: 1, name: 'Bitcoin', code: 'BTC', network: { name: 'Bitcoin' }, asset: {} },
    invoice_downloadable: false,
    transaction: { uuid: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}` },
    address_book_address: {
      label: i === 0 ? 'Cold <!channel> wallet' : `Wallet ${i}`,
      address: `bc1q${'x'.repeat(30)}${i}`,
    },
  };
}
const WITHDRAWALS = Array.from({ length: 23 }, (_, i) => withdrawal(i));

let slowBalances: ReturnType<typeof deferred<Balance[]>> | undefined;
let failBalances: ExchangeError | undefined;
const exchange = fakeExchange({
  listBalances: async (query) => {
    if (failBalances) throw failBalances;
    if (slowBalances) return slowBalances.promise;
    return query?.currency ? balances.filter((b) => b.currency === query.currency) : balances;
  },
  listCryptoWithdrawals: (_q, opts) => listOf(WITHDRAWALS, opts),
  listFiatWithdrawalFees: async () => [
    { currency: 'SGD', fee: '5', asset: { id: 9, name: 'Singapore dollar', symbol: 'SGD', asset_type: 'fiat' } },
  ],
  listFiatWithdrawalLimits: async () => [
    { currency: 'SGD', minimum_withdrawal_amount: '100', maximum_withdrawal_amount: '200000' },
  ],
  listFiatWithdrawals: (opts) =>
    listOf([{ id: 7, currency: 'SGD', amount: '2500', status: 'completed', created_at: '2024-05-01T10:00:00Z' }], opts),
  listFiatDeposits: (opts) => listOf([], opts),
  listBankAccounts: (_q, opts) =>
    listOf(
      [
        {
          id: 42,
          currency: 'SGD',
          account_number: '123456789',
          beneficiary_name: 'Desk Pte Ltd',
          verified: true,
          bank: { name: 'DBS' },
        },
      ],
      opts,
    ),
});

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ exchange });
});
afterAll(async () => {
  await h?.stop();
});
beforeEach(() => {
  slowBalances = undefined;
  failBalances = undefined;
});

const run = (command: string, text: string, userId: string = PEOPLE.requester, responseUrlId = 'cmd') =>
  h.slack.command({ command, text, userId, responseUrl: h.fake.responseUrl(responseUrlId) });

/** The next respond() post for `id` after `mark`. */
const responded = (id: string, mark: number) =>
  h.fake.waitFor((c) => c.method === 'response_url' && c.responseUrlId === id, { after: mark });

const allText = (blocks: unknown): string => JSON.stringify(blocks);

describe('/balances', () => {
  it('acks at once, then answers ephemerally with available, both locked parts and the total', async () => {
    const mark = h.fake.calls.length;
    const res = await run('/balances', '', PEOPLE.requester, 'bal1');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    const reply = await responded('bal1', mark);
    expect(reply.args.response_type).toBe('ephemeral');
    const table = allText(reply.args.blocks);
    expect(table).toContain('Available');
    expect(table).toContain('Locked: orders');
    expect(table).toContain('Locked: other');
    // 1.5 + 0.25 + 0.125, summed as decimals
    expect(table).toContain('1.875');
    expect(table).toContain('12,345.67');
    // The deprecated `locked` field is never shown (a value no other part of the reply can hold: the date token carries epoch seconds).
    expect(table).not.toContain('777.0707');
  });

  it('filters by the asset given, upper-cased for the exchange', async () => {
    const mark = h.fake.calls.length;
    const before = exchange.calls.length;
    await run('/balances', 'btc', PEOPLE.approver1, 'bal2');
    const reply = await responded('bal2', mark);
    expect(exchange.calls.slice(before)).toEqual([{ method: 'listBalances', args: [{ currency: 'BTC' }] }]);
    expect(allText(reply.args.blocks)).not.toContain('SGD');
  });

  it('does not wait for the exchange before acknowledging', async () => {
    slowBalances = deferred<Balance[]>();
    const mark = h.fake.calls.length;
    const res = await run('/balances', '', PEOPLE.requester, 'bal3');
    expect(res.status).toBe(200);
    expect(h.fake.calls.slice(mark).some((c) => c.responseUrlId === 'bal3')).toBe(false);
    slowBalances.resolve(balances);
    await responded('bal3', mark);
  });

  it("tells the person in the exchange's words when the read fails", async () => {
    failBalances = new ExchangeError({ kind: 'timeout', operation: 'listBalances' });
    const mark = h.fake.calls.length;
    await run('/balances', '', PEOPLE.requester, 'bal4');
    const reply = await responded('bal4', mark);
    expect(reply.args.text).toBe(':warning: Could not read balances: The exchange did not answer in time.');
  });

  it('refuses people outside the desk in the ack, without asking the exchange', async () => {
    const before = exchange.calls.length;
    const res = await run('/balances', '', PEOPLE.outsider);
    expect(res.json).toMatchObject({ response_type: 'ephemeral', text: expect.stringContaining("desk's members") });
    expect(exchange.calls.length).toBe(before);
  });

  it('explains the usage for an argument that is not an asset code', async () => {
    const res = await run('/balances', '<!channel>', PEOPLE.requester);
    expect(res.json).toMatchObject({ response_type: 'ephemeral', text: expect.stringContaining('Usage') });
  });
});

describe('/desk', () => {
  it('answers help in the acknowledgement itself', async () => {
    const res = await run('/desk', 'help', PEOPLE.outsider);
    expect(res.status).toBe(200);
    expect(allText(res.json)).toContain('/desk withdrawals');
  });

  it('lists withdrawals ten at a time with a More button that pages to the end', async () => {
    let mark = h.fake.calls.length;
    await run('/desk', 'withdrawals', PEOPLE.requester, 'wd');
    let reply = await responded('wd', mark);
    let text = allText(reply.args.blocks);
    expect(text).toContain('Records 1–10');
    // User-controlled labels are escaped: no channel ping.
    expect(text).toContain('Cold &lt;!channel&gt; wallet');
    expect(text).not.toContain('<!channel>');

    const pages: string[] = [text];
    for (let page = 1; page < 5; page += 1) {
      const blocks = reply.args.blocks as { block_id?: string; elements?: { action_id: string; value: string }[] }[];
      const moreBlock = blocks.find((b) => b.block_id === BLOCK.listMore);
      if (!moreBlock) break;
      const more = moreBlock.elements![0]!;
      expect(more.action_id).toBe(ACTION.listMore);
      mark = h.fake.calls.length;
      const click = await h.slack.blockAction({
        userId: PEOPLE.requester,
        actionId: ACTION.listMore,
        blockId: BLOCK.listMore,
        value: more.value,
        container: { type: 'message', channelId: 'C0DESK001', messageTs: '1700000000.000001', isEphemeral: true },
        responseUrl: h.fake.responseUrl(`wd${page}`),
      });
      expect(click.status).toBe(200);
      reply = await responded(`wd${page}`, mark);
      expect(reply.args.replace_original).toBe(false);
      text = allText(reply.args.blocks);
      pages.push(text);
    }
    expect(pages).toHaveLength(3);
    expect(pages[1]).toContain('Records 11–20');
    expect(pages[2]).toContain('Records 21–23');
    expect(pages[2]).not.toContain(BLOCK.listMore);
  });

  it('shows fiat fees, limits and recent records', async () => {
    const mark = h.fake.calls.length;
    await run('/desk', 'fiat', PEOPLE.approver2, 'fiat');
    const text = allText((await responded('fiat', mark)).args.blocks);
    expect(text).toContain('withdrawals from 100 to 200,000');
    expect(text).toContain('fee 5 SGD');
    expect(text).toContain('2,500 SGD');
  });

  it('lists bank accounts with the account number masked', async () => {
    const mark = h.fake.calls.length;
    await run('/desk', 'banks', PEOPLE.requester, 'banks');
    const text = allText((await responded('banks', mark)).args.blocks);
    expect(text).toContain('****6789');
    expect(text).not.toContain('123456789');
  });

  it('answers an unknown subcommand with the help', async () => {
    const res = await run('/desk', 'launch rockets', PEOPLE.requester);
    expect(allText(res.json)).toContain('/desk launch');
  });
});
