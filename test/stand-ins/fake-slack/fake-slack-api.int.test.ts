/** The fake Slack Web API answers like Slack for the methods the bot uses, and records every call. */
import { LogLevel, webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSlackApi, type FakeSlackApi } from '../../../src/stand-ins/fake-slack/fake-slack-api.js';

const TOKEN = 'xoxb-fake-api-test-SECRET';
let fake: FakeSlackApi;
const { WebClient } = webApi;
let client: InstanceType<typeof WebClient>;

beforeAll(async () => {
  fake = await startFakeSlackApi({
    expectedToken: TOKEN,
    users: [{ id: 'U0SG00001', tz: 'Asia/Singapore', tz_offset: 28_800, real_name: 'Mei' }],
  });
  client = new WebClient(TOKEN, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 }, logLevel: LogLevel.ERROR });
});
afterAll(async () => {
  await fake?.stop();
});

describe('fake Slack Web API', () => {
  it('posts messages with increasing Slack-like timestamps and decodes blocks', async () => {
    const a = await client.chat.postMessage({
      channel: 'C0APPROVE1',
      text: 'hello',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*hi*' } }],
    });
    const b = await client.chat.postMessage({ channel: 'C0APPROVE1', text: 'reply', thread_ts: a.ts! });
    expect(a.ts).toMatch(/^1700000000\.\d{6}$/);
    expect(Number(b.ts)).toBeGreaterThan(Number(a.ts));
    const call = fake.callsTo('chat.postMessage')[0]!;
    expect(call.args.blocks).toEqual([{ type: 'section', text: { type: 'mrkdwn', text: '*hi*' } }]);
    expect(call.authorized).toBe(true);
    expect(call.tokenMatched).toBe(true);
    // The token itself is never recorded.
    expect(JSON.stringify(fake.calls)).not.toContain('SECRET');
  });

  it('posts to a user id in their DM channel and opens DMs', async () => {
    const dm = await client.chat.postMessage({ channel: 'U0REQ0001', text: 'decided' });
    expect(dm.channel).toBe('D0REQ0001');
    const opened = await client.conversations.open({ users: 'U0REQ0001' });
    expect(opened.channel?.id).toBe('D0REQ0001');
  });

  it('opens and updates views with ids and hashes, refusing a stale hash', async () => {
    const opened = await client.views.open({
      trigger_id: 't1',
      view: { type: 'modal', title: { type: 'plain_text', text: 'X' }, blocks: [] },
    });
    expect(opened.view?.id).toMatch(/^V/);
    const updated = await client.views.update({
      view_id: opened.view!.id!,
      hash: opened.view!.hash!,
      view: { type: 'modal', title: { type: 'plain_text', text: 'Y' }, blocks: [] },
    });
    expect(updated.view?.hash).not.toBe(opened.view?.hash);
    await expect(
      client.views.update({
        view_id: opened.view!.id!,
        hash: opened.view!.hash!,
        view: { type: 'modal', title: { type: 'plain_text', text: 'Z' }, blocks: [] },
      }),
    ).rejects.toThrow(/hash_conflict/);
    await client.views.publish({ user_id: 'U0APP0001', view: { type: 'home', blocks: [] } });
    expect(fake.homeOf('U0APP0001')).toEqual({ type: 'home', blocks: [] });
  });

  it('answers users.info with time zone and offset, and auth.test with the bot identity', async () => {
    const info = await client.users.info({ user: 'U0SG00001' });
    expect(info.user).toMatchObject({ id: 'U0SG00001', tz: 'Asia/Singapore', tz_offset: 28_800 });
    const auth = await client.auth.test();
    expect(auth).toMatchObject({ ok: true, user_id: 'U0BOT0001', bot_id: 'B0BOT0001', team_id: 'T0FAKE001' });
  });

  it("answers users.info's deleted and is_bot, user_not_found for a forgotten id, and conversations.info with is_member", async () => {
    expect((await client.users.info({ user: 'U0ANY0001' })).user).toMatchObject({
      id: 'U0ANY0001',
      deleted: false,
      is_bot: false,
    });
    fake.setUser({ id: 'U0GONE001', deleted: true });
    expect((await client.users.info({ user: 'U0GONE001' })).user).toMatchObject({ deleted: true, is_bot: false });
    fake.forgetUser('U0NOBODY1');
    await expect(client.users.info({ user: 'U0NOBODY1' })).rejects.toMatchObject({
      data: { ok: false, error: 'user_not_found' },
    });

    expect((await client.conversations.info({ channel: 'C0ANY0001' })).channel).toMatchObject({
      id: 'C0ANY0001',
      is_channel: true,
      is_private: false,
      is_member: true,
      is_archived: false,
    });
    fake.setChannel({ id: 'G0PRIV001', name: 'desk-private', is_private: true, is_member: false });
    expect((await client.conversations.info({ channel: 'G0PRIV001' })).channel).toMatchObject({
      name: 'desk-private',
      is_group: true,
      is_private: true,
      is_member: false,
    });
    fake.forgetChannel('C0123ABCD');
    await expect(client.conversations.info({ channel: 'C0123ABCD' })).rejects.toMatchObject({
      data: { ok: false, error: 'channel_not_found' },
    });
  });

  it('refuses a wrong token like Slack, and fails a method on demand', async () => {
    const other = new WebClient('xoxb-wrong', {
      slackApiUrl: fake.apiUrl,
      retryConfig: { retries: 0 },
      logLevel: LogLevel.ERROR,
    });
    await expect(other.auth.test()).rejects.toThrow(/invalid_auth/);
    fake.failNext('chat.update', 'message_not_found');
    await expect(client.chat.update({ channel: 'C1', ts: '1', text: 'x' })).rejects.toThrow(/message_not_found/);
    await expect(client.chat.update({ channel: 'C1', ts: '1', text: 'x' })).resolves.toMatchObject({ ok: true });
  });

  it('waits for a call that has not happened yet, and for one that already has', async () => {
    const waiting = fake.nextCall((c) => c.method === 'chat.postEphemeral');
    await client.chat.postEphemeral({ channel: 'C1', user: 'U1', text: 'only you' });
    expect((await waiting).args).toMatchObject({ channel: 'C1', user: 'U1', text: 'only you' });
    const past = await fake.waitFor((c) => c.method === 'auth.test');
    expect(past.method).toBe('auth.test');
    await expect(fake.nextCall((c) => c.method === 'never.called', 30)).rejects.toThrow(
      /no matching Slack call within 30 ms/,
    );
  });

  it('records response_url posts', async () => {
    await fetch(fake.responseUrl('abc'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hi', response_type: 'ephemeral' }),
    });
    expect(fake.calls.at(-1)).toMatchObject({
      method: 'response_url',
      responseUrlId: 'abc',
      args: { text: 'hi', response_type: 'ephemeral' },
    });
  });
});
