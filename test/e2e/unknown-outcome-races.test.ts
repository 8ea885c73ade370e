/**
 * Attacks on a person settling an unknown outcome in Slack: two approvers' forms submitted at once
 * (and one redelivered), and a form opened on a message drawn before a look-alike withdrawal appeared.
 * Never a second withdrawal, never a request failed over a record nobody was shown.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACTION, CALLBACK, INPUT } from '../../src/bot/slack/kit/slack-ids.js';
import { stateOf } from '../bot/slack/support/signed-requests.js';
import { click, requestIntoUnknown, submitView } from './support/flows.js';
import { approvalMessage, buttonValue, startTestBot, USERS, type TestBot } from './support/test-bot.js';

let d: TestBot;
beforeEach(async () => {
  d = await startTestBot();
});
afterEach(async () => {
  await d.stop();
});

const SETTLE_WINDOW_MS = 10 * 60_000;
const checked = (text: string) => ({ [INPUT.settleChecked]: { [INPUT.settleChecked]: stateOf.text(text) } });
const ofTerms = () => d.sandbox.control.withdrawals().filter((w) => w.amount === '150.12');

/** The unknown outcome, asked of a person; then `userId` clicks `actionId` on the message as drawn now: its form's metadata. */
async function openForm(requestId: string, ts: string, userId: string, actionId: string): Promise<string> {
  const value = buttonValue(approvalMessage(d.fake, requestId).blocks, actionId)!;
  const before = d.fake.callsTo('views.open').length;
  await click(d, userId, actionId, value, ts);
  const opened = d.fake.callsTo('views.open').slice(before).at(-1)!;
  return (opened.args.view as { private_metadata: string }).private_metadata;
}

/** The text each decision modal was last updated with, by view id. */
function modalText(viewId: string): string {
  const update = d.fake
    .callsTo('views.update')
    .filter((c) => c.args.view_id === viewId)
    .at(-1);
  return JSON.stringify(update?.args.view ?? '');
}

describe('people settling an unknown outcome at the worst moment, in Slack', () => {
  it('send again and mark as not sent submitted at once, the first redelivered: one decision, at most one withdrawal', async () => {
    const { requestId, msg } = await requestIntoUnknown(d);
    await d.runFor(SETTLE_WINDOW_MS + 30_000, 15_000);
    const send = await openForm(requestId, msg.ts, USERS.approver3, ACTION.sendAgain);
    const mark = await openForm(requestId, msg.ts, USERS.approver2, ACTION.markNotSent);
    await Promise.all([
      submitView(d, CALLBACK.settle, 'V_SEND', checked('Nothing in the history.'), {
        userId: USERS.approver3,
        privateMetadata: send,
      }),
      submitView(d, CALLBACK.settle, 'V_SEND', checked('Nothing in the history.'), {
        userId: USERS.approver3,
        privateMetadata: send,
      }),
      submitView(d, CALLBACK.settle, 'V_MARK', checked('Support says nothing was made.'), {
        userId: USERS.approver2,
        privateMetadata: mark,
      }),
    ]);
    await d.settle();
    await d.runFor(30_000, 10_000);
    const record = (await d.bot.engine.get(requestId))!;
    expect(record.execution!.decisions).toHaveLength(1);
    const sentAgain = record.execution!.decisions[0]!.action === 'send_again';
    expect(ofTerms()).toHaveLength(sentAgain ? 1 : 0);
    expect(record.state).toBe(sentAgain ? 'submitted' : 'failed');
    // The decision that lost was told so in its own modal, and nothing was done for it.
    expect(modalText(sentAgain ? 'V_MARK' : 'V_SEND')).toMatch(/not waiting for a decision|changed since this form/);
  });

  it('a form opened before a look-alike appeared: its mark as not sent is refused, the request does not fail', async () => {
    const { requestId, msg } = await requestIntoUnknown(d);
    // Past the window and the clock skew it allows (the client never measured the exchange's clock).
    await d.runFor(SETTLE_WINDOW_MS + 90_000, 15_000);
    const mark = await openForm(requestId, msg.ts, USERS.approver2, ACTION.markNotSent);
    // A withdrawal of its terms, no note, made after the window: the bot's next look asks whether it is ours (never adopts it).
    const r = (await d.bot.engine.get(requestId))!;
    if (r.snapshot.kind !== 'crypto_withdrawal') throw new Error('fixture');
    const { id } = d.sandbox.control.injectWithdrawal({
      body: {
        crypto_currency_id: r.snapshot.cryptoCurrencyId,
        amount: r.snapshot.amount,
        address_book_address_id: r.snapshot.destination.id,
        request_id: 'made-by-hand',
      },
    });
    d.sandbox.control.setWithdrawalStatus(id, 'pending');
    await d.runFor(150_000, 15_000);
    expect((await d.bot.engine.get(requestId))!.execution!.inDoubt!.question).toMatchObject({ kind: 'ambiguous' });
    const { res } = await submitView(d, CALLBACK.settle, 'V_MARK', checked('Nothing in the history.'), {
      userId: USERS.approver2,
      privateMetadata: mark,
    });
    expect(JSON.stringify(res.json)).toContain('changed since this form was opened');
    await d.settle();
    const after = (await d.bot.engine.get(requestId))!;
    expect(after.state).toBe('unknown');
    expect(after.execution!.decisions).toEqual([]);
    expect(ofTerms()).toHaveLength(1);
  });
});
