/**
 * An approval storm through the whole bot (Bolt's real HTTP receiver, engine, file stores,
 * sandbox): 1,000 Approve clicks on the messages of a few requests, all sent at once, from the
 * approvers (many times each), the requester and an outsider, with about a third of them
 * redelivered copies carrying Slack's retry headers (x-slack-retry-num / x-slack-retry-reason).
 *
 * Expected: every click acknowledged; each request approved by exactly the required number of
 * distinct approvers (never the requester, never the outsider, nobody twice), approved once,
 * executed once on the exchange; the audit log counts the same; no click ends in an internal
 * error. Seeded (STORM_SEED) so a failing storm can be replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cmp } from '../../src/bot/domain/money.js';
import { createRng } from '../../src/stand-ins/sandbox/prng.js';
import { ACTION } from '../../src/bot/slack/kit/slack-ids.js';
import { INTERNAL_ERROR_TEXT } from '../../src/bot/slack/kit/reply.js';
import {
  approvalMessage,
  APPROVAL_CHANNEL,
  buttonValue,
  destinations,
  hasButtons,
  startTestBot,
  USERS,
  type TestBot,
} from '../e2e/support/test-bot.js';

const SEED = process.env.STORM_SEED ?? 'storm-1';
const CLICKS = 1_000;
const REQUESTS = 4;
const CLICKERS = [
  USERS.approver1,
  USERS.approver2,
  USERS.approver3,
  USERS.approver1,
  USERS.approver3,
  USERS.requester,
  USERS.outsider,
];
const RETRY_REASONS = ['http_timeout', 'http_error', 'too_many_conns', 'unknown_error'];

let d: TestBot;
const requests: { id: string; amount: string; ts: string; value: string }[] = [];

beforeAll(async () => {
  d = await startTestBot({ seed: 'storm' });
  const { ok } = await destinations(d.exchange);
  for (let i = 0; i < REQUESTS; i++) {
    const amount = `${200 + i}.5`;
    const created = await d.bot.engine.request(USERS.requester, {
      kind: 'crypto_withdrawal',
      cryptoCurrencyId: ok.entry.id,
      addressBookId: ok.address.id,
      amount,
    });
    if (!created.ok) throw new Error(`storm set-up: ${created.message}`);
    await d.settle();
    const message = approvalMessage(d.fake, created.request.id);
    requests.push({
      id: created.request.id,
      amount,
      ts: message.ts,
      value: buttonValue(message.blocks, ACTION.approve)!,
    });
  }
}, 30_000);
afterAll(async () => {
  await d?.stop();
});

describe(`approval storm (seed ${SEED})`, () => {
  it(`${CLICKS} concurrent, duplicated and redelivered Approve clicks: one execution per request, right approval counts`, async () => {
    const rng = createRng(SEED);
    const clicks = Array.from({ length: CLICKS }, (_, i) => {
      const target = rng.pick(requests);
      const redelivered = rng.next() < 0.35;
      return {
        target,
        userId: rng.pick(CLICKERS),
        responseId: `storm-${i}`,
        retry: redelivered ? { num: rng.int(1, 3), reason: rng.pick(RETRY_REASONS) } : undefined,
      };
    });
    const answers = await Promise.all(
      clicks.map((c) =>
        d.slack.blockAction(
          {
            userId: c.userId,
            actionId: ACTION.approve,
            value: c.target.value,
            container: { type: 'message', channelId: APPROVAL_CHANNEL, messageTs: c.target.ts },
            responseUrl: d.fake.responseUrl(c.responseId),
          },
          c.retry ? { retry: c.retry } : {},
        ),
      ),
    );
    await d.settle();
    await d.runFor(4_000);
    await d.settle();

    expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([]);
    const p99 = answers.map((a) => a.elapsedMs).sort((a, b) => a - b)[Math.floor(answers.length * 0.99)]!;
    // Context only: the 1,000 senders, the bot and the fake Slack share this one process.
    console.log(
      `storm: ${CLICKS} clicks (${clicks.filter((c) => c.retry).length} redelivered), all sent at once; slowest 1% answered after ${p99.toFixed(0)} ms`,
    );

    const withdrawals = d.sandbox.control.withdrawals();
    const audit = (await import('node:fs'))
      .readFileSync(d.audit.file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; requestId?: string; actor: string });
    for (const r of requests) {
      const record = (await d.requests.get(r.id))!;
      const approvers = record.approvals.map((a) => a.userId);
      expect(approvers, r.id).toHaveLength(record.requiredApprovals);
      expect(new Set(approvers).size, `${r.id}: nobody counts twice`).toBe(approvers.length);
      for (const a of approvers)
        expect([USERS.approver1, USERS.approver2, USERS.approver3], `${r.id}: ${a} may approve`).toContain(a);
      expect(['submitted', 'completed'], r.id).toContain(record.state);
      const executed = withdrawals.filter((w) => cmp(w.amount, r.amount) === 0);
      expect(executed, `${r.id}: executed once`).toHaveLength(1);
      expect(record.execution?.exchangeId).toBe(executed[0]!.id);
      const lines = (type: string) => audit.filter((l) => l.type === type && l.requestId === r.id);
      expect(lines('approval.counted'), `${r.id}: counted approvals in the audit log`).toHaveLength(
        record.requiredApprovals,
      );
      expect(lines('request.approved'), r.id).toHaveLength(1);
      expect(lines('execution.attempt'), r.id).toHaveLength(1);
      // Every other click on it was refused with a reason, and the refusal audited.
      const clicksOnIt = clicks.filter((c) => c.target === r).length;
      expect(lines('approval.refused').length, `${r.id}: refusals audited`).toBe(clicksOnIt - record.requiredApprovals);
      // The message people see no longer offers Approve once the request is decided.
      expect(hasButtons(approvalMessage(d.fake, r.id).blocks), `${r.id}: buttons gone`).toBe(false);
    }
    const replies = d.fake.calls.filter((c) => c.responseUrlId?.startsWith('storm-')).map((c) => String(c.args.text));
    expect(replies.filter((t) => t === INTERNAL_ERROR_TEXT)).toEqual([]);
    expect(d.logs.filter((l) => l.level === 'error')).toEqual([]);
  }, 60_000);
});
