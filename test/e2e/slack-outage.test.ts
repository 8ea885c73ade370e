/**
 * Slack down: what must reach Slack waits in the durable outbox until Slack takes it. A request
 * made while Slack answers 503 gets its approval message once Slack is back (once, not twice), its
 * thread and DMs follow in order; a permanent refusal (channel_not_found) is logged as an error,
 * shown to approvers in App Home, and delivered once the cause is fixed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appHomeOpened } from '../bot/slack/support/signed-requests.js';
import {
  APPROVAL_CHANNEL,
  approvalPosts,
  destinations,
  dmsTo,
  startTestBot,
  threadTexts,
  USERS,
  type TestBot,
} from './support/test-bot.js';

let d: TestBot;
beforeEach(async () => {
  d = await startTestBot({ seed: 'slack-outage' });
});
afterEach(async () => {
  await d.stop();
});

async function requestWithdrawal(): Promise<string> {
  const { ok } = await destinations(d.exchange);
  const r = await d.bot.engine.request(USERS.requester, {
    kind: 'crypto_withdrawal',
    cryptoCurrencyId: ok.entry.id,
    addressBookId: ok.address.id,
    amount: '150.12',
  });
  if (!r.ok) throw new Error(`fixture: ${r.message}`);
  await d.settle();
  return r.request.id;
}

describe('Slack down: the outbox delivers when Slack is back', () => {
  it('503s at creation: the approval message is posted once Slack recovers; thread and DM follow in order, none twice', async () => {
    // Two deliveries of three calls each fail; the third delivery goes through.
    for (let i = 0; i < 6; i++) d.fake.failNext('chat.postMessage', 'service_unavailable');
    const id = await requestWithdrawal();
    expect(approvalPosts(d.fake).filter((c) => c.response.ok)).toHaveLength(0);
    expect(d.logs.some((l) => l.level === 'warn' && l.message.includes('did not reach Slack'))).toBe(true);
    const record = (await d.bot.engine.get(id))!;
    await d.bot.engine.approve(id, USERS.approver1, record.snapshotHash);
    const last = await d.bot.engine.approve(id, USERS.approver3, record.snapshotHash);
    if (last.ok) await last.execution;
    await d.runFor(10_000, 1_000);
    const posted = approvalPosts(d.fake).filter((c) => c.response.ok);
    expect(posted).toHaveLength(1);
    const ts = posted[0]!.response.ts as string;
    // The message shows the record as it is now, and its thread has each post once, in order.
    const thread = threadTexts(d.fake, ts);
    expect(thread.filter((t) => t.includes('executing'))).toHaveLength(1);
    expect(thread.filter((t) => t.includes('Sent to the exchange'))).toHaveLength(1);
    expect(thread.findIndex((t) => t.includes('executing'))).toBeLessThan(
      thread.findIndex((t) => t.includes('Sent to the exchange')),
    );
    expect(dmsTo(d.fake, USERS.requester).filter((t) => t.includes('was approved'))).toHaveLength(1);
    expect(await d.bot.engine.deliveryProblems()).toEqual([]);
  });

  it("channel_not_found: logged as an error, shown in an approver's App Home, and delivered once the channel is fixed", async () => {
    // Refused at creation and at the first slow retry; then someone fixes the channel.
    d.fake.failNext('chat.postMessage', 'channel_not_found');
    d.fake.failNext('chat.postMessage', 'channel_not_found');
    const id = await requestWithdrawal();
    expect(d.logs.some((l) => l.level === 'error' && l.message.includes('will not pass by itself'))).toBe(true);
    await d.runFor(60_000, 5_000);
    const res = await d.slack.event(appHomeOpened(USERS.approver1));
    expect(res.status).toBe(200);
    await d.settle();
    const home = JSON.stringify(d.fake.homeOf(USERS.approver1)?.blocks ?? []);
    expect(home).toContain('Slack delivery problem');
    expect(home).toContain('channel_not_found');
    // Which channel refused: the operator knows where to look.
    expect(home).toContain(APPROVAL_CHANNEL);
    expect(home).toContain(id);
    await d.runFor(11 * 60_000, 30_000);
    expect(approvalPosts(d.fake).filter((c) => c.response.ok)).toHaveLength(1);
    expect(await d.bot.engine.deliveryProblems()).toEqual([]);
  });
});
