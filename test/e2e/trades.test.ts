/**
 * Trades end to end: /trade with a slippage measured from the quote approvers see, the quote
 * expiring during the approvals and re-quoted within the limit (ordered, the order result in
 * the thread), and a re-quote beyond the limit that goes back for approval with new buttons,
 * old ones refused as stale.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REFUSAL_MESSAGES } from '../../src/bot/domain/refusals.js';
import { ACTION } from '../../src/bot/slack/kit/slack-ids.js';
import {
  approvalMessage,
  buttonValue,
  dmsTo,
  hasButtons,
  startTestBot,
  threadTexts,
  USERS,
  type TestBot,
} from './support/test-bot.js';
import { click, repliesTo, requestTrade } from './support/flows.js';

let d: TestBot;
beforeEach(async () => {
  d = await startTestBot({ seed: 'slack-e2e-trades' });
});
afterEach(async () => {
  await d.stop();
});

describe('trades', () => {
  it('the quote expires during the approvals: re-quoted within the limit, ordered, the order result in the thread', async () => {
    const requestId = await requestTrade(d, { pair: 'BTC-USD', side: 'buy', quantity: '0.01', slippage: '10' });
    const record = (await d.bot.engine.get(requestId))!;
    expect(record.snapshot).toMatchObject({
      kind: 'trade',
      symbol: 'BTC-USD',
      quantity: '0.01',
      quantityCurrency: 'BTC',
      slippageBps: 1000,
    });
    const msg = approvalMessage(d.fake, requestId);
    const shown = JSON.stringify(msg.blocks);
    expect(shown).toContain('Indicative price');
    expect(shown).toContain('Worst acceptable price');
    const approve = buttonValue(msg.blocks, ACTION.approve)!;

    await click(d, USERS.approver1, ACTION.approve, approve, msg.ts);
    d.sandbox.control.advance(3_000);
    await click(d, USERS.approver2, ACTION.approve, approve, msg.ts);
    const thread = threadTexts(d.fake, msg.ts);
    expect(thread.find((t) => t.includes('re-quoted'))).toMatch(
      /Quote expired, re-quoted BTC-USD at \*[\d,.]+ USD\* \(was [\d,.]+ USD\), within your limit of [\d,.]+ USD: ordering\./,
    );
    await d.runFor(6_000);
    const done = (await d.bot.engine.get(requestId))!;
    expect(done.state).toBe('completed');
    const completed = threadTexts(d.fake, msg.ts).find((t) => t.includes('*Completed.*'))!;
    expect(completed).toContain(`Order \`${done.execution!.exchangeId}\``);
    expect(completed).toContain('price');
    expect(JSON.stringify(approvalMessage(d.fake, requestId).blocks)).toContain(
      `Completed: order ${done.execution!.exchangeId}`,
    );
    expect(dmsTo(d.fake, USERS.requester).some((t) => t.includes('completed'))).toBe(true);
  });

  it('a re-quote beyond the limit goes back for approval: new buttons, old ones stale, approved again and ordered', async () => {
    const quote = await d.bot.engine.indicativeQuote({
      symbol: 'BTC-USD',
      side: 'buy',
      quantity: '0.02',
      quantityCurrency: 'BTC',
      paymentMethod: 'user_balance',
    });
    const limit = (Number(quote.price) * 0.5).toFixed(2);
    const requestId = await requestTrade(d, { pair: 'BTC-USD', side: 'buy', quantity: '0.02', limit });
    const msg = approvalMessage(d.fake, requestId);
    const oldApprove = buttonValue(msg.blocks, ACTION.approve)!;
    const orders = d.sandbox.control.orders().length;

    await click(d, USERS.approver1, ACTION.approve, oldApprove, msg.ts);
    d.sandbox.control.advance(3_000);
    await click(d, USERS.approver2, ACTION.approve, oldApprove, msg.ts);
    const r = (await d.bot.engine.get(requestId))!;
    expect(r).toMatchObject({ state: 'awaiting_reapproval', round: 2 });
    expect(d.sandbox.control.orders()).toHaveLength(orders);
    expect(
      threadTexts(d.fake, msg.ts).some(
        (t) => t.includes('beyond the approved limit') && t.includes('nothing was ordered'),
      ),
    ).toBe(true);

    const updated = approvalMessage(d.fake, requestId);
    expect(hasButtons(updated.blocks)).toBe(true);
    expect(JSON.stringify(updated.blocks)).toContain('Approvals start over (round 2)');
    expect(JSON.stringify(updated.blocks)).toContain('0 of 2 approvals');
    const newApprove = buttonValue(updated.blocks, ACTION.approve)!;
    expect(newApprove).toBe(`${requestId}:${r.snapshotHash}`);
    expect(newApprove).not.toBe(oldApprove);

    await click(d, USERS.approver1, ACTION.approve, oldApprove, msg.ts, { responseId: 'stale' });
    expect(repliesTo(d, 'stale')).toEqual([`:no_entry_sign: ${REFUSAL_MESSAGES.stale_snapshot}`]);

    await click(d, USERS.approver1, ACTION.approve, newApprove, msg.ts);
    await click(d, USERS.approver3, ACTION.approve, newApprove, msg.ts);
    await d.runFor(6_000);
    expect((await d.bot.engine.get(requestId))!.state).toBe('completed');
    expect(d.sandbox.control.orders()).toHaveLength(orders + 1);
  });
});
