/**
 * Two replicas of the bot: two composed desks, each with its own Bolt app, receiver and in-process
 * state, over one shared store, one sandbox exchange and one fake Slack API. Desk A is the leader,
 * desk B a follower. Slack may hand any request to either (HTTP behind a load balancer, or one
 * Socket Mode connection each): a modal opened on one is refreshed and submitted on the other, a
 * redelivery or a double submit reaching the other replica is answered the same way, and no form
 * ever makes a second request.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LeadershipState } from '../../src/bot/ports/leadership.js';
import type { FakeSlackCall } from '../../src/stand-ins/fake-slack/fake-slack-api.js';
import { modalDataKey } from '../../src/bot/slack/kit/modal-data.js';
import { submissionKey } from '../../src/bot/slack/request-forms/submission-markers.js';
import { CALLBACK, INPUT } from '../../src/bot/slack/kit/slack-ids.js';
import { createdRequestId, cryptoValues, openWithdrawForm, submitView } from './support/flows.js';
import { approvalPosts, destinations, startTestBot, USERS, type TestBot } from './support/test-bot.js';
import { stateOf, type StateValues } from '../bot/slack/support/signed-requests.js';

let a: TestBot;
let b: TestBot;
beforeEach(async () => {
  a = await startTestBot();
  b = await a.replica(new LeadershipState('follower'));
});
afterEach(async () => {
  await a.stop();
});

const CRYPTO_META = JSON.stringify({ k: 'crypto' });
const REDELIVERY = { retry: { num: 1, reason: 'http_timeout' } } as const;

/** The modal `viewId` as Slack shows it now: its last open or update. */
function shownView(d: TestBot, viewId: string): { hash: string; private_metadata: string; callback_id: string } {
  const call = d.fake.calls
    .filter(
      (c) =>
        (c.method === 'views.update' || c.method === 'views.open') &&
        (c.response.view as { id?: string } | undefined)?.id === viewId,
    )
    .at(-1);
  if (!call) throw new Error(`view ${viewId} was never shown`);
  return call.response.view as { hash: string; private_metadata: string; callback_id: string };
}

/** The modal updates of `viewId` after `mark`, as text. */
const updatesOf = (d: TestBot, viewId: string, mark: number) =>
  d.fake.calls
    .slice(mark)
    .filter((c: FakeSlackCall) => c.method === 'views.update' && c.args.view_id === viewId)
    .map((c) => JSON.stringify(c.args.view));

/** The leader's tick: what the follower's transitions wrote to the shared outbox goes out. */
async function leaderDelivers(): Promise<void> {
  await a.bot.engine.tick();
  await a.settle();
}

async function withdrawForm(opener: TestBot, amount = '150.12') {
  const dest = (await destinations(opener.exchange)).ok;
  const form = await openWithdrawForm(opener, 'crypto');
  return { form, values: cryptoValues(dest.entry.id, dest.address.id, amount) };
}

describe('a withdrawal form across two replicas', () => {
  it('opened on A, refreshed and submitted on B: one request; the same submission redelivered to A gets the same answer and no second request', async () => {
    const { form, values } = await withdrawForm(a);
    expect(await a.kv.get(modalDataKey(form.id))).toMatchObject({ data: { kind: 'crypto' } });

    // B rebuilds the form from the stored data, without asking the exchange.
    const exchangeCalls = a.sandbox.control.requests().length;
    const view = shownView(a, form.id);
    let mark = a.fake.calls.length;
    const refresh = await b.slack.blockAction({
      userId: USERS.requester,
      actionId: INPUT.withdrawAmount,
      blockId: INPUT.withdrawAmount,
      container: { type: 'view', viewId: form.id, view: { ...view, state: { values } } },
    });
    expect(refresh.status).toBe(200);
    await b.settle();
    const refreshed = updatesOf(a, form.id, mark);
    expect(refreshed).toHaveLength(1);
    // The amount, its fee and the total, from the data A stored.
    expect(refreshed[0]).toContain('151.12');
    expect(a.sandbox.control.requests().length).toBe(exchangeCalls);

    const submitted = await submitView(b, CALLBACK.withdrawCrypto, form.id, values, { privateMetadata: CRYPTO_META });
    expect(submitted.res.json).toMatchObject({ response_action: 'update' });
    const requestId = await createdRequestId(b, form.id, submitted.mark);
    expect((await a.bot.engine.listLive()).map((r) => r.id)).toEqual([requestId]);
    expect(await a.kv.get(submissionKey(form.id))).toMatchObject({ state: 'created', requestId });
    expect(await a.kv.get(modalDataKey(form.id))).toBeUndefined();
    // B is a follower: its request's message goes out with the leader's delivery.
    await leaderDelivers();
    expect(approvalPosts(a.fake)).toHaveLength(1);

    mark = a.fake.calls.length;
    const again = await submitView(a, CALLBACK.withdrawCrypto, form.id, values, {
      privateMetadata: CRYPTO_META,
      sign: REDELIVERY,
    });
    expect(again.res.json).toMatchObject({ response_action: 'update' });
    await a.settle();
    expect(updatesOf(a, form.id, mark)).toEqual([expect.stringContaining(requestId)]);
    await leaderDelivers();
    expect(await a.bot.engine.listLive()).toHaveLength(1);
    expect(approvalPosts(a.fake)).toHaveLength(1);
    expect(a.logs.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('submitted to both replicas at once: one request, and each delivery shows it', async () => {
    const { form, values } = await withdrawForm(b);
    const mark = a.fake.calls.length;
    const [onA, onB] = await Promise.all([
      submitView(a, CALLBACK.withdrawCrypto, form.id, values, { privateMetadata: CRYPTO_META }),
      submitView(b, CALLBACK.withdrawCrypto, form.id, values, { privateMetadata: CRYPTO_META, sign: REDELIVERY }),
    ]);
    expect([onA.res.json, onB.res.json]).toEqual([
      expect.objectContaining({ response_action: 'update' }),
      expect.objectContaining({ response_action: 'update' }),
    ]);
    await a.settle();
    const live = await a.bot.engine.listLive();
    expect(live).toHaveLength(1);
    const finals = updatesOf(a, form.id, mark).filter((v) => !v.includes('Checking with the exchange'));
    expect(finals).toHaveLength(2);
    for (const f of finals) expect(f).toContain(live[0]!.id);
    await leaderDelivers();
    expect(approvalPosts(a.fake)).toHaveLength(1);
  });

  it('refused while both replicas hold the submission: both show the refusal and nothing is made; the form sent again makes one request', async () => {
    const { form, values } = await withdrawForm(a);
    // The engine reads the address book again at submission; the exchange fails it.
    a.sandbox.control.setFaults([{ kind: 'error', status: 503, path: '/address_book/addresses' }]);
    const mark = a.fake.calls.length;
    await Promise.all([
      submitView(a, CALLBACK.withdrawCrypto, form.id, values, { privateMetadata: CRYPTO_META }),
      submitView(b, CALLBACK.withdrawCrypto, form.id, values, { privateMetadata: CRYPTO_META, sign: REDELIVERY }),
    ]);
    await a.settle();
    const finals = updatesOf(a, form.id, mark).filter((v) => !v.includes('Checking with the exchange'));
    expect(finals).toHaveLength(2);
    expect(finals[0]).toContain('Not sent: the exchange answered');
    expect(finals[1]).toBe(finals[0]);
    expect(await a.bot.engine.listLive()).toEqual([]);
    // The refusal was the engine's once, not once per delivery.
    expect(auditTypes(a).filter((t) => t === 'request.refused')).toHaveLength(1);
    expect(await a.kv.get(submissionKey(form.id))).toBeUndefined();

    a.sandbox.control.clearFaults();
    const resent = await submitView(b, CALLBACK.withdrawCrypto, form.id, values, { privateMetadata: CRYPTO_META });
    const requestId = await createdRequestId(b, form.id, resent.mark);
    expect((await a.bot.engine.listLive()).map((r) => r.id)).toEqual([requestId]);
  });
});

describe('the trade form across two replicas', () => {
  it('opened on A, submitted to A and redelivered to B at once: one request, both deliveries show it', async () => {
    let mark = a.fake.calls.length;
    await a.slack.command({
      command: '/trade',
      text: 'BTC-USD',
      userId: USERS.requester,
      responseUrl: a.fake.responseUrl('t'),
    });
    const opened = await a.fake.waitFor((c) => c.method === 'views.open', { after: mark });
    const view = opened.response.view as { id: string; private_metadata: string };
    const values: StateValues = {
      [INPUT.tradePair]: { [INPUT.tradePair]: stateOf.text('BTC-USD') },
      [INPUT.tradeSide]: { [INPUT.tradeSide]: stateOf.radio('buy') },
      [INPUT.tradeQuantity]: { [INPUT.tradeQuantity]: stateOf.text('0.01') },
      [INPUT.tradeQuantityCurrency]: { [INPUT.tradeQuantityCurrency]: stateOf.radio('base') },
      [INPUT.tradePaymentMethod]: { [INPUT.tradePaymentMethod]: stateOf.select('user_balance') },
      [INPUT.tradeLimitPrice]: { [INPUT.tradeLimitPrice]: stateOf.text('1000000') },
    };
    mark = a.fake.calls.length;
    await Promise.all([
      submitView(a, CALLBACK.trade, view.id, values, { privateMetadata: view.private_metadata }),
      submitView(b, CALLBACK.trade, view.id, values, { privateMetadata: view.private_metadata, sign: REDELIVERY }),
    ]);
    await a.settle();
    const live = await a.bot.engine.listLive();
    expect(live.map((r) => r.kind)).toEqual(['trade']);
    const finals = updatesOf(a, view.id, mark).filter((v) => !v.includes('Checking with the exchange'));
    expect(finals).toHaveLength(2);
    for (const f of finals) expect(f).toContain(live[0]!.id);
    await leaderDelivers();
    expect(approvalPosts(a.fake)).toHaveLength(1);
  });
});

/** The type of each line in the shared audit log, in order. */
function auditTypes(d: TestBot): string[] {
  return readFileSync(d.audit.file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { type: string }).type);
}
