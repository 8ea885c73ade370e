/** /trade through Bolt's receiver: the form, the indicative quote, and the submit checks. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeSlackCall } from '../../../../src/stand-ins/fake-slack/fake-slack-api.js';
import { ExchangeError } from '../../../../src/bot/ports/exchange-error.js';
import type { CreateQuoteBody } from '../../../../src/bot/exchange/schemas.js';
import { ACTION, BLOCK, CALLBACK, INPUT } from '../../../../src/bot/slack/kit/slack-ids.js';
import { viewViolations } from '../support/block-limits.js';
import { fakeExchange, PEOPLE, startHarness, type Harness } from '../support/harness.js';
import { stateOf, type StateValues } from '../support/signed-requests.js';

/** The quote bodies the exchange received (the form's preview goes through the engine and its port). */
const quotes: CreateQuoteBody[] = [];
let quoteFails = false;
let quoteFailMessage = 'Pair is suspended';
let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    exchange: fakeExchange({
      createQuote: async (body) => {
        quotes.push(body);
        if (quoteFails)
          throw new ExchangeError({
            kind: 'unprocessable',
            operation: 'createQuote',
            status: 422,
            messages: [quoteFailMessage],
          });
        return { quote_id: `q${quotes.length}`, locked_price: '90000', expires_at: Date.now() + 2_500 };
      },
    }),
    tradePairs: ['BTC-SGD', 'ETH-SGD'],
  });
});
afterAll(async () => {
  await h?.stop();
});

type View = {
  id: string;
  hash: string;
  callback_id: string;
  private_metadata: string;
  blocks: { block_id?: string; text?: { text: string }; element?: { initial_value?: string } }[];
};
const viewOf = (c: FakeSlackCall) => (c.response as { view: View }).view;

const form = (o: {
  pair?: string;
  side?: string;
  quantity?: string;
  limit?: string;
  slippage?: string;
}): StateValues => ({
  [INPUT.tradePair]: { [INPUT.tradePair]: stateOf.text(o.pair ?? null) },
  [INPUT.tradeSide]: { [INPUT.tradeSide]: stateOf.radio(o.side ?? 'buy') },
  [INPUT.tradeQuantity]: { [INPUT.tradeQuantity]: stateOf.text(o.quantity ?? null) },
  [INPUT.tradeQuantityCurrency]: { [INPUT.tradeQuantityCurrency]: stateOf.radio('base') },
  [INPUT.tradePaymentMethod]: { [INPUT.tradePaymentMethod]: stateOf.select('user_balance') },
  [INPUT.tradeLimitPrice]: { [INPUT.tradeLimitPrice]: stateOf.text(o.limit ?? null) },
  [INPUT.tradeSlippage]: { [INPUT.tradeSlippage]: stateOf.text(o.slippage ?? null) },
});

async function open(): Promise<View> {
  const mark = h.fake.calls.length;
  const res = await h.slack.command({
    command: '/trade',
    text: 'BTC-SGD',
    userId: PEOPLE.requester,
    responseUrl: h.fake.responseUrl('t'),
  });
  expect(res.status).toBe(200);
  return viewOf(await h.fake.waitFor((c) => c.method === 'views.open', { after: mark }));
}

async function change(
  view: View,
  actionId: string,
  values: StateValues,
  userId: string = PEOPLE.requester,
): Promise<View> {
  const mark = h.fake.calls.length;
  await h.slack.blockAction({
    userId,
    actionId,
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
  return viewOf(await h.fake.waitFor((c) => c.method === 'views.update', { after: mark }));
}

const submit = (view: View, values: StateValues) =>
  h.slack.viewSubmission({
    userId: PEOPLE.requester,
    callbackId: CALLBACK.trade,
    viewId: view.id,
    privateMetadata: view.private_metadata,
    values,
  });
const quoteText = (v: View) => v.blocks.find((b) => b.block_id === BLOCK.tradeQuote)?.text?.text ?? '';

describe('/trade', () => {
  it('opens the form at once with the pair filled in', async () => {
    const view = await open();
    expect(view.callback_id).toBe(CALLBACK.trade);
    expect(view.blocks.find((b) => b.block_id === INPUT.tradePair)?.element?.initial_value).toBe('BTC-SGD');
    expect(viewViolations(view as unknown as Record<string, unknown>)).toEqual([]);
  });

  it('shows an indicative quote once pair and quantity are there, and measures slippage from it', async () => {
    const view = await open();
    const before = quotes.length;
    const quoted = await change(view, INPUT.tradeQuantity, form({ pair: 'btc-sgd', quantity: '0.5' }));
    expect(quotes.slice(before)).toEqual([
      { symbol: 'BTC-SGD', side: 'buy', quantity: '0.5', currency: 'BTC', payment_method: 'user_balance' },
    ]);
    expect(quoteText(quoted)).toContain('at *90,000 SGD*');

    let res = await submit(quoted, form({ pair: 'btc-sgd', quantity: '0.5', limit: '89000' }));
    expect(res.json).toEqual({
      response_action: 'errors',
      errors: { [INPUT.tradeLimitPrice]: expect.stringContaining('would not execute') },
    });
    // Terms changed after the quote: slippage needs a fresh quote.
    res = await submit(quoted, form({ pair: 'btc-sgd', quantity: '0.7', slippage: '0.5' }));
    expect(res.json).toEqual({
      response_action: 'errors',
      errors: { [INPUT.tradeSlippage]: 'The quote shown was for other terms: get a fresh quote, then submit.' },
    });
    res = await submit(quoted, form({ pair: 'btc-sgd', quantity: '0.5', slippage: '0.5' }));
    expect(res.json).toMatchObject({ response_action: 'update', view: { callback_id: CALLBACK.notice } });
  });

  it('asks for the quote as pair and quantity are typed (no Enter, no button), and again when the payment method changes', async () => {
    const view = await open();
    type Input = {
      block_id?: string;
      dispatch_action?: boolean;
      element?: { dispatch_action_config?: { trigger_actions_on: string[] } };
    };
    const block = (id: string) => (view.blocks as unknown as Input[]).find((b) => b.block_id === id);
    for (const id of [INPUT.tradePair, INPUT.tradeQuantity]) {
      expect(block(id)?.dispatch_action).toBe(true);
      expect(block(id)?.element?.dispatch_action_config?.trigger_actions_on).toEqual([
        'on_enter_pressed',
        'on_character_entered',
      ]);
    }
    expect(block(INPUT.tradePaymentMethod)?.dispatch_action).toBe(true);
    const before = quotes.length;
    const other = {
      ...form({ pair: 'BTC-SGD', quantity: '0.5' }),
      [INPUT.tradePaymentMethod]: { [INPUT.tradePaymentMethod]: stateOf.select('card') },
    };
    await change(view, INPUT.tradePaymentMethod, other);
    expect(quotes.slice(before)).toEqual([expect.objectContaining({ quantity: '0.5', payment_method: 'card' })]);
  });

  it('refuses an unknown pair and a bad quantity under their fields', async () => {
    const view = await open();
    const res = await submit(view, form({ pair: 'DOGE-SGD', quantity: '1,5', limit: '1' }));
    expect(res.json).toEqual({
      response_action: 'errors',
      errors: {
        [INPUT.tradePair]: 'Unknown pair DOGE-SGD. The desk trades BTC-SGD, ETH-SGD.',
        [INPUT.tradeQuantity]: 'Write the quantity without commas: digits and a point, e.g. 1250.5.',
      },
    });
  });

  it("shows the exchange's words when no quote can be taken", async () => {
    quoteFails = true;
    const view = await open();
    const failed = await change(view, ACTION.tradeRefreshQuote, form({ pair: 'ETH-SGD', quantity: '2' }));
    quoteFails = false;
    expect(quoteText(failed)).toBe(':warning: No quote: Pair is suspended');
  });

  it('a form still open for someone no longer a requester takes no quote: the form says why', async () => {
    const view = await open();
    const before = quotes.length;
    const refused = (await change(
      view,
      ACTION.tradeRefreshQuote,
      form({ pair: 'BTC-SGD', quantity: '1' }),
      PEOPLE.outsider,
    )) as unknown as { blocks: { text?: { text: string } }[] };
    expect(quotes.length).toBe(before);
    expect(JSON.stringify(refused.blocks)).toContain('You are not allowed to make requests.');
  });

  it('an exchange error of any length fits the form: the form still updates', async () => {
    quoteFails = true;
    quoteFailMessage = 'x'.repeat(5_000);
    const view = await open();
    const failed = await change(view, ACTION.tradeRefreshQuote, form({ pair: 'ETH-SGD', quantity: '2' }));
    quoteFails = false;
    quoteFailMessage = 'Pair is suspended';
    expect(quoteText(failed)).toContain(':warning: No quote: xxxx');
    expect(failed.private_metadata.length).toBeLessThanOrEqual(3_000);
  });
});
