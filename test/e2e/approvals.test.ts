/**
 * The approval message's buttons end to end: Reject with a reason, Cancel, every kind of refused
 * click answered to the clicker alone, forged and stale signatures (401), and redeliveries and
 * double clicks that change nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REFUSAL_MESSAGES } from '../../src/bot/domain/refusals.js';
import { ACTION, CALLBACK, INPUT } from '../../src/bot/slack/kit/slack-ids.js';
import { stateOf } from '../bot/slack/support/signed-requests.js';
import {
  approvalMessage,
  approvalPosts,
  buttonValue,
  dmsTo,
  hasButtons,
  startTestBot,
  USERS,
  type TestBot,
} from './support/test-bot.js';
import { click, repliesTo, requestCrypto, submitView } from './support/flows.js';

let d: TestBot;
beforeEach(async () => {
  d = await startTestBot({ seed: 'slack-e2e-approvals' });
});
afterEach(async () => {
  await d.stop();
});

async function pending(userId: string = USERS.requester) {
  const { requestId, form, values } = await requestCrypto(d, { userId });
  const msg = approvalMessage(d.fake, requestId);
  return {
    requestId,
    form,
    values,
    ts: msg.ts,
    approve: buttonValue(msg.blocks, ACTION.approve)!,
    cancel: buttonValue(msg.blocks, ACTION.cancel)!,
  };
}

describe('reject and cancel', () => {
  it('Reject opens the reason modal; the reason is required; the rejection updates the message and DMs the requester', async () => {
    const r = await pending();
    const mark = d.fake.calls.length;
    await click(d, USERS.approver1, ACTION.reject, r.requestId, r.ts);
    const opened = await d.fake.waitFor((c) => c.method === 'views.open', { after: mark });
    const modal = opened.response.view as { id: string; private_metadata: string };
    const empty = await submitView(
      d,
      CALLBACK.rejectReason,
      modal.id,
      { [INPUT.rejectReason]: { [INPUT.rejectReason]: stateOf.text(' ') } },
      { userId: USERS.approver1, privateMetadata: modal.private_metadata },
    );
    expect(empty.res.json).toMatchObject({
      response_action: 'errors',
      errors: { [INPUT.rejectReason]: expect.any(String) },
    });

    const sent = await submitView(
      d,
      CALLBACK.rejectReason,
      modal.id,
      { [INPUT.rejectReason]: { [INPUT.rejectReason]: stateOf.text('Wrong <!here> destination') } },
      { userId: USERS.approver1, privateMetadata: modal.private_metadata },
    );
    expect(sent.res.json).toMatchObject({ response_action: 'update' });
    await d.fake.waitFor(
      (c) =>
        c.method === 'views.update' &&
        c.args.view_id === modal.id &&
        JSON.stringify(c.args.view).includes('is rejected'),
      { after: sent.mark },
    );
    await d.idle();
    const record = (await d.bot.engine.get(r.requestId))!;
    expect(record).toMatchObject({
      state: 'rejected',
      decision: { by: USERS.approver1, reason: 'Wrong <!here> destination' },
    });
    const msg = approvalMessage(d.fake, r.requestId);
    expect(hasButtons(msg.blocks)).toBe(false);
    const shown = JSON.stringify(msg.blocks);
    expect(shown).toContain(`*Rejected* by <@${USERS.approver1}>`);
    expect(shown).toContain('Wrong &lt;!here&gt; destination');
    expect(dmsTo(d.fake, USERS.requester).find((t) => t.includes('rejected'))).toContain(
      'Wrong &lt;!here&gt; destination',
    );
  });

  it('Cancel by the requester ends it; by anyone else it is refused', async () => {
    const r = await pending();
    await click(d, USERS.approver1, ACTION.cancel, r.cancel, r.ts, { responseId: 'c-other' });
    expect(repliesTo(d, 'c-other')).toEqual([`:no_entry_sign: ${REFUSAL_MESSAGES.not_requester}`]);
    expect((await d.bot.engine.get(r.requestId))!.state).toBe('pending');

    await click(d, USERS.requester, ACTION.cancel, r.cancel, r.ts, { responseId: 'c-own' });
    expect(repliesTo(d, 'c-own')).toEqual([]);
    expect((await d.bot.engine.get(r.requestId))!.state).toBe('cancelled');
    const msg = approvalMessage(d.fake, r.requestId);
    expect(hasButtons(msg.blocks)).toBe(false);
    expect(JSON.stringify(msg.blocks)).toContain(`*Cancelled* by <@${USERS.requester}>`);
  });
});

describe('refused clicks are answered to the clicker alone, with the reason', () => {
  it('own request, not an approver, already approved, already decided', async () => {
    // approver2 is also a requester: their own request cannot count their approval.
    const own = await pending(USERS.approver2);
    await click(d, USERS.approver2, ACTION.approve, own.approve, own.ts, { responseId: 'own' });
    expect(repliesTo(d, 'own')).toEqual([`:no_entry_sign: ${REFUSAL_MESSAGES.own_request}`]);

    await click(d, USERS.outsider, ACTION.approve, own.approve, own.ts, { responseId: 'outsider' });
    expect(repliesTo(d, 'outsider')).toEqual([`:no_entry_sign: ${REFUSAL_MESSAGES.not_approver}`]);

    await click(d, USERS.approver1, ACTION.approve, own.approve, own.ts, { responseId: 'first' });
    await click(d, USERS.approver1, ACTION.approve, own.approve, own.ts, { responseId: 'again' });
    expect(repliesTo(d, 'first')).toEqual([]);
    expect(repliesTo(d, 'again')).toEqual([`:no_entry_sign: ${REFUSAL_MESSAGES.already_approved}`]);
    expect((await d.bot.engine.get(own.requestId))!.approvals).toHaveLength(1);

    await click(d, USERS.requester, ACTION.cancel, own.cancel, own.ts, { responseId: 'not-yours' });
    expect(repliesTo(d, 'not-yours')).toEqual([`:no_entry_sign: ${REFUSAL_MESSAGES.not_requester}`]);
    await click(d, USERS.approver2, ACTION.cancel, own.cancel, own.ts);
    await click(d, USERS.approver3, ACTION.approve, own.approve, own.ts, { responseId: 'decided' });
    expect(repliesTo(d, 'decided')).toEqual([`:no_entry_sign: ${REFUSAL_MESSAGES.already_decided}`]);
    expect((await d.bot.engine.get(own.requestId))!.state).toBe('cancelled');
  });

  it('a button from before the terms changed (another snapshot hash) is refused as stale', async () => {
    const r = await pending();
    const forged = `${r.requestId}:${'0'.repeat(64)}`;
    await click(d, USERS.approver1, ACTION.approve, forged, r.ts, { responseId: 'stale' });
    expect(repliesTo(d, 'stale')).toEqual([`:no_entry_sign: ${REFUSAL_MESSAGES.stale_snapshot}`]);
    await click(d, USERS.approver1, ACTION.approve, r.requestId, r.ts, { responseId: 'nohash' });
    expect(repliesTo(d, 'nohash')).toEqual([`:no_entry_sign: ${REFUSAL_MESSAGES.stale_snapshot}`]);
    expect((await d.bot.engine.get(r.requestId))!.approvals).toEqual([]);
  });
});

describe('signatures and redeliveries', () => {
  it('a forged or stale signature is refused with 401 and changes nothing', async () => {
    const r = await pending();
    const mark = d.fake.calls.length;
    const forged = await d.slack.blockAction(
      {
        userId: USERS.approver1,
        actionId: ACTION.approve,
        value: r.approve,
        container: { type: 'message', channelId: 'C0APPROVE1', messageTs: r.ts },
      },
      { signature: `v0=${'ab'.repeat(32)}` },
    );
    const stale = await d.slack.blockAction(
      {
        userId: USERS.approver1,
        actionId: ACTION.approve,
        value: r.approve,
        container: { type: 'message', channelId: 'C0APPROVE1', messageTs: r.ts },
      },
      { timestampSec: Math.floor(Date.now() / 1000) - 6 * 60 },
    );
    const unsigned = await d.slack.command(
      { command: '/desk', text: 'pending', userId: USERS.approver1, responseUrl: d.fake.responseUrl('u') },
      { unsigned: true },
    );
    expect([forged.status, stale.status, unsigned.status]).toEqual([401, 401, 401]);
    await d.idle();
    expect((await d.bot.engine.get(r.requestId))!.approvals).toEqual([]);
    expect(d.fake.calls.slice(mark)).toEqual([]);
  });

  it('a redelivered approval and a redelivered form submission change nothing', async () => {
    const r = await pending();
    const posts = approvalPosts(d.fake).length;
    // The same form again, as Slack redelivers it: no second request.
    const again = await submitView(d, CALLBACK.withdrawCrypto, r.form.id, r.values, {
      privateMetadata: JSON.stringify({ k: 'crypto' }),
      sign: { retry: { num: 1, reason: 'http_timeout' } },
    });
    expect(again.res.json).toMatchObject({ response_action: 'update' });
    await d.settle();
    const shown = d.fake.calls
      .slice(again.mark)
      .filter((c) => c.method === 'views.update' && c.args.view_id === r.form.id);
    expect(shown.map((c) => JSON.stringify(c.args.view))).toEqual([expect.stringContaining(r.requestId)]);
    expect(await d.bot.engine.listLive()).toHaveLength(1);
    expect(approvalPosts(d.fake)).toHaveLength(posts);

    await click(d, USERS.approver1, ACTION.approve, r.approve, r.ts, { responseId: 'a1' });
    const updates = approvalMessage(d.fake, r.requestId).updates.length;
    await click(d, USERS.approver1, ACTION.approve, r.approve, r.ts, {
      responseId: 'a1-retry',
      sign: { retry: { num: 1, reason: 'http_timeout' } },
    });
    expect(repliesTo(d, 'a1-retry')).toEqual([]);
    expect((await d.bot.engine.get(r.requestId))!.approvals.map((a) => a.userId)).toEqual([USERS.approver1]);
    expect(approvalMessage(d.fake, r.requestId).updates).toHaveLength(updates);
    expect(dmsTo(d.fake, USERS.requester)).toEqual([]);
  });

  it('the same form submitted twice at once makes one request; both deliveries show it', async () => {
    const { destinations } = await import('./support/test-bot.js');
    const { openWithdrawForm, cryptoValues } = await import('./support/flows.js');
    const dest = (await destinations(d.exchange)).ok;
    const form = await openWithdrawForm(d, 'crypto');
    const values = cryptoValues(dest.entry.id, dest.address.id, '42');
    const meta = JSON.stringify({ k: 'crypto' });
    const mark = d.fake.calls.length;
    const [a, b] = await Promise.all([
      submitView(d, CALLBACK.withdrawCrypto, form.id, values, { privateMetadata: meta }),
      submitView(d, CALLBACK.withdrawCrypto, form.id, values, {
        privateMetadata: meta,
        sign: { retry: { num: 1, reason: 'http_timeout' } },
      }),
    ]);
    expect([a.res.json, b.res.json]).toEqual([
      expect.objectContaining({ response_action: 'update' }),
      expect.objectContaining({ response_action: 'update' }),
    ]);
    await d.settle();
    expect(await d.bot.engine.listLive()).toHaveLength(1);
    expect(approvalPosts(d.fake)).toHaveLength(1);
    const finals = d.fake.calls.slice(mark).filter((c) => c.method === 'views.update' && c.args.view_id === form.id);
    expect(finals).toHaveLength(2);
    const id = (await d.bot.engine.listLive())[0]!.id;
    for (const f of finals) expect(JSON.stringify(f.args.view)).toContain(id);
  });
});
