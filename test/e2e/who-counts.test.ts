/**
 * A waiting request's message says who counts and who may approve in whose place; when that changes
 * without an approval (a restart under a policy file with other groups, a delegation set, ended or
 * run out) the message is brought up to date through the outbox, only where its words change, once.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { delegationKey } from '../../src/bot/engine/delegation/delegations.js';
import { LeadershipState } from '../../src/bot/ports/leadership.js';
import { ACTION, BLOCK } from '../../src/bot/slack/kit/slack-ids.js';
import { appHomeOpened } from '../bot/slack/support/signed-requests.js';
import { click, repliesTo, requestCrypto } from './support/flows.js';
import { approvalMessage, buttonValue, startTestBot, USERS, type TestBot } from './support/test-bot.js';

/** A compliance officer: on the desk, not an approver, so a delegate. */
const BEN = 'U0BEN0001';
const T4 = 'U0TREAS04';
const ANA = USERS.approver1;
const MIN = 60_000;
const DAY = 86_400_000;

let d: TestBot | undefined;
let dir: string | undefined;
afterEach(async () => {
  await d?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  d = undefined;
  dir = undefined;
});

function policy(treasury: string[]): string {
  return `
groups:
  treasury: [${treasury.join(', ')}]
requesters: [${USERS.requester}]
rules:
  - name: everything else
    require: [{ group: treasury, count: 2 }]
`;
}

/** The progress line of a request's approval message, as last sent. */
function progress(bot: TestBot, requestId: string): string {
  const blocks = approvalMessage(bot.fake, requestId).blocks as { block_id?: string; elements?: { text?: string }[] }[];
  return blocks.find((b) => b.block_id === BLOCK.approvalProgress)?.elements?.[0]?.text ?? '';
}

/** chat.update calls on a request's approval message. */
function updatesOf(bot: TestBot, requestId: string): number {
  const ts = approvalMessage(bot.fake, requestId).ts;
  return bot.fake.callsTo('chat.update').filter((c) => c.args.ts === ts).length;
}

let n = 0;
async function desk(bot: TestBot, text: string, userId: string = ANA): Promise<string> {
  const responseId = `who-counts-${++n}`;
  const res = await bot.slack.command({
    command: '/desk',
    text,
    userId,
    responseUrl: bot.fake.responseUrl(responseId),
  });
  expect(res.status).toBe(200);
  await bot.settle();
  return [(res.json as { text?: string } | undefined)?.text ?? '', ...repliesTo(bot, responseId)].join('\n');
}

describe('who counts, kept true on the approval message', () => {
  it('a restart under a policy file with other groups: the message drops who no longer counts; once; others untouched', async () => {
    dir = mkdtempSync(join(tmpdir(), 'who-counts-'));
    const file = join(dir, 'policy.yaml');
    writeFileSync(file, policy([ANA, USERS.approver2, USERS.approver3, T4]));
    const leader = new LeadershipState('leader');
    d = await startTestBot({
      seed: 'slack-e2e-who-counts',
      leadership: leader,
      env: { POLICY_FILE: file, REQUESTER_USER_IDS: '', APPROVER_USER_IDS: '' },
    });
    const bot = d;
    const first = await requestCrypto(bot, { amount: '10' });
    const second = await requestCrypto(bot, { amount: '11' });
    for (const [id, by] of [
      [first.requestId, ANA],
      [second.requestId, USERS.approver2],
    ] as const) {
      const msg = approvalMessage(bot.fake, id);
      await click(bot, by, ACTION.approve, buttonValue(msg.blocks, ACTION.approve)!, msg.ts);
    }
    expect(progress(bot, first.requestId)).toBe(`Rule *everything else* · Needs 2 of treasury (1 so far: <@${ANA}>)`);
    const before = { first: updatesOf(bot, first.requestId), second: updatesOf(bot, second.requestId) };

    // Ana leaves treasury; the desk restarts (a new leader over the same stores) with the new file.
    writeFileSync(file, policy([USERS.approver2, USERS.approver3, T4]));
    leader.set('follower');
    const restartedLeader = new LeadershipState('leader');
    const restarted = await bot.replica(restartedLeader);
    await bot.settle();
    expect(progress(bot, first.requestId)).toBe('Rule *everything else* · Needs 2 of treasury');
    expect(updatesOf(bot, first.requestId)).toBe(before.first + 1);
    expect(updatesOf(bot, second.requestId)).toBe(before.second);
    expect((await restarted.bot.engine.get(first.requestId))?.tally).toEqual([{ group: 'treasury', count: 2, by: [] }]);

    // Started again with the same file: nothing to say again.
    restartedLeader.set('follower');
    await bot.replica(new LeadershipState('leader'));
    await bot.settle();
    expect(updatesOf(bot, first.requestId)).toBe(before.first + 1);
    expect(updatesOf(bot, second.requestId)).toBe(before.second);
  });

  it('a delegation set and ended: the requests waiting for the approver say so, the others get no call', async () => {
    d = await startTestBot({ seed: 'slack-e2e-who-counts-2', env: { COMPLIANCE_USER_IDS: BEN } });
    const bot = d;
    const waiting = await requestCrypto(bot, { amount: '10' });
    const approved = await requestCrypto(bot, { amount: '11' });
    const msg = approvalMessage(bot.fake, approved.requestId);
    await click(bot, ANA, ACTION.approve, buttonValue(msg.blocks, ACTION.approve)!, msg.ts);
    const before = { waiting: updatesOf(bot, waiting.requestId), approved: updatesOf(bot, approved.requestId) };
    await bot.slack.event(appHomeOpened(USERS.approver2));
    await bot.settle();
    const home = () => JSON.stringify(bot.fake.homeOf(USERS.approver2)?.blocks ?? []);
    expect(home()).not.toContain('may also approve');

    const until = new Date(bot.sandbox.clock.now() + 7 * DAY).toISOString().slice(0, 10);
    expect(await desk(bot, `delegate <@${BEN}|ben> until ${until}`)).toContain('approves in your place');
    expect(progress(bot, waiting.requestId)).toBe(`0 of 2 approvals so far · <@${BEN}> for <@${ANA}> may also approve`);
    expect(updatesOf(bot, waiting.requestId)).toBe(before.waiting + 1);
    // Ana approved this one already: her delegate changes nothing on it.
    expect(progress(bot, approved.requestId)).toBe(`1 of 2 approvals: <@${ANA}>`);
    expect(updatesOf(bot, approved.requestId)).toBe(before.approved);
    // App Home follows, and the audit says what changed.
    expect(home()).toContain(`<@${BEN}> for <@${ANA}> may also approve`);
    const recounted = readFileSync(bot.audit.file, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"approval.recounted"'))
      .map((l) => JSON.parse(l) as { requestId?: string; data?: Record<string, unknown> });
    expect(recounted).toMatchObject([
      { requestId: waiting.requestId, data: { actingDelegates: [{ userId: ANA, delegate: BEN }] } },
    ]);

    expect(await desk(bot, 'delegate end')).toContain('no longer approves in your place');
    expect(progress(bot, waiting.requestId)).toBe('0 of 2 approvals so far');
    expect(updatesOf(bot, waiting.requestId)).toBe(before.waiting + 2);
    expect(home()).not.toContain('may also approve');
    expect(updatesOf(bot, approved.requestId)).toBe(before.approved);
  });

  it('a delegation that runs out: the next tick takes the delegate off the message', async () => {
    d = await startTestBot({ seed: 'slack-e2e-who-counts-3', env: { COMPLIANCE_USER_IDS: BEN } });
    const bot = d;
    const now = bot.sandbox.clock.now();
    await bot.kv.set(delegationKey(ANA), { approver: ANA, delegate: BEN, from: now, until: now + 5 * MIN });
    const { requestId } = await requestCrypto(bot, { amount: '10' });
    expect(progress(bot, requestId)).toBe(`0 of 2 approvals so far · <@${BEN}> for <@${ANA}> may also approve`);
    const before = updatesOf(bot, requestId);
    await bot.runFor(4 * MIN, MIN);
    await bot.settle();
    expect(updatesOf(bot, requestId)).toBe(before);
    // Before the ten-minute pass: the tick sees the delegation has run out.
    await bot.runFor(2 * MIN, MIN);
    await bot.settle();
    expect(progress(bot, requestId)).toBe('0 of 2 approvals so far');
    expect(updatesOf(bot, requestId)).toBe(before + 1);
  });

  it('the warning before expiry names who can still approve, delegates as the progress line names them', async () => {
    d = await startTestBot({ seed: 'slack-e2e-who-counts-4', env: { COMPLIANCE_USER_IDS: BEN } });
    const bot = d;
    const until = new Date(bot.sandbox.clock.now() + 7 * DAY).toISOString().slice(0, 10);
    await desk(bot, `delegate <@${BEN}|ben> until ${until}`);
    const { requestId } = await requestCrypto(bot, { amount: '10' });
    const msg = approvalMessage(bot.fake, requestId);
    await click(bot, USERS.approver3, ACTION.approve, buttonValue(msg.blocks, ACTION.approve)!, msg.ts);
    await bot.runFor(20 * 60 * MIN, 60 * MIN);
    await bot.settle();
    const warning = bot.fake
      .callsTo('chat.postMessage')
      .filter((c) => c.args.thread_ts === msg.ts && String(c.args.text).includes('expires soon'));
    expect(warning).toHaveLength(1);
    expect(JSON.stringify(warning[0]!.args.blocks)).toContain(
      `1 more approval needed, from <@${ANA}>, <@${USERS.approver2}> or <@${BEN}> for <@${ANA}>.`,
    );
  });
});
