/**
 * The operations endpoints of the desk as the end-to-end tests compose it (e2e/support/test-bot.ts:
 * Bolt's real HTTP receiver, the fake Slack Web API, the sandbox over real HTTP), read over HTTP on
 * the health server's port, never on the port of /slack/events:
 * - /healthz answers; /readyz is ready once the exchange has answered, names the exchange once it
 *   has been quiet for more than a minute of the desk's clock, and is ready again at its next answer;
 * - /metrics parses and counts a crypto withdrawal requested, refused once, approved twice and
 *   executed, with route templates (never ids) as operations, the open requests by state, the
 *   outbox, Slack acks and leadership;
 * - an execution whose answer is lost shows as an open unknown outcome.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ACTION } from '../../../src/bot/slack/kit/slack-ids.js';
import { approvalMessage, buttonValue, startTestBot, USERS, type TestBot } from '../../e2e/support/test-bot.js';
import { click, repliesTo, requestCrypto, requestIntoUnknown } from '../../e2e/support/flows.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../slack/support/harness.js';
import { parseExposition } from './support/prometheus-text.js';

let d: TestBot | undefined;
afterEach(async () => {
  await d?.stop();
  d = undefined;
});

async function get(bot: TestBot, path: string): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(`${bot.healthOrigin}${path}`);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** A crypto withdrawal requested, the requester's own approval refused, then two approvals. */
async function requestAndApprove(bot: TestBot): Promise<string> {
  const { requestId } = await requestCrypto(bot);
  const msg = approvalMessage(bot.fake, requestId);
  const approve = buttonValue(msg.blocks, ACTION.approve)!;
  await click(bot, USERS.requester, ACTION.approve, approve, msg.ts, { responseId: 'own' });
  expect(repliesTo(bot, 'own').join('\n')).toContain('You requested this');
  await click(bot, USERS.approver1, ACTION.approve, approve, msg.ts);
  await click(bot, USERS.approver2, ACTION.approve, approve, msg.ts);
  await bot.idle();
  return requestId;
}

describe('the operations endpoints, on a port of their own', () => {
  it('are alive, ready while the exchange answers, and count a withdrawal through to execution', async () => {
    d = await startTestBot();
    const health = await get(d, '/healthz');
    expect(health).toMatchObject({ status: 200, type: expect.stringContaining('application/json') });
    expect(JSON.parse(health.text)).toEqual({ status: 'ok' });
    // The port Slack reaches serves /slack/events only.
    for (const path of ['/healthz', '/readyz', '/metrics'])
      expect((await fetch(`${d.origin}${path}`)).status).toBe(404);

    const requestId = await requestAndApprove(d);
    expect((await d.bot.engine.get(requestId))!.state).toBe('submitted');

    const ready = await get(d, '/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toMatchObject({
      ready: true,
      role: 'leader',
      failing: [],
      checks: { store: { ok: true }, slack: { ok: true }, exchange: { ok: true } },
    });

    const metrics = await get(d, '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.type).toContain('text/plain');
    const m = parseExposition(metrics.text);
    expect(m.value('desk_requests_created_total')).toBe(1);
    expect(m.value('desk_approvals_counted_total')).toBe(2);
    expect(m.value('desk_approvals_refused_total', { reason: 'own_request' })).toBe(1);
    expect(m.value('desk_execution_attempts_total', { retry: 'false' })).toBe(1);
    expect(m.value('desk_executions_total', { outcome: 'submitted' })).toBe(1);
    expect(m.value('desk_requests', { state: 'submitted' })).toBe(1);
    expect(m.value('desk_requests', { state: 'pending' })).toBe(0);
    expect(m.value('desk_unknown_outcomes_open')).toBe(0);
    expect(m.value('desk_unknown_outcome_oldest_age_seconds')).toBe(0);
    expect(m.value('desk_outbox_pending')).toBe(0);
    expect(m.value('desk_leader')).toBe(1);
    expect(m.types.get('desk_exchange_request_duration_seconds')).toBe('histogram');
    expect(
      m.value('desk_exchange_request_duration_seconds_count', { operation: 'POST /crypto/withdrawals', status: '201' }),
    ).toBe(1);
    expect(
      m.find('desk_exchange_request_duration_seconds_count', {
        operation: 'GET /address_book/addresses',
        status: '200',
      })[0]!.value,
    ).toBeGreaterThan(0);
    // Operations are route templates: no request id, exchange id or query in any label.
    const operations = new Set(m.find('desk_exchange_request_duration_seconds_count').map((s) => s.labels.operation!));
    for (const op of operations) expect(op).toMatch(/^(GET|POST|DELETE) (\/[a-z_]+|\/\{[a-z_]+\})+$/);
    // The command, the form submission and the three clicks were each acknowledged.
    expect(m.value('desk_slack_ack_duration_seconds_count')).toBeGreaterThanOrEqual(5);
    expect(m.value('desk_slack_ack_duration_seconds_bucket', { le: '3' })).toBe(
      m.value('desk_slack_ack_duration_seconds_count'),
    );

    // A minute and a second of the desk's clock with no exchange call: not ready, and it says why.
    d.sandbox.control.advance(61_000);
    const quiet = await get(d, '/readyz');
    expect(quiet.status).toBe(503);
    const body = JSON.parse(quiet.text) as {
      failing: string[];
      checks: Record<string, { ok: boolean; detail: string }>;
    };
    expect(body.failing).toEqual(['exchange']);
    expect(body.checks.exchange!.detail).toMatch(/no answer for 61 s/);
    expect(
      parseExposition((await get(d, '/metrics')).text).value('desk_exchange_last_answer_age_seconds'),
    ).toBeGreaterThanOrEqual(61);
    for (const secret of [BOT_TOKEN, SIGNING_SECRET]) expect(quiet.text + metrics.text).not.toContain(secret);

    // The next poll of the submitted withdrawal is an answer: ready again.
    await d.runFor(2_000);
    expect((await get(d, '/readyz')).status).toBe(200);

    // From the moment it begins to stop (runBot's stop() says so first), it is not ready: drained.
    d.ops.stopping();
    const draining = await get(d, '/readyz');
    expect(draining.status).toBe(503);
    expect((JSON.parse(draining.text) as { failing: string[] }).failing).toEqual(['running']);
    expect((await get(d, '/healthz')).status).toBe(200);
  });

  it('show an execution whose answer was lost as an open unknown outcome', async () => {
    d = await startTestBot({ clientTimeoutMs: 300 });
    await requestIntoUnknown(d);

    const m = parseExposition((await get(d, '/metrics')).text);
    expect(m.value('desk_unknown_outcomes_open')).toBe(1);
    expect(m.value('desk_requests', { state: 'unknown' })).toBe(1);
    expect(m.value('desk_executions_total', { outcome: 'unknown' })).toBe(1);
    // No answer came: the attempt is labelled by what happened instead of a status.
    const sends = m.find('desk_exchange_request_duration_seconds_count', { operation: 'POST /crypto/withdrawals' });
    expect(sends.map((s) => s.labels.status)).toEqual([expect.stringMatching(/^(timeout|network)$/)]);
  });
});
