/**
 * The approval policy file end to end through Bolt: a large withdrawal waits for risk after two
 * treasury approvals, a third treasury click is refused in the policy's words, a limit refuses a
 * request with the room left, and /desk policy shows the desk the rules and the room, nobody else.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACTION, CALLBACK } from '../../src/bot/slack/kit/slack-ids.js';
import { click, openWithdrawForm, repliesTo, requestCrypto, submitView } from './support/flows.js';
import { approvalMessage, buttonValue, hasButtons, startTestBot, USERS, type TestBot } from './support/test-bot.js';

const RISK = 'U0RISK001';
// USDT is valued in USDT (no price needed); the sandbox's seeded destination takes USDT.
const POLICY = `
groups:
  treasury: [${USERS.approver1}, ${USERS.approver2}, ${USERS.approver3}]
  risk: [${RISK}]
requesters: [${USERS.requester}]
rules:
  - name: large withdrawals
    match: { kind: crypto_withdrawal, value_at_least: { amount: '100', currency: USDT } }
    require: [{ group: treasury, count: 2 }, { group: risk, count: 1 }]
  - name: everything else
    require: [{ group: treasury, count: 2 }]
limits:
  - name: daily USDT outflow
    match: { kind: crypto_withdrawal, asset: USDT }
    window: 24h
    max: '200'
delegation:
  forbidden_for: [risk]
`;

let d: TestBot;
let dir: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'policy-e2e-'));
  writeFileSync(join(dir, 'policy.yaml'), POLICY);
  d = await startTestBot({
    env: { POLICY_FILE: join(dir, 'policy.yaml'), REQUESTER_USER_IDS: '', APPROVER_USER_IDS: '' },
  });
});
afterEach(async () => {
  await d.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the policy file through Bolt', () => {
  it('/desk delegate by a member of a group it forbids delegation for: refused where typed in its words, audited', async () => {
    const until = new Date(d.sandbox.clock.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const res = await d.slack.command({
      command: '/desk',
      text: `delegate <@${USERS.approver1}|ana> until ${until}`,
      userId: RISK,
      responseUrl: d.fake.responseUrl('delegate'),
    });
    expect(res.status).toBe(200);
    await d.settle();
    const said = repliesTo(d, 'delegate').join('\n');
    expect(said).toContain(
      'The approval policy forbids delegation for risk: you are in risk, so nobody may approve in your place.',
    );
    const lines = readFileSync(d.audit.file, 'utf8').split('\n').filter(Boolean);
    expect(lines.map((l) => JSON.parse(l) as { type: string; actor: string })).toContainEqual(
      expect.objectContaining({ type: 'delegation.refused', actor: RISK }),
    );
    expect(lines.some((l) => l.includes('"delegation.set"'))).toBe(false);
  });

  it('a large withdrawal waits for risk after two treasury approvals; then a limit refuses with the room left', async () => {
    const { requestId, values } = await requestCrypto(d, { amount: '150.12' });
    const msg = approvalMessage(d.fake, requestId);
    const approve = buttonValue(msg.blocks, ACTION.approve)!;
    const blocks = () => JSON.stringify(approvalMessage(d.fake, requestId).blocks);

    await click(d, USERS.approver1, ACTION.approve, approve, msg.ts);
    expect(blocks()).toContain(
      `Rule *large withdrawals* · Needs 2 of treasury (1 so far: <@${USERS.approver1}>) and 1 of risk`,
    );
    await click(d, USERS.approver2, ACTION.approve, approve, msg.ts);
    expect(blocks()).toContain('Needs 1 of risk');
    expect(hasButtons(approvalMessage(d.fake, requestId).blocks)).toBe(true);
    expect((await d.bot.engine.get(requestId))!.state).toBe('pending');

    await click(d, USERS.approver3, ACTION.approve, approve, msg.ts, { responseId: 'third' });
    expect(repliesTo(d, 'third')).toEqual([
      ':no_entry_sign: The groups you are in have all the approvals this request needs from them; it still needs 1 of risk, and you are not in risk.',
    ]);
    await click(d, USERS.outsider, ACTION.approve, approve, msg.ts, { responseId: 'outsider' });
    expect(repliesTo(d, 'outsider')).toEqual([
      ':no_entry_sign: You are not in treasury or risk, so your approval cannot count for this request.',
    ]);

    await click(d, RISK, ACTION.approve, approve, msg.ts);
    expect(hasButtons(approvalMessage(d.fake, requestId).blocks)).toBe(false);
    expect((await d.bot.engine.get(requestId))!.state).not.toBe('pending');

    // 150.12 of 200 used: another 150.12 is refused where it was typed, with the room left.
    const form = await openWithdrawForm(d, 'crypto');
    const again = await submitView(d, CALLBACK.withdrawCrypto, form.id, values, {
      privateMetadata: JSON.stringify({ k: 'crypto' }),
    });
    await d.settle();
    const answer = JSON.stringify(again.res.json ?? '') + JSON.stringify(d.fake.calls.slice(again.mark));
    expect(answer).toContain('This would go over the limit');
    expect(answer).toContain('daily USDT outflow');
    expect(answer).toContain(
      '(200 USDT per 24 h): 150.12 USDT is used, 49.88 USDT is left, and this request is for 150.12 USDT.',
    );
    expect((await d.bot.engine.listLive()).filter((r) => r.id !== requestId && r.state === 'pending')).toEqual([]);
  });

  it('/desk policy: the rules and the room left, privately to a desk member; anyone else sees none of it', async () => {
    await d.slack.command({
      command: '/desk',
      text: 'policy',
      userId: RISK,
      responseUrl: d.fake.responseUrl('member'),
    });
    await d.settle();
    const shown = JSON.stringify(d.fake.calls.filter((c) => c.responseUrlId === 'member').map((c) => c.args));
    expect(shown).toContain('ephemeral');
    expect(shown).toContain('large withdrawals');
    expect(shown).toContain('room left 200 USDT');
    expect(shown).toContain('Delegation: forbidden for members of risk');
    const res = await d.slack.command({
      command: '/desk',
      text: 'policy',
      userId: USERS.outsider,
      responseUrl: d.fake.responseUrl('stranger'),
    });
    await d.settle();
    const refused =
      JSON.stringify(res.json) + JSON.stringify(d.fake.calls.filter((c) => c.responseUrlId === 'stranger'));
    expect(refused).toContain("This is for the desk's members only.");
    expect(refused).not.toContain('treasury');
    expect(refused).not.toContain(USERS.approver1);
  });
});
