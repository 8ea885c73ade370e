/**
 * App Home (waiting for my approval with the buttons, my open requests, recent activity) and the
 * /desk subcommands that read and make requests: pending, status <id>, remove-bank <id>.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REFUSAL_MESSAGES } from '../../src/bot/domain/refusals.js';
import { ACTION } from '../../src/bot/slack/kit/slack-ids.js';
import { appHomeOpened } from '../bot/slack/support/signed-requests.js';
import { PENDING_PAGE_SIZE } from '../../src/bot/slack/listings/pending-list.js';
import {
  approvalMessage,
  buttonValue,
  destinations,
  dmsTo,
  hasButtons,
  startTestBot,
  USERS,
  type Block,
  type TestBot,
} from './support/test-bot.js';
import { click, requestCrypto } from './support/flows.js';

let d: TestBot;
beforeEach(async () => {
  d = await startTestBot({ seed: 'slack-e2e-desk' });
});
afterEach(async () => {
  await d.stop();
});

async function openHome(userId: string): Promise<Block[]> {
  const res = await d.slack.event(appHomeOpened(userId));
  expect(res.status).toBe(200);
  await d.settle();
  return homeBlocks(userId);
}
const homeBlocks = (userId: string) => (d.fake.homeOf(userId)?.blocks ?? []) as Block[];

async function desk(text: string, userId: string = USERS.approver1, responseId = `desk-${text}`) {
  const res = await d.slack.command({ command: '/desk', text, userId, responseUrl: d.fake.responseUrl(responseId) });
  expect(res.status).toBe(200);
  await d.settle();
  return { res, replies: d.fake.calls.filter((c) => c.responseUrlId === responseId) };
}

describe('App Home', () => {
  it('two requests waiting: both cards with their buttons, block ids unique (Slack refuses repeats)', async () => {
    const first = await requestCrypto(d);
    const second = await requestCrypto(d, { amount: '20' });
    const home = await openHome(USERS.approver1);
    expect(d.fake.callsTo('views.publish').at(-1)!.response.ok).toBe(true);
    const ids = home.map((b) => b.block_id).filter((id): id is string => id !== undefined);
    expect(new Set(ids).size).toBe(ids.length);
    const text = JSON.stringify(home);
    expect(text).toContain(first.requestId);
    expect(text).toContain(second.requestId);
    expect(text).toContain('Waiting for your approval (2)');
  });

  it('shows no desk data to someone outside the desk: no amounts, destinations or recent activity', async () => {
    const { requestId } = await requestCrypto(d);
    // Finished: before the fix, recent activity showed it to anyone who opened the tab.
    expect(await d.bot.engine.reject(requestId, USERS.approver1, 'not this week')).toMatchObject({ ok: true });
    await d.settle();
    expect(JSON.stringify(await openHome(USERS.approver1))).toContain(requestId);
    const home = JSON.stringify(await openHome(USERS.outsider));
    expect(home).not.toContain(requestId);
    expect(home).not.toContain('150.12');
    expect(home).not.toContain('Recent activity');
    expect(home).toContain("serves the desk's traders, approvers and compliance officers");
  });

  it('shows what waits for me with the buttons, my open requests and recent activity; approving there updates both', async () => {
    const { requestId } = await requestCrypto(d);
    const approverHome = await openHome(USERS.approver1);
    const approve = buttonValue(approverHome, ACTION.approve)!;
    expect(approve).toBe(buttonValue(approvalMessage(d.fake, requestId).blocks, ACTION.approve));
    expect(JSON.stringify(approverHome)).toContain('Waiting for your approval (1)');

    const requesterHome = await openHome(USERS.requester);
    expect(JSON.stringify(requesterHome)).toContain('Your open requests (1)');
    expect(JSON.stringify(requesterHome)).toContain(requestId);
    expect(hasButtons(requesterHome)).toBe(false);

    // A click in App Home: no channel, no response_url.
    await d.slack.blockAction({
      userId: USERS.approver1,
      actionId: ACTION.approve,
      value: approve,
      container: { type: 'view', viewId: 'VHOME0001', view: { type: 'home' } },
    });
    await d.settle();
    expect((await d.bot.engine.get(requestId))!.approvals.map((a) => a.userId)).toEqual([USERS.approver1]);
    expect(JSON.stringify(homeBlocks(USERS.approver1))).toContain('Waiting for your approval (0)');
    expect(JSON.stringify(approvalMessage(d.fake, requestId).blocks)).toContain(
      `1 of 2 approvals: <@${USERS.approver1}>`,
    );

    // A refused click in App Home is answered by direct message.
    await d.slack.blockAction({
      userId: USERS.approver1,
      actionId: ACTION.approve,
      value: approve,
      container: { type: 'view', viewId: 'VHOME0001', view: { type: 'home' } },
    });
    await d.settle();
    expect(dmsTo(d.fake, USERS.approver1)).toContain(`:no_entry_sign: ${REFUSAL_MESSAGES.already_approved}`);

    // Decided: the requester's home (opened before) is refreshed, the request moves to recent activity.
    const msg = approvalMessage(d.fake, requestId);
    await click(d, USERS.approver2, ACTION.approve, approve, msg.ts);
    await d.runFor(80_000);
    const after = JSON.stringify(homeBlocks(USERS.requester));
    expect(after).toContain('Your open requests (0)');
    expect(after).toMatch(new RegExp(`Recent activity.*${requestId}`));
  });
});

describe('/desk', () => {
  it('pending lists what waits; status shows one request in full, without buttons', async () => {
    const none = await desk('pending', USERS.approver1, 'p0');
    expect(none.replies.map((c) => c.args.text)).toEqual(['Nothing waits for approval.']);
    const { requestId } = await requestCrypto(d);
    const pending = await desk('pending', USERS.approver1, 'p1');
    expect(JSON.stringify(pending.replies[0]!.args.blocks)).toContain(requestId);
    const status = await desk(`status ${requestId}`, USERS.approver3, 's1');
    const blocks = status.replies[0]!.args.blocks as Block[];
    expect(status.replies[0]!.args.response_type).toBe('ephemeral');
    expect(JSON.stringify(blocks)).toContain('0 of 2 approvals');
    expect(hasButtons(blocks)).toBe(false);
    const missing = await desk('status RNOPE1', USERS.approver3, 's2');
    expect(String(missing.replies[0]!.args.text)).toContain('No request');
  });

  it('pending past one page says how many more and which page shows them, and that page does', async () => {
    const { ok } = await destinations(d.exchange);
    const ids: string[] = [];
    for (let i = 0; i < PENDING_PAGE_SIZE + 3; i++) {
      const r = await d.bot.engine.request(USERS.requester, {
        kind: 'crypto_withdrawal',
        cryptoCurrencyId: ok.entry.id,
        addressBookId: ok.address.id,
        amount: `${10 + i}`,
      });
      if (!r.ok) throw new Error(`fixture: ${r.message}`);
      ids.push(r.request.id);
    }
    await d.settle();
    const listed = (text: string) => ids.filter((id) => text.includes(`\`${id}\``));

    const first = JSON.stringify((await desk('pending', USERS.approver1, 'pg1')).replies[0]!.args.blocks);
    expect(listed(first)).toHaveLength(PENDING_PAGE_SIZE);
    expect(first).toContain(`Waiting for approval (${ids.length})* · 1–${PENDING_PAGE_SIZE}, page 1 of 2`);
    expect(first).toContain('…and 3 more, not shown here: `/desk pending 2` shows the next 3.');

    const second = JSON.stringify((await desk('pending 2', USERS.approver1, 'pg2')).replies[0]!.args.blocks);
    expect(listed(second)).toHaveLength(3);
    expect(new Set([...listed(first), ...listed(second)]).size).toBe(ids.length);
    expect(second).not.toContain('not shown here');

    const past = await desk('pending 3', USERS.approver1, 'pg3');
    expect(String(past.replies[0]!.args.text)).toContain('There is no page 3');
    const wrong = await desk('pending two', USERS.approver1, 'pg4');
    expect(wrong.res.json).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('Usage: `/desk pending [page]`'),
    });
  });

  it('remove-bank asks for approval like any money movement, and is executed once approved', async () => {
    const banks: { id: number }[] = [];
    for await (const b of d.exchange.listBankAccounts(undefined, { pageSize: 100 })) banks.push(b);
    const bank = banks.at(-1)!;
    const refused = await desk(`remove-bank ${bank.id}`, USERS.approver1, 'rb0');
    expect(refused.res.json).toMatchObject({ response_type: 'ephemeral', text: expect.stringContaining('requesters') });

    const asked = await desk(`remove-bank ${bank.id}`, USERS.requester, 'rb1');
    expect(asked.res.json).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('Asking for approval'),
    });
    const reply = String(asked.replies.at(-1)!.args.text);
    const requestId = /`(R[A-Z0-9]+)`/.exec(reply)![1]!;
    expect(reply).toContain('is waiting for approval');
    // The same removal again is refused while the first is open.
    const twice = await desk(`remove-bank ${bank.id}`, USERS.requester, 'rb2');
    expect(String(twice.replies.at(-1)!.args.text)).toContain('already open');

    const msg = approvalMessage(d.fake, requestId);
    const approve = buttonValue(msg.blocks, ACTION.approve)!;
    await click(d, USERS.approver1, ACTION.approve, approve, msg.ts);
    await click(d, USERS.approver3, ACTION.approve, approve, msg.ts);
    expect((await d.bot.engine.get(requestId))!.state).toBe('completed');
    const left: { id: number }[] = [];
    for await (const b of d.exchange.listBankAccounts(undefined, { pageSize: 100 })) left.push(b);
    expect(left.some((b) => b.id === bank.id)).toBe(false);
  });
});
