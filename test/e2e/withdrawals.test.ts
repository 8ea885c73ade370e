/**
 * Withdrawals end to end: /withdraw through the modal to the approval message, two approvals,
 * execution on the sandbox exchange, every status change in the thread, the requester's DMs,
 * and the refusal for missing recipient details that tells the requester what to do.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECIPIENT_DETAILS_ADVICE } from '../../src/bot/engine/execution/recipient-advice.js';
import { ACTION, BLOCK, CALLBACK, dynamicBlockId, INPUT } from '../../src/bot/slack/kit/slack-ids.js';
import { findApprovalMessage } from '../../src/bot/slack/approvals/approval-notifier.js';
import { stateOf, type StateValues } from '../bot/slack/support/signed-requests.js';
import { click, createdRequestId, openWithdrawForm, requestCrypto, submitView } from './support/flows.js';
import { limitViolations } from '../bot/slack/support/block-limits.js';
import {
  approvalMessage,
  approvalPosts,
  buttonValue,
  dmsTo,
  hasButtons,
  mrkdwnOf,
  startTestBot,
  textOf,
  threadTexts,
  USERS,
  APPROVAL_CHANNEL,
  type TestBot,
} from './support/test-bot.js';

let d: TestBot;
beforeEach(async () => {
  d = await startTestBot();
});
afterEach(async () => {
  await d.stop();
});

describe('crypto withdrawal, from /withdraw to completed', () => {
  it('posts the approval message, counts two approvals, executes once and follows the status to the explorer link', async () => {
    const { requestId } = await requestCrypto(d);
    const msg = approvalMessage(d.fake, requestId);
    const posted = approvalPosts(d.fake);
    expect(posted).toHaveLength(1);
    const text = textOf(posted[0]!);
    // Amount, fee and total; the note is quoted plain text, where Slack reads no token; the sandbox banner is on.
    expect(text).toContain('150.12 USDT');
    expect(text).toContain('151.12 USDT');
    expect(text).toContain('{"type":"plain_text","text":"│ OTC settlement <!channel> & co","emoji":false}');
    expect(mrkdwnOf(posted[0]!)).not.toContain('<!channel>');
    expect(msg.blocks[0]!.block_id).toBe(BLOCK.sandboxBanner);
    expect(limitViolations(msg.blocks)).toEqual([]);
    // Persisted where the message is, before anything else refers to it.
    expect(await findApprovalMessage(d.kv, requestId)).toMatchObject({ channel: APPROVAL_CHANNEL, ts: msg.ts });

    const approve = buttonValue(msg.blocks, ACTION.approve)!;
    expect(approve).toMatch(new RegExp(`^${requestId}:[0-9a-f]{64}$`));
    await click(d, USERS.approver1, ACTION.approve, approve, msg.ts);
    const after1 = approvalMessage(d.fake, requestId);
    expect(JSON.stringify(after1.blocks)).toContain(`1 of 2 approvals: <@${USERS.approver1}>`);
    expect(hasButtons(after1.blocks)).toBe(true);

    await click(d, USERS.approver2, ACTION.approve, approve, msg.ts);
    const after2 = approvalMessage(d.fake, requestId);
    expect(hasButtons(after2.blocks)).toBe(false);
    expect(JSON.stringify(after2.blocks)).toContain(`Approved by <@${USERS.approver1}> and <@${USERS.approver2}>`);
    expect(dmsTo(d.fake, USERS.requester).some((t) => t.includes('was approved'))).toBe(true);
    expect(d.fake.callsTo('chat.postMessage').some((c) => c.args.channel === USERS.requester)).toBe(true);

    await d.runFor(80_000);
    const record = (await d.bot.engine.get(requestId))!;
    expect(record.state).toBe('completed');
    const thread = threadTexts(d.fake, msg.ts);
    expect(thread[0]).toContain('executing');
    expect(thread.some((t) => t.includes('Sent to the exchange'))).toBe(true);
    for (const status of ['processing', 'broadcasted'])
      expect(thread.some((t) => t.includes(`*${status}*`))).toBe(true);
    const completed = d.fake
      .callsTo('chat.postMessage')
      .find((c) => c.args.thread_ts === msg.ts && String(c.args.text).includes('*Completed.*'))!;
    expect(textOf(completed)).toContain(record.remote!.linkExplorer!);
    expect(JSON.stringify(approvalMessage(d.fake, requestId).blocks)).toContain('Completed');
    expect(d.sandbox.control.withdrawals().filter((w) => w.id === record.execution!.exchangeId)).toHaveLength(1);
    expect(dmsTo(d.fake, USERS.requester).some((t) => t.includes('completed'))).toBe(true);
    expect(d.logs.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('a refusal for missing recipient details tells the requester what to do, in the thread and by DM', async () => {
    const { requestId } = await requestCrypto(d, { destination: 'noRecipient', amount: '0.5' });
    const msg = approvalMessage(d.fake, requestId);
    const approve = buttonValue(msg.blocks, ACTION.approve)!;
    await click(d, USERS.approver1, ACTION.approve, approve, msg.ts);
    await click(d, USERS.approver3, ACTION.approve, approve, msg.ts);
    expect((await d.bot.engine.get(requestId))!.state).toBe('failed');
    const failedPost = threadTexts(d.fake, msg.ts).find((t) => t.includes('Failed'))!;
    expect(failedPost).toContain('Recipient information missing');
    expect(failedPost).toContain(RECIPIENT_DETAILS_ADVICE);
    expect(dmsTo(d.fake, USERS.requester).find((t) => t.includes('failed'))).toContain(RECIPIENT_DETAILS_ADVICE);
    expect(JSON.stringify(approvalMessage(d.fake, requestId).blocks)).toContain('Failed');
  });
});

describe('fiat withdrawal', () => {
  it('from the form to completed', async () => {
    const form = await openWithdrawForm(d, 'fiat');
    const banks: { id: number; currency?: string | null }[] = [];
    for await (const b of d.exchange.listBankAccounts({ currency: 'USD' }, { pageSize: 100 })) banks.push(b);
    const values: StateValues = {
      [INPUT.fiatCurrency]: { [INPUT.fiatCurrency]: stateOf.select('USD') },
      [dynamicBlockId.fiatBank('USD')]: { [INPUT.fiatBank]: stateOf.select(String(banks[0]!.id)) },
      [INPUT.fiatAmount]: { [INPUT.fiatAmount]: stateOf.text('1500') },
    };
    const { res, mark } = await submitView(d, CALLBACK.withdrawFiat, form.id, values);
    expect(res.json).toMatchObject({ response_action: 'update' });
    const requestId = await createdRequestId(d, form.id, mark);
    const msg = approvalMessage(d.fake, requestId);
    expect(textOf(approvalPosts(d.fake)[0]!)).toContain('1,500 USD');
    const approve = buttonValue(msg.blocks, ACTION.approve)!;
    await click(d, USERS.approver1, ACTION.approve, approve, msg.ts);
    await click(d, USERS.approver2, ACTION.approve, approve, msg.ts);
    await d.runFor(130_000, 10_000);
    expect((await d.bot.engine.get(requestId))!.state).toBe('completed');
    expect(threadTexts(d.fake, msg.ts).some((t) => t.includes('*Completed.*'))).toBe(true);
  });

  it('a form error is answered on the field, before any request', async () => {
    const form = await openWithdrawForm(d, 'fiat');
    const { res } = await submitView(d, CALLBACK.withdrawFiat, form.id, {
      [INPUT.fiatCurrency]: { [INPUT.fiatCurrency]: stateOf.select('USD') },
      [INPUT.fiatAmount]: { [INPUT.fiatAmount]: stateOf.text('12.345') },
    });
    expect(res.json).toMatchObject({
      response_action: 'errors',
      errors: { [INPUT.fiatAmount]: expect.any(String), [dynamicBlockId.fiatBank('USD')]: expect.any(String) },
    });
    expect(await d.bot.engine.listLive()).toEqual([]);
  });
});
