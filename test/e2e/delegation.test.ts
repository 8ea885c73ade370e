/**
 * `/desk delegate` end to end through Bolt and the fake Slack Web API: bad input answered where it
 * was typed, a delegation set, the delegate's Approve counted in the approver's place and shown as
 * "@delegate for @approver", the pair counting once, App Home showing it, and the end of it.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REFUSAL_MESSAGES } from '../../src/bot/domain/refusals.js';
import { ACTION } from '../../src/bot/slack/kit/slack-ids.js';
import { appHomeOpened } from '../bot/slack/support/signed-requests.js';
import {
  APPROVAL_CHANNEL,
  approvalMessage,
  buttonValue,
  startTestBot,
  USERS,
  type TestBot,
} from './support/test-bot.js';
import { LeadershipState } from '../../src/bot/ports/leadership.js';
import { click, repliesTo, requestCrypto } from './support/flows.js';

/** A compliance officer: on the desk, not an approver. */
const BEN = 'U0BEN0001';
const ANA = USERS.approver1;
const DAY = 86_400_000;

let d: TestBot;
beforeEach(async () => {
  d = await startTestBot({ seed: 'slack-e2e-delegation', env: { COMPLIANCE_USER_IDS: BEN } });
});
afterEach(async () => {
  await d.stop();
});

let n = 0;
async function desk(text: string, userId: string = ANA): Promise<string> {
  const responseId = `delegate-${++n}`;
  const res = await d.slack.command({ command: '/desk', text, userId, responseUrl: d.fake.responseUrl(responseId) });
  expect(res.status).toBe(200);
  await d.settle();
  const inAck = (res.json as { text?: string } | undefined)?.text;
  return [inAck ?? '', ...repliesTo(d, responseId)].join('\n');
}

/** The audit log's lines as written. */
function audited(): { type: string; actor: string; data?: Record<string, unknown> }[] {
  return readFileSync(d.audit.file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; actor: string; data?: Record<string, unknown> });
}

/** YYYY-MM-DD `days` after the bot's clock. */
const dateIn = (days: number) => new Date(d.sandbox.clock.now() + days * DAY).toISOString().slice(0, 10);

describe('/desk delegate', () => {
  it('answers bad input where it was typed, and sets nothing', async () => {
    expect(await desk('delegate')).toContain('You have no delegate.');
    expect(await desk(`delegate @ben until ${dateIn(3)}`)).toContain('I could not tell who `@ben` is');
    expect(await desk(`delegate <@${BEN}|ben>`)).toContain('needs an end date');
    expect(await desk(`delegate <@${BEN}|ben> until ${dateIn(-1)}`)).toContain('already past');
    expect(await desk(`delegate <@${BEN}|ben> until ${dateIn(45)}`)).toContain('at most 30 days');
    expect(await desk(`delegate <@${BEN}|ben> until 2026-02-30`)).toContain('is not a date');
    expect(await desk(`delegate <@${ANA}|ana> until ${dateIn(3)}`)).toContain('You cannot name yourself');
    expect(await desk(`delegate <@U0STRANGE1|x> until ${dateIn(3)}`)).toContain('not on the desk');
    expect(await desk(`delegate <@${ANA}|ana> until ${dateIn(3)}`, USERS.requester)).toContain(
      'Only approvers can name a delegate.',
    );
    expect(await desk('delegate')).toContain('You have no delegate.');
    expect(audited().filter((e) => e.type === 'delegation.refused').length).toBeGreaterThanOrEqual(5);
  });

  it('the delegate approves in the approver’s place, shown as such; the two count once; ended, it stops', async () => {
    expect(await desk(`delegate <@${BEN}|ben> until ${dateIn(7)}`)).toContain(`<@${BEN}> approves in your place until`);
    expect(await desk('delegate', BEN)).toContain(`You approve in place of <@${ANA}>`);
    await d.slack.event(appHomeOpened(ANA));
    await d.settle();
    expect(JSON.stringify(d.fake.homeOf(ANA)?.blocks ?? [])).toContain(`<@${BEN}> approves in your place until`);

    const { requestId } = await requestCrypto(d);
    const msg = approvalMessage(d.fake, requestId);
    const approve = buttonValue(msg.blocks, ACTION.approve)!;
    await click(d, BEN, ACTION.approve, approve, msg.ts);
    expect(JSON.stringify(approvalMessage(d.fake, requestId).blocks)).toContain(
      `1 of 2 approvals: <@${BEN}> for <@${ANA}>`,
    );
    expect(audited().filter((e) => e.type === 'approval.counted')).toMatchObject([{ actor: BEN, data: { for: ANA } }]);

    await click(d, ANA, ACTION.approve, approve, msg.ts, { responseId: 'ana-again' });
    expect(repliesTo(d, 'ana-again').join()).toContain(REFUSAL_MESSAGES.already_approved);
    expect((await d.bot.engine.get(requestId))?.approvals).toHaveLength(1);

    // App Home: the delegate sees the request to approve and for whom.
    await d.slack.event(appHomeOpened(BEN));
    await d.settle();
    const home = JSON.stringify(d.fake.homeOf(BEN)?.blocks ?? []);
    expect(home).toContain(`You approve in place of <@${ANA}>`);

    expect(await desk('delegate end')).toContain(`Ended: <@${BEN}> no longer approves in your place.`);
    const second = await requestCrypto(d, { amount: '20' });
    const msg2 = approvalMessage(d.fake, second.requestId);
    await click(d, BEN, ACTION.approve, buttonValue(msg2.blocks, ACTION.approve)!, msg2.ts, {
      responseId: 'ben-after',
    });
    expect(repliesTo(d, 'ben-after').join()).toContain(REFUSAL_MESSAGES.not_approver);
    expect(audited().filter((e) => e.type.startsWith('delegation.') && e.type !== 'delegation.refused')).toMatchObject([
      { type: 'delegation.set', actor: ANA, data: { delegate: BEN } },
      { type: 'delegation.ended', actor: ANA, data: { delegate: BEN, reason: 'ended' } },
    ]);
  });

  it('the delegate is reminded with the approver, with the buttons', async () => {
    await desk(`delegate <@${BEN}|ben> until ${dateIn(7)}`);
    const { requestId } = await requestCrypto(d);
    await d.runFor(30 * 60_000, 5 * 60_000);
    await d.settle();
    const reminded = (userId: string) =>
      d.fake
        .callsTo('chat.postMessage')
        .filter((c) => c.args.channel === userId && String(c.args.text).includes(`Reminder: request ${requestId}`));
    expect(reminded(ANA)).toHaveLength(1);
    expect(reminded(BEN)).toHaveLength(1);
    expect(buttonValue(reminded(BEN)[0]!.args.blocks as never, ACTION.approve)).toBeDefined();
  });

  it('set on one replica, counted on another: the delegation is in the shared store', async () => {
    const b = await d.replica(new LeadershipState('follower'));
    expect(await desk(`delegate <@${BEN}|ben> until ${dateIn(7)}`)).toContain('approves in your place');
    const { requestId } = await requestCrypto(d);
    const msg = approvalMessage(d.fake, requestId);
    const res = await b.slack.blockAction({
      userId: BEN,
      actionId: ACTION.approve,
      value: buttonValue(msg.blocks, ACTION.approve)!,
      container: { type: 'message', channelId: APPROVAL_CHANNEL, messageTs: msg.ts },
      responseUrl: d.fake.responseUrl('ben-on-b'),
    });
    expect(res.status).toBe(200);
    await d.settle();
    expect((await b.bot.engine.get(requestId))?.approvals).toMatchObject([{ userId: ANA, delegate: BEN }]);
  });

  it('the delegate sees the waiting request in App Home, with its buttons', async () => {
    await desk(`delegate <@${BEN}|ben> until ${dateIn(7)}`);
    const { requestId } = await requestCrypto(d);
    await d.slack.event(appHomeOpened(BEN));
    await d.settle();
    const home = JSON.stringify(d.fake.homeOf(BEN)?.blocks ?? []);
    expect(home).toContain('Waiting for your approval (1)');
    expect(home).toContain(requestId);
  });
});
