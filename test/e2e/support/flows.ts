/** What people do in Slack, as signed requests to the bot under test (test-bot.ts). */
import { expect } from 'vitest';
import { ACTION, CALLBACK, dynamicBlockId, INPUT } from '../../../src/bot/slack/kit/slack-ids.js';
import { stateOf, type SignOptions, type StateValues } from '../../bot/slack/support/signed-requests.js';
import { APPROVAL_CHANNEL, approvalMessage, buttonValue, destinations, USERS, type AnyTestBot } from './test-bot.js';

/** /withdraw <kind> as `userId`: the loading view opens, then the filled form replaces it. */
export async function openWithdrawForm(
  d: AnyTestBot,
  kind: 'crypto' | 'fiat',
  userId: string = USERS.requester,
): Promise<{ id: string }> {
  const mark = d.fake.calls.length;
  const res = await d.slack.command({ command: '/withdraw', text: kind, userId, responseUrl: d.fake.responseUrl('w') });
  expect(res.status).toBe(200);
  const opened = await d.fake.waitFor((c) => c.method === 'views.open', { after: mark });
  const id = (opened.response.view as { id: string }).id;
  const callback = kind === 'crypto' ? CALLBACK.withdrawCrypto : CALLBACK.withdrawFiat;
  await d.fake.waitFor(
    (c) =>
      c.method === 'views.update' &&
      c.args.view_id === id &&
      (c.args.view as { callback_id: string }).callback_id === callback,
    { after: mark },
  );
  return { id };
}

export async function submitView(
  d: AnyTestBot,
  callbackId: string,
  viewId: string,
  values: StateValues,
  o: { userId?: string; privateMetadata?: string; sign?: SignOptions } = {},
) {
  const mark = d.fake.calls.length;
  const res = await d.slack.viewSubmission(
    { userId: o.userId ?? USERS.requester, callbackId, viewId, privateMetadata: o.privateMetadata ?? '', values },
    o.sign,
  );
  expect(res.status).toBe(200);
  return { res, mark };
}

export function cryptoValues(
  entryId: number,
  destinationId: string,
  amount: string,
  note = 'OTC settlement <!channel> & co',
): StateValues {
  return {
    [INPUT.withdrawEntry]: { [INPUT.withdrawEntry]: stateOf.select(String(entryId)) },
    [dynamicBlockId.withdrawDestination(entryId)]: { [INPUT.withdrawDestination]: stateOf.select(destinationId) },
    [INPUT.withdrawAmount]: { [INPUT.withdrawAmount]: stateOf.text(amount) },
    [INPUT.withdrawNote]: { [INPUT.withdrawNote]: stateOf.text(note) },
  };
}

/** The request id the modal shows once the request is created. */
export async function createdRequestId(d: AnyTestBot, viewId: string, after: number): Promise<string> {
  const done = await d.fake.waitFor(
    (c) =>
      c.method === 'views.update' &&
      c.args.view_id === viewId &&
      JSON.stringify(c.args.view).includes('waiting for approval'),
    { after },
  );
  await d.settle();
  return /`(R[A-Z0-9]+)`/.exec(JSON.stringify(done.args.view))![1]!;
}

/** A valid crypto withdrawal form submitted by `userId`; resolves once its approval message is posted. */
export async function requestCrypto(
  d: AnyTestBot,
  o: { destination?: 'ok' | 'noRecipient'; amount?: string; userId?: string } = {},
) {
  const dest = (await destinations(d.exchange))[o.destination ?? 'ok'];
  const form = await openWithdrawForm(d, 'crypto', o.userId);
  const values = cryptoValues(dest.entry.id, dest.address.id, o.amount ?? '150.12');
  const { res, mark } = await submitView(d, CALLBACK.withdrawCrypto, form.id, values, {
    ...(o.userId ? { userId: o.userId } : {}),
    privateMetadata: JSON.stringify({ k: 'crypto' }),
  });
  expect(res.json).toMatchObject({ response_action: 'update' });
  const requestId = await createdRequestId(d, form.id, mark);
  return { requestId, form, dest, values };
}

/** A button click on the approval message at `ts`; waits for what it set off. */
export async function click(
  d: AnyTestBot,
  userId: string,
  actionId: string,
  value: string,
  ts: string,
  o: { responseId?: string; sign?: SignOptions } = {},
) {
  const res = await d.slack.blockAction(
    {
      userId,
      actionId,
      value,
      container: { type: 'message', channelId: APPROVAL_CHANNEL, messageTs: ts },
      responseUrl: d.fake.responseUrl(o.responseId ?? `${actionId}-${userId}`),
    },
    o.sign,
  );
  expect(res.status).toBe(200);
  await d.settle();
  return res;
}

/** The ephemeral answers posted to a response_url id. */
export function repliesTo(d: AnyTestBot, responseId: string): string[] {
  return d.fake.calls.filter((c) => c.responseUrlId === responseId).map((c) => String(c.args.text));
}

export interface TradeForm {
  pair: string;
  side: 'buy' | 'sell';
  quantity: string;
  quantityIn?: 'base' | 'counter';
  limit?: string;
  slippage?: string;
}

/** /trade, the form filled (a quote refresh first when a slippage needs the indicative price), and submitted. */
export async function requestTrade(d: AnyTestBot, t: TradeForm, userId: string = USERS.requester): Promise<string> {
  let mark = d.fake.calls.length;
  await d.slack.command({ command: '/trade', text: t.pair, userId, responseUrl: d.fake.responseUrl('t') });
  const opened = await d.fake.waitFor((c) => c.method === 'views.open', { after: mark });
  const view = opened.response.view as { id: string; hash: string; private_metadata: string };
  const values: StateValues = {
    [INPUT.tradePair]: { [INPUT.tradePair]: stateOf.text(t.pair) },
    [INPUT.tradeSide]: { [INPUT.tradeSide]: stateOf.radio(t.side) },
    [INPUT.tradeQuantity]: { [INPUT.tradeQuantity]: stateOf.text(t.quantity) },
    [INPUT.tradeQuantityCurrency]: { [INPUT.tradeQuantityCurrency]: stateOf.radio(t.quantityIn ?? 'base') },
    [INPUT.tradePaymentMethod]: { [INPUT.tradePaymentMethod]: stateOf.select('user_balance') },
    ...(t.limit ? { [INPUT.tradeLimitPrice]: { [INPUT.tradeLimitPrice]: stateOf.text(t.limit) } } : {}),
    ...(t.slippage ? { [INPUT.tradeSlippage]: { [INPUT.tradeSlippage]: stateOf.text(t.slippage) } } : {}),
  };
  let privateMetadata = view.private_metadata;
  if (t.slippage) {
    // The form's quote: Refresh, then the refreshed view's metadata carries the price shown.
    mark = d.fake.calls.length;
    await d.slack.blockAction({
      userId,
      actionId: INPUT.tradeQuantity,
      container: {
        type: 'view',
        viewId: view.id,
        view: { hash: view.hash, private_metadata: view.private_metadata, state: { values } },
      },
    });
    const refreshed = await d.fake.waitFor((c) => c.method === 'views.update' && c.args.view_id === view.id, {
      after: mark,
    });
    privateMetadata = (refreshed.args.view as { private_metadata: string }).private_metadata;
  }
  const { res, mark: after } = await submitView(d, CALLBACK.trade, view.id, values, { userId, privateMetadata });
  expect(res.json).toMatchObject({ response_action: 'update' });
  return createdRequestId(d, view.id, after);
}

/**
 * A crypto withdrawal approved twice while the exchange takes nothing and never answers (the client
 * times out): the request ends `unknown`. Returns its id and its approval message.
 */
export async function requestIntoUnknown(d: AnyTestBot) {
  const { requestId } = await requestCrypto(d);
  const msg = approvalMessage(d.fake, requestId);
  const approve = buttonValue(msg.blocks, ACTION.approve)!;
  d.sandbox.control.setFaults([{ kind: 'drop', method: 'POST', path: '/crypto/withdrawals', times: 1 }]);
  await click(d, USERS.approver1, ACTION.approve, approve, msg.ts);
  await click(d, USERS.approver2, ACTION.approve, approve, msg.ts);
  expect((await d.bot.engine.get(requestId))!.state).toBe('unknown');
  return { requestId, msg };
}
