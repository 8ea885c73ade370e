/**
 * Reminders end to end through Bolt and the fake Slack Web API, on the injected clock: the DM to
 * each approver still awaited carries Approve and Reject; Approve clicked in the DM counts through
 * the same path as in the channel and updates the channel's message; the next reminder skips who
 * approved; at 80% of the request's life its thread names who is still needed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACTION } from '../../src/bot/slack/kit/slack-ids.js';
import {
  approvalMessage,
  blocksOf,
  buttonValue,
  startTestBot,
  threadTexts,
  USERS,
  type TestBot,
} from './support/test-bot.js';
import { requestCrypto } from './support/flows.js';

const MIN = 60_000;

let d: TestBot;
beforeEach(async () => {
  d = await startTestBot({ seed: 'slack-e2e-reminders' });
});
afterEach(async () => {
  await d.stop();
});

const remindersTo = (userId: string) =>
  d.fake
    .callsTo('chat.postMessage')
    .filter((c) => c.args.channel === userId && String(c.args.text).includes('Reminder: request'));

describe('reminders through Slack', () => {
  it('DMs the awaited approvers with the buttons; a click in the DM counts and updates the channel message', async () => {
    const { requestId } = await requestCrypto(d);
    await d.runFor(25 * MIN, 5 * MIN);
    expect(remindersTo(USERS.approver1)).toEqual([]);
    await d.runFor(5 * MIN, 5 * MIN);
    await d.settle();
    // approver2 may also request, but not this one: every approver but the requester is awaited.
    for (const approver of [USERS.approver1, USERS.approver2, USERS.approver3])
      expect(remindersTo(approver)).toHaveLength(1);
    expect(remindersTo(USERS.requester)).toEqual([]);

    const dm = remindersTo(USERS.approver1)[0]!;
    const approve = buttonValue(blocksOf(dm), ACTION.approve);
    expect(approve).toBe(buttonValue(approvalMessage(d.fake, requestId).blocks, ACTION.approve));
    expect(buttonValue(blocksOf(dm), ACTION.reject)).toBe(requestId);
    expect(buttonValue(blocksOf(dm), ACTION.cancel)).toBeUndefined();

    const res = await d.slack.blockAction({
      userId: USERS.approver1,
      actionId: ACTION.approve,
      value: approve!,
      container: { type: 'message', channelId: 'D0APP0001', messageTs: String(dm.response.ts) },
      responseUrl: d.fake.responseUrl('dm-approve'),
    });
    expect(res.status).toBe(200);
    await d.settle();
    expect(await d.bot.engine.get(requestId)).toMatchObject({
      state: 'pending',
      approvals: [{ userId: USERS.approver1 }],
    });
    expect(JSON.stringify(approvalMessage(d.fake, requestId).blocks)).toContain(`1 of 2 approvals`);

    await d.runFor(30 * MIN, 5 * MIN);
    await d.settle();
    expect(remindersTo(USERS.approver1)).toHaveLength(1);
    expect(remindersTo(USERS.approver2)).toHaveLength(2);
    expect(remindersTo(USERS.approver3)).toHaveLength(2);

    // 80% of 24 h: the thread says it expires soon and names who can still approve.
    await d.runFor(19 * 60 * MIN - 60 * MIN, 60 * MIN);
    await d.settle();
    const ts = approvalMessage(d.fake, requestId).ts;
    expect(threadTexts(d.fake, ts).some((t) => t.includes('expires soon'))).toBe(false);
    await d.runFor(20 * MIN, 5 * MIN);
    await d.settle();
    const warning = d.fake
      .callsTo('chat.postMessage')
      .filter((c) => c.args.thread_ts === ts && String(c.args.text).includes('expires soon'));
    expect(warning).toHaveLength(1);
    const said = JSON.stringify(warning[0]!.args.blocks);
    expect(said).toContain('1 more approval needed');
    expect(said).toContain(`<@${USERS.approver2}>`);
    expect(said).not.toContain(`<@${USERS.approver1}>`);
    // Three reminders at most, whatever the time.
    expect(remindersTo(USERS.approver2)).toHaveLength(3);
  });
});
