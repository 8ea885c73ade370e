/**
 * /withdraw through Bolt's receiver: modal opened at once, filled after the exchange answers,
 * refreshed on choices, and every submit error under its field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressBookAddress, Balance, CryptoCurrencyEntry } from '../../../../src/bot/exchange/schemas.js';
import { ACTION, BLOCK, CALLBACK, dynamicBlockId, INPUT } from '../../../../src/bot/slack/kit/slack-ids.js';
import { deferred, fakeExchange, listOf, PEOPLE, startHarness, type Harness } from '../support/harness.js';
import { stateOf, type StateValues } from '../support/signed-requests.js';
import type { FakeSlackCall } from '../../../../src/stand-ins/fake-slack/fake-slack-api.js';
import { viewViolations } from '../support/block-limits.js';

const NET_BTC = '11111111-1111-4111-8111-111111111111';
const NET_TRON = '22222222-2222-4222-8222-222222222222';
const entries: CryptoCurrencyEntry[] = [
  {
    id: 1,
    name: 'Bitcoin',
    code: 'BTC',
    precision: 8,
    network: { uuid: NET_BTC, name: 'Bitcoin' },
    asset: { symbol: 'BTC' },
    network_id: NET_BTC,
    withdrawal_fee: '0.0005',
    minimum_withdrawal: '0.001',
  },
  {
    id: 2,
    name: 'Tether',
    code: 'USDT',
    precision: 6,
    network: { uuid: NET_TRON, name: 'Tron (TRC20)' },
    asset: { symbol: 'USDT' },
    network_id: NET_TRON,
    withdrawal_fee: '1',
  },
];
const NOW = Date.now();
const addresses: AddressBookAddress[] = [
  {
    id: 'aaaaaaaa-0000-4000-8000-000000000001',
    label: 'Cold wallet',
    address: 'bc1qcoldcoldcoldcoldcoldcold0001',
    status: 'verified',
    crypto_currency_networks: [{ uuid: NET_BTC }],
  },
  {
    id: 'aaaaaaaa-0000-4000-8000-000000000002',
    label: 'New OTC desk',
    address: 'bc1qnewnewnewnewnewnewnewnew0002',
    status: 'verified',
    crypto_currency_networks: [{ uuid: NET_BTC }],
    withdrawal_cooldown_until: NOW + 3 * 3600_000,
  },
  {
    id: 'aaaaaaaa-0000-4000-8000-000000000003',
    label: 'Unverified',
    address: 'bc1qunverifiedunverified00003',
    status: 'pending',
    crypto_currency_networks: [{ uuid: NET_BTC }],
  },
  {
    id: 'aaaaaaaa-0000-4000-8000-000000000004',
    label: 'Tron treasury',
    address: 'TXYZtrontrontrontrontron0004',
    status: 'verified',
    crypto_currency_networks: [{ uuid: NET_TRON }],
  },
];
const balances: Balance[] = [
  { currency: 'BTC', regular: '1.2', locked: '0', locked_balance: { orders: '0', alternative_products: '0' } },
];

let hold: ReturnType<typeof deferred<void>> | undefined;
const exchange = fakeExchange({
  listCryptoCurrencies: async () => {
    if (hold) await hold.promise;
    return entries;
  },
  listBalances: async () => balances,
  listAddressBook: (opts) => listOf(addresses, opts),
  listFiatWithdrawalFees: async () => [
    { currency: 'SGD', fee: '5', asset: { id: 9, name: 'SGD', symbol: 'SGD', asset_type: 'fiat' } },
  ],
  listFiatWithdrawalLimits: async () => [
    { currency: 'SGD', minimum_withdrawal_amount: '100', maximum_withdrawal_amount: '200000' },
  ],
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

type View = {
  id: string;
  hash: string;
  callback_id: string;
  private_metadata: string;
  blocks: {
    type: string;
    block_id?: string;
    element?: { options?: { value: string; text: { text: string }; description?: { text: string } }[] };
    text?: { text: string };
  }[];
};

const viewOf = (call: FakeSlackCall) => (call.response as { view: View }).view;
const blockIds = (view: View) => view.blocks.map((b) => b.block_id).filter(Boolean);

async function openCrypto(): Promise<View> {
  const mark = h.fake.calls.length;
  const res = await h.slack.command({
    command: '/withdraw',
    text: 'crypto',
    userId: PEOPLE.requester,
    responseUrl: h.fake.responseUrl('w'),
  });
  expect(res.status).toBe(200);
  expect(res.text).toBe('');
  const opened = await h.fake.waitFor((c) => c.method === 'views.open', { after: mark });
  expect(JSON.stringify(opened.args.view)).toContain('Loading');
  // This modal's fill: an earlier test's submission may still be updating its own modal.
  const filled = await h.fake.waitFor((c) => c.method === 'views.update' && c.args.view_id === viewOf(opened).id, {
    after: mark,
  });
  return viewOf(filled);
}

async function interact(view: View, actionId: string, values: StateValues): Promise<View> {
  const mark = h.fake.calls.length;
  const res = await h.slack.blockAction({
    userId: PEOPLE.requester,
    actionId,
    blockId: actionId,
    container: {
      type: 'view',
      viewId: view.id,
      view: {
        hash: view.hash,
        private_metadata: view.private_metadata,
        callback_id: view.callback_id,
        state: { values },
      },
    },
  });
  expect(res.status).toBe(200);
  const update = await h.fake.waitFor((c) => c.method === 'views.update' && c.args.view_id === view.id, {
    after: mark,
  });
  expect(update.args.hash).toBe(view.hash);
  return viewOf(update);
}

const submit = (view: View, values: StateValues) =>
  h.slack.viewSubmission({
    userId: PEOPLE.requester,
    callbackId: view.callback_id,
    viewId: view.id,
    privateMetadata: view.private_metadata,
    values,
  });

describe('/withdraw crypto', () => {
  it('opens a loading modal before the exchange answers, then fills it', async () => {
    hold = deferred<void>();
    const mark = h.fake.calls.length;
    const res = await h.slack.command({
      command: '/withdraw',
      text: 'crypto',
      userId: PEOPLE.requester,
      responseUrl: h.fake.responseUrl('w0'),
    });
    expect(res.status).toBe(200);
    await h.fake.waitFor((c) => c.method === 'views.open', { after: mark });
    expect(h.fake.calls.slice(mark).some((c) => c.method === 'views.update')).toBe(false);
    hold.resolve();
    hold = undefined;
    const filled = viewOf(await h.fake.waitFor((c) => c.method === 'views.update', { after: mark }));
    expect(filled.callback_id).toBe(CALLBACK.withdrawCrypto);
  });

  it('walks the form: asset, destinations with their state, amount with fee and total, and errors on submit', async () => {
    const view = await openCrypto();
    expect(viewViolations(view as unknown as Record<string, unknown>)).toEqual([]);
    const entrySelect = view.blocks.find((b) => b.block_id === INPUT.withdrawEntry);
    expect(entrySelect?.element?.options?.map((o) => o.text.text)).toEqual(['BTC · Bitcoin', 'USDT · Tron (TRC20)']);

    const withEntry = await interact(view, INPUT.withdrawEntry, {
      [INPUT.withdrawEntry]: { [INPUT.withdrawEntry]: stateOf.select('1') },
    });
    const destinationBlock = dynamicBlockId.withdrawDestination(1);
    const destinations = withEntry.blocks.find((b) => b.block_id === destinationBlock)?.element?.options ?? [];
    expect(destinations.map((o) => o.text.text)).toEqual([
      'Cold wallet · bc1qco…0001',
      'New OTC desk · bc1qne…0002',
      'Unverified · bc1qun…0003',
    ]);
    expect(destinations[1]?.description?.text).toMatch(
      /^verified · cooldown ends in 2 h 59 min|^verified · cooldown ends in 3 h$/,
    );
    expect(destinations[2]?.description?.text).toContain('not verified');

    const values = (amount: string, destination: string): StateValues => ({
      [INPUT.withdrawEntry]: { [INPUT.withdrawEntry]: stateOf.select('1') },
      [destinationBlock]: { [INPUT.withdrawDestination]: stateOf.select(destination) },
      [INPUT.withdrawAmount]: { [INPUT.withdrawAmount]: stateOf.text(amount) },
    });
    const withAmount = await interact(withEntry, INPUT.withdrawAmount, values('0.5', addresses[0]!.id));
    const summary = withAmount.blocks.find((b) => b.block_id === BLOCK.withdrawSummary);
    expect(summary?.text?.text).toBe('Amount *0.5 BTC* + fee 0.0005 BTC = total *0.5005 BTC*');

    let res = await submit(withAmount, values('1.123456789', addresses[2]!.id));
    expect(res.json).toEqual({
      response_action: 'errors',
      errors: {
        [destinationBlock]: "This address is not verified yet. Verify it in the exchange's mobile app.",
        [INPUT.withdrawAmount]: 'BTC takes at most 8 decimals. Did you mean 1.12345678? (rounded down)',
      },
    });
    res = await submit(withAmount, values('1.2', addresses[1]!.id));
    expect(res.json).toMatchObject({
      response_action: 'errors',
      errors: {
        [destinationBlock]: expect.stringContaining('withdrawal cooldown for another'),
        [INPUT.withdrawAmount]: '1.2 BTC plus the 0.0005 BTC fee is 1.2005 BTC, more than the 1.2 BTC available.',
      },
    });
    res = await submit(withAmount, values('0.5', addresses[0]!.id));
    expect(res.json).toMatchObject({ response_action: 'update', view: { callback_id: CALLBACK.notice } });
  });

  it('shows the available balance once, and an amount error Enter already drew under the amount only there', async () => {
    const withEntry = await interact(await openCrypto(), INPUT.withdrawEntry, {
      [INPUT.withdrawEntry]: { [INPUT.withdrawEntry]: stateOf.select('1') },
    });
    const destinationBlock = dynamicBlockId.withdrawDestination(1);
    const values = (amount: string, destination: string): StateValues => ({
      [INPUT.withdrawEntry]: { [INPUT.withdrawEntry]: stateOf.select('1') },
      [destinationBlock]: { [INPUT.withdrawDestination]: stateOf.select(destination) },
      [INPUT.withdrawAmount]: { [INPUT.withdrawAmount]: stateOf.text(amount) },
    });
    const good = await interact(withEntry, INPUT.withdrawAmount, values('0.5', addresses[0]!.id));
    // Once in the text of the form (the currency choices name it in their descriptions, as before).
    expect(JSON.stringify(good.blocks.filter((b) => b.type !== 'input')).match(/available/gi)).toHaveLength(1);

    const tooFine = 'BTC takes at most 8 decimals. Did you mean 1.12345678? (rounded down)';
    const shown = await interact(good, INPUT.withdrawAmount, values('1.123456789', addresses[0]!.id));
    expect(JSON.stringify(shown.blocks).split(tooFine)).toHaveLength(2);
    // Submitted as it stands: refused, the form drawn again with the error once (no field error on top of it).
    let res = await h.slack.viewSubmission({
      userId: PEOPLE.requester,
      callbackId: shown.callback_id,
      viewId: shown.id,
      privateMetadata: shown.private_metadata,
      values: values('1.123456789', addresses[0]!.id),
      view: { blocks: shown.blocks },
    });
    const again = res.json as { response_action: string; errors?: unknown; view?: View };
    expect(again.response_action).toBe('update');
    expect(again.errors).toBeUndefined();
    expect(JSON.stringify(again.view!.blocks).split(tooFine)).toHaveLength(2);
    expect(JSON.stringify(again.view!.blocks)).toContain('"initial_value":"1.123456789"');
    // With another field wrong too: that field's error only.
    res = await h.slack.viewSubmission({
      userId: PEOPLE.requester,
      callbackId: shown.callback_id,
      viewId: shown.id,
      privateMetadata: shown.private_metadata,
      values: values('1.123456789', addresses[2]!.id),
      view: { blocks: shown.blocks },
    });
    expect(res.json).toEqual({
      response_action: 'errors',
      errors: { [destinationBlock]: expect.stringContaining('not verified') },
    });
  });

  it('asks to reopen a form whose data is gone instead of calling the exchange before the ack', async () => {
    const res = await h.slack.viewSubmission({
      userId: PEOPLE.requester,
      callbackId: CALLBACK.withdrawCrypto,
      viewId: 'V-unknown',
      values: {},
    });
    expect(res.json).toEqual({
      response_action: 'errors',
      errors: { [INPUT.withdrawAmount]: 'This form is out of date. Close it and run /withdraw again.' },
    });
  });
});

describe('/withdraw choice and fiat', () => {
  it('offers crypto or fiat, then loads the chosen form', async () => {
    const mark = h.fake.calls.length;
    await h.slack.command({
      command: '/withdraw',
      text: '',
      userId: PEOPLE.requester,
      responseUrl: h.fake.responseUrl('wc'),
    });
    const choice = viewOf(await h.fake.waitFor((c) => c.method === 'views.open', { after: mark }));
    expect(choice.callback_id).toBe(CALLBACK.withdrawChoice);
    const mark2 = h.fake.calls.length;
    await h.slack.blockAction({
      userId: PEOPLE.requester,
      actionId: ACTION.withdrawChooseFiat,
      value: 'fiat',
      container: {
        type: 'view',
        viewId: choice.id,
        view: { hash: choice.hash, private_metadata: choice.private_metadata },
      },
    });
    await h.fake.waitFor((c) => c.method === 'views.update' && JSON.stringify(c.args.view).includes('Loading'), {
      after: mark2,
    });
    const fiat = viewOf(
      await h.fake.waitFor(
        (c) => c.method === 'views.update' && (c.args.view as View).callback_id === CALLBACK.withdrawFiat,
        { after: mark2 },
      ),
    );
    expect(blockIds(fiat)).toContain(INPUT.fiatCurrency);

    const values = (amount: string): StateValues => ({
      [INPUT.fiatCurrency]: { [INPUT.fiatCurrency]: stateOf.select('SGD') },
      [dynamicBlockId.fiatBank('SGD')]: { [INPUT.fiatBank]: stateOf.select('42') },
      [INPUT.fiatAmount]: { [INPUT.fiatAmount]: stateOf.text(amount) },
    });
    const withCurrency = await interact(fiat, INPUT.fiatCurrency, values(''));
    const bank = withCurrency.blocks.find((b) => b.block_id === dynamicBlockId.fiatBank('SGD'));
    const bankTexts = bank?.element?.options?.map((o) => o.text.text) ?? [];
    expect(bankTexts).toHaveLength(1);
    expect(bankTexts[0]).toMatch(/DBS.*6789/);
    expect(JSON.stringify(bank)).not.toContain('123456789');
    const res = await submit(withCurrency, values('50'));
    expect(res.json).toEqual({ response_action: 'errors', errors: { [INPUT.fiatAmount]: 'The minimum is 100 SGD.' } });
  });

  it('is for requesters only', async () => {
    const res = await h.slack.command({
      command: '/withdraw',
      text: '',
      userId: PEOPLE.approver1,
      responseUrl: h.fake.responseUrl('x'),
    });
    expect(res.json).toMatchObject({ response_type: 'ephemeral', text: expect.stringContaining('requesters') });
  });
});
