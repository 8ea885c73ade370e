/**
 * The Slack notifier against the fake Slack Web API: the approval message is posted once and its
 * place persisted, updated after each event, thread posts and DMs; Slack failures are retried
 * when they can pass, logged when they do not, and never lose the message for good (the next
 * event of the request posts it).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { webApi } from '@slack/bolt';
import type { RequestEvent } from '../../../../src/bot/ports/events.js';
import type { Logger } from '../../../../src/bot/ports/logger.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../../../src/stand-ins/fake-slack/fake-slack-api.js';
import { createPolicy } from '../../../../src/bot/domain/policy.js';
import { newExecution, newRequest, type RequestRecord } from '../../../../src/bot/domain/record.js';
import { createSlackNotifier, findApprovalMessage } from '../../../../src/bot/slack/approvals/approval-notifier.js';
import { judgeSlackRetry } from '../../../../src/bot/slack/kit/slack-retry.js';
import { memoryKv } from '../../../../src/bot/store/memory.js';

const CHANNEL = 'C0APPROVE1';
const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const policy = createPolicy({ requesters: ['U0REQ0001'], approvers: ['U0APP0001', 'U0APP0002'] });

function record(): RequestRecord {
  return newRequest({
    id: 'R7K2QX',
    requester: 'U0REQ0001',
    now: T0,
    policy,
    snapshot: {
      kind: 'crypto_withdrawal',
      cryptoCurrencyId: 104,
      asset: 'USDT',
      network: 'Tron (TRC20)',
      precision: 2,
      amount: '150.12',
      fee: '1',
      total: '151.12',
      destination: { id: 'a1', label: 'OTC partner', address: 'TXYZ1234567890', addressTag: null },
      note: null,
      purpose: null,
    },
  });
}

const event = (type: RequestEvent['type'], request: RequestRecord, extra: Record<string, unknown> = {}): RequestEvent =>
  ({ type, at: T0, requestId: request.id, request, ...extra }) as RequestEvent;

let fake: FakeSlackApi;
let lines: { level: string; message: string }[];
let logger: Logger;
beforeEach(async () => {
  fake = await startFakeSlackApi({ expectedToken: 'xoxb-test' });
  lines = [];
  logger = {
    info: () => {},
    warn: (message) => void lines.push({ level: 'warn', message }),
    error: (message) => void lines.push({ level: 'error', message }),
  };
});
afterEach(() => fake.stop());

function notifier(kv = memoryKv()) {
  const client = new webApi.WebClient('xoxb-test', {
    slackApiUrl: fake.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
  const sleeps: number[] = [];
  const n = createSlackNotifier({
    client,
    channel: CHANNEL,
    kv,
    sandbox: true,
    logger,
    retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 40, sleep: async (ms) => void sleeps.push(ms) },
  });
  return { n, kv, sleeps };
}

describe('slackRetryDecision', () => {
  it('retries what can pass, not what cannot', () => {
    expect(judgeSlackRetry({ code: 'slack_webapi_rate_limited_error', retryAfter: 3 })).toMatchObject({
      retry: true,
      minDelayMs: 3000,
    });
    expect(judgeSlackRetry({ code: 'slack_webapi_request_error' }).retry).toBe(true);
    expect(judgeSlackRetry({ code: 'slack_webapi_http_error', statusCode: 503 }).retry).toBe(true);
    expect(judgeSlackRetry({ code: 'slack_webapi_http_error', statusCode: 400 }).retry).toBe(false);
    expect(judgeSlackRetry({ code: 'slack_webapi_platform_error', data: { error: 'internal_error' } }).retry).toBe(
      true,
    );
    expect(judgeSlackRetry({ code: 'slack_webapi_platform_error', data: { error: 'channel_not_found' } }).retry).toBe(
      false,
    );
    expect(judgeSlackRetry(new Error('boom')).retry).toBe(false);
  });
});

describe('the Slack notifier', () => {
  it('posts once, persists where, updates in place; a refused click changes nothing on the message', async () => {
    const { n, kv } = notifier();
    const r = record();
    await n.notify(event('request.created', r));
    const ref = await findApprovalMessage(kv, r.id);
    expect(ref).toMatchObject({ channel: CHANNEL, ts: fake.callsTo('chat.postMessage')[0]!.response.ts });
    const counted = {
      ...r,
      state: 'pending' as const,
      approvals: [{ userId: 'U0APP0001', at: T0, snapshotHash: r.snapshotHash }],
    };
    await n.notify(event('approval.counted', counted, { by: 'U0APP0001', count: 1, required: 2 }));
    await n.notify(
      event('approval.refused', counted, {
        by: 'U0APP0001',
        reason: 'already_approved',
        message: 'You already approved this.',
      }),
    );
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
    const updates = fake.callsTo('chat.update');
    expect(updates).toHaveLength(1);
    expect(updates[0]!.args).toMatchObject({ channel: CHANNEL, ts: ref!.ts });
    expect(JSON.stringify(updates[0]!.args.blocks)).toContain('1 of 2 approvals: <@U0APP0001>');
  });

  it('a rate limit is waited out and retried; the message is posted once', async () => {
    const { n, kv, sleeps } = notifier();
    fake.failNext('chat.postMessage', 'ratelimited');
    await n.notify(event('request.created', record()));
    expect(fake.callsTo('chat.postMessage').filter((c) => c.response.ok)).toHaveLength(1);
    expect(sleeps).toEqual([10]);
    expect(await findApprovalMessage(kv, 'R7K2QX')).toBeDefined();
    expect(lines).toEqual([{ level: 'warn', message: 'Slack chat.postMessage (approval message) failed; retrying' }]);
  });

  it('a post that keeps failing throws for the outbox to try again (nothing posted, nothing marked done); a refusal that will not pass is marked permanent', async () => {
    const { n, kv } = notifier();
    for (let i = 0; i < 3; i++) fake.failNext('chat.postMessage', 'service_unavailable');
    const r = record();
    const done: string[] = [];
    const progress = { done, markDone: async (step: string) => void done.push(step) };
    await expect(n.notify(event('request.created', r), progress)).rejects.toMatchObject({
      name: 'SlackDeliveryError',
      permanent: false,
    });
    expect(await findApprovalMessage(kv, r.id)).toBeUndefined();
    expect(done).toEqual([]);
    fake.failNext('chat.postMessage', 'channel_not_found');
    await expect(n.notify(event('request.created', r), progress)).rejects.toMatchObject({
      permanent: true,
      reason: 'channel_not_found',
      where: CHANNEL,
    });
    await n.notify(event('request.created', r), progress);
    expect(fake.callsTo('chat.postMessage').filter((c) => c.response.ok)).toHaveLength(1);
    expect(done).toEqual(['message']);
  });

  it('a step that fails stops the event there; tried again, only the steps left are sent: never a thread post or DM twice', async () => {
    const { n } = notifier();
    const r = record();
    await n.notify(event('request.created', r));
    const failed = {
      ...r,
      state: 'failed' as const,
      execution: newExecution(T0),
      failure: { stage: 'exchange' as const, reason: 'The exchange refused: no', exchangeMessage: 'no' },
    };
    const done: string[] = [];
    const progress = { done, markDone: async (step: string) => void done.push(step) };
    for (let i = 0; i < 3; i++) fake.failNext('chat.postMessage', 'service_unavailable');
    // The message update goes through; the thread post fails: the DM waits behind it.
    await expect(n.notify(event('execution.failed', failed, failed.failure), progress)).rejects.toMatchObject({
      permanent: false,
    });
    expect(done).toEqual(['message']);
    await n.notify(event('execution.failed', failed, failed.failure), progress);
    expect(done).toEqual(['message', 'thread', 'dm']);
    expect(fake.callsTo('chat.update')).toHaveLength(1);
    const thread = fake.callsTo('chat.postMessage').filter((c) => c.args.thread_ts !== undefined && c.response.ok);
    expect(thread.map((c) => String(c.args.text))).toEqual([expect.stringContaining('Failed')]);
    // SANDBOX banner on thread posts and DMs too.
    expect(JSON.stringify(thread[0]!.args.blocks)).toContain('SANDBOX');
  });

  it("a DM the requester can no longer receive (deactivated) is given up with an error, so the request's later messages are not held behind it", async () => {
    const { n } = notifier();
    const r = record();
    await n.notify(event('request.created', r));
    const failed = {
      ...r,
      state: 'failed' as const,
      execution: newExecution(T0),
      failure: { stage: 'exchange' as const, reason: 'The exchange refused: no', exchangeMessage: 'no' },
    };
    const done: string[] = [];
    const progress = { done, markDone: async (step: string) => void done.push(step) };
    fake.refuseDmTo(r.requester, 'user_disabled');
    await n.notify(event('execution.failed', failed, failed.failure), progress);
    expect(done).toEqual(['message', 'thread', 'dm']);
    // Tried once, refused for its recipient, and not tried again.
    const dms = fake.callsTo('chat.postMessage').filter((c) => c.args.channel === r.requester);
    expect(dms.map((c) => (c.response as { ok: boolean; error?: string }).error)).toEqual(['user_disabled']);
    expect(lines).toContainEqual({ level: 'error', message: expect.stringContaining('cannot receive') });
  });

  it('a refresh that changes a message waits a second after it (chat.update is about 1 per second per channel); one that changes nothing costs nothing', async () => {
    const { n, sleeps } = notifier();
    const r = record();
    await n.notify(event('request.created', r));
    await n.notify(event('message.refresh', r));
    expect(sleeps).toEqual([]);
    await n.notify(
      event('message.refresh', {
        ...r,
        updatedAt: T0 + 1_000,
        approvals: [{ userId: 'U0APP0001', at: T0 + 1_000, snapshotHash: r.snapshotHash }],
      }),
    );
    expect(fake.callsTo('chat.update')).toHaveLength(1);
    expect(sleeps).toEqual([1_000]);
  });

  it('a refresh and an event of the same request at once post one approval message, not two', async () => {
    const { n } = notifier();
    const r = record();
    // The periodic refresh and the outbox delivery run independently and can meet on a request with no message yet.
    await Promise.all([n.notify(event('message.refresh', r)), n.notify(event('request.created', r))]);
    expect(fake.callsTo('chat.postMessage').filter((c) => c.response.ok)).toHaveLength(1);
  });

  it('a refresh that read the record before a later event was delivered does not put the message back in time', async () => {
    const { n } = notifier();
    const r = record();
    await n.notify(event('request.created', r));
    const counted = {
      ...r,
      updatedAt: T0 + 1_000,
      approvals: [{ userId: 'U0APP0001', at: T0 + 1_000, snapshotHash: r.snapshotHash }],
    };
    await n.notify(event('approval.counted', counted, { by: 'U0APP0001', count: 1, required: 2 }));
    expect(fake.callsTo('chat.update')).toHaveLength(1);
    // The refresh read `r` (no approvals yet) before the approval was delivered.
    await n.notify(event('message.refresh', r));
    expect(fake.callsTo('chat.update')).toHaveLength(1);
    // A record newer than the message is still shown.
    await n.notify(event('message.refresh', { ...counted, updatedAt: T0 + 2_000, approvals: [] }));
    expect(fake.callsTo('chat.update')).toHaveLength(2);
  });
});
