/**
 * A withdrawal whose answer the exchange never gave, end to end in Slack: the thread says what the
 * bot does (and promises nothing the exchange does not), the bot looks on its own through the
 * settle window and never sends again by itself, then the request message asks an approver; the
 * requester cannot decide; "what did you check" is required; Send again… sends once more and the
 * message shows who decided.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACTION, CALLBACK, INPUT } from '../../src/bot/slack/kit/slack-ids.js';
import { stateOf } from '../bot/slack/support/signed-requests.js';
import { click, repliesTo, requestIntoUnknown, submitView } from './support/flows.js';
import {
  approvalMessage,
  buttonValue,
  mrkdwnOf,
  startTestBot,
  threadTexts,
  USERS,
  type TestBot,
} from './support/test-bot.js';

let d: TestBot;
beforeEach(async () => {
  d = await startTestBot();
});
afterEach(async () => {
  await d.stop();
});

const SETTLE_WINDOW_MS = 10 * 60_000;

describe('an unknown outcome is settled by a person, in Slack', () => {
  it('looks on its own, asks an approver, refuses the requester, requires what was checked, and sends again once when decided', async () => {
    // The exchange takes nothing and never answers: the client times out.
    const { requestId, msg } = await requestIntoUnknown(d);
    const unknownPost = threadTexts(d.fake, msg.ts).find((t) => t.includes('not known yet'))!;
    expect(unknownPost).toContain("Nothing is sent again on the bot's own");
    expect(threadTexts(d.fake, msg.ts).join('\n')).not.toMatch(/cannot act on it twice|idempotency key/);

    await d.runFor(SETTLE_WINDOW_MS + 30_000, 15_000);
    expect(d.sandbox.control.withdrawals().filter((w) => w.amount === '150.12')).toHaveLength(0);
    const asking = threadTexts(d.fake, msg.ts).find((t) => t.includes('An approver must decide'))!;
    expect(asking).toContain('10 minutes');
    const blocks = approvalMessage(d.fake, requestId).blocks;
    const sendAgain = buttonValue(blocks, ACTION.sendAgain)!;
    expect(sendAgain).toMatch(new RegExp(`^${requestId}:\\d+$`));
    expect(JSON.stringify(blocks)).toContain('does not prevent duplicates');

    // The requester clicks Send again…: no form, a refusal for them alone.
    await click(d, USERS.requester, ACTION.sendAgain, sendAgain, msg.ts, { responseId: 'req-send' });
    expect(repliesTo(d, 'req-send').join('\n')).toMatch(/not an approver|another approver/);
    expect(
      d.fake
        .callsTo('views.open')
        .some(
          (c) =>
            c.args.view &&
            JSON.stringify(c.args.view).includes('Send again') &&
            c.args.trigger_id !== undefined &&
            c.args.user === USERS.requester,
        ),
    ).toBe(false);

    // An approver: the form opens at once, and says what sending again means.
    const opensBefore = d.fake.callsTo('views.open').length;
    await click(d, USERS.approver3, ACTION.sendAgain, sendAgain, msg.ts);
    const opened = d.fake.callsTo('views.open').slice(opensBefore).at(-1)!;
    const view = opened.args.view as { callback_id: string; private_metadata: string };
    expect(view.callback_id).toBe(CALLBACK.settle);
    expect(JSON.stringify(view)).toContain('does not prevent duplicate withdrawals');

    // Blank: refused on the field, nothing sent.
    const blank = await submitView(
      d,
      CALLBACK.settle,
      'V_DECIDE',
      { [INPUT.settleChecked]: { [INPUT.settleChecked]: stateOf.text('  ') } },
      { userId: USERS.approver3, privateMetadata: view.private_metadata },
    );
    expect(blank.res.json).toMatchObject({
      response_action: 'errors',
      errors: { [INPUT.settleChecked]: expect.stringContaining('what you checked') },
    });

    const checked = 'No 150.12 USDT withdrawal in the history since 09:00 <!channel>';
    await submitView(
      d,
      CALLBACK.settle,
      'V_DECIDE',
      { [INPUT.settleChecked]: { [INPUT.settleChecked]: stateOf.text(checked) } },
      { userId: USERS.approver3, privateMetadata: view.private_metadata },
    );
    await d.settle();
    await d.runFor(10_000);
    const record = (await d.bot.engine.get(requestId))!;
    expect(record.state).toBe('submitted');
    expect(d.sandbox.control.withdrawals().filter((w) => w.amount === '150.12')).toHaveLength(1);
    expect(record.execution!.decisions).toEqual([
      expect.objectContaining({ by: USERS.approver3, action: 'send_again' }),
    ]);
    const thread = threadTexts(d.fake, msg.ts).join('\n');
    expect(thread).toContain(`<@${USERS.approver3}> decided to send it again`);
    expect(thread).toContain('as an approver decided');
    // The message shows who decided, escaped; the buttons are gone.
    const after = approvalMessage(d.fake, requestId).blocks;
    expect(buttonValue(after, ACTION.sendAgain)).toBeUndefined();
    expect(JSON.stringify(after)).toContain(`<@${USERS.approver3}> decided to send it again`);
    expect(JSON.stringify(after)).toContain('&lt;!channel&gt;');
    // The note, with its <!channel>, is plain text; nothing Slack reads as mrkdwn carries the token.
    expect(mrkdwnOf(d.fake.callsTo('chat.update').at(-1)!)).not.toContain('<!channel>');
  });
});
