/**
 * How Bolt 5's HTTPReceiver treats signed requests, asserted against the real thing: the helpers
 * in support/ must produce what it accepts, and forged or stale signatures must be refused.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSlackApi, type FakeSlackApi } from '../../../../src/stand-ins/fake-slack/fake-slack-api.js';
import { SlackRequester, commandBody, FORM, slackSignature } from '../support/signed-requests.js';

const SECRET = 'smoke-test-signing-secret-0123456789';
const TOKEN = 'xoxb-smoke-test-token';

let fake: FakeSlackApi;
let app: App;
let server: Server;
let slack: SlackRequester;
let handled = 0;

beforeAll(async () => {
  fake = await startFakeSlackApi({ expectedToken: TOKEN });
  const receiver = new HTTPReceiver({
    signingSecret: SECRET,
    endpoints: '/slack/events',
    processBeforeResponse: false,
    logLevel: LogLevel.ERROR,
  });
  app = new App({
    token: TOKEN,
    receiver,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
  });
  app.command('/balances', async ({ ack }) => {
    handled += 1;
    await ack({ response_type: 'ephemeral', text: 'stub' });
  });
  // App.start returns the receiver's node:http Server; port 0 lets the OS pick a free port.
  server = await app.start(0);
  const { port } = server.address() as AddressInfo;
  slack = new SlackRequester(`http://127.0.0.1:${port}/slack/events`, SECRET);
});

afterAll(async () => {
  await app?.stop();
  await fake?.stop();
});

const command = () => ({ command: '/balances', userId: 'U0000001', responseUrl: fake.responseUrl() });

describe('Bolt HTTPReceiver with signed requests', () => {
  it('accepts a correctly signed slash command and returns the ack body', async () => {
    const before = handled;
    const res = await slack.command(command());
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ response_type: 'ephemeral', text: 'stub' });
    expect(handled).toBe(before + 1);
    // Bolt checked the bot token once with auth.test, through SLACK_API_URL, with the token.
    const authTest = await fake.waitFor((c) => c.method === 'auth.test');
    expect(authTest.tokenMatched).toBe(true);
  });

  it('refuses a forged signature with 401 and does not run the listener', async () => {
    const before = handled;
    const body = commandBody(command());
    const ts = Math.floor(Date.now() / 1000);
    const forged = slackSignature('not-the-secret', ts, body);
    const res = await slack.post(body, FORM, { timestampSec: ts, signature: forged });
    expect(res.status).toBe(401);
    expect(res.text).toBe('');
    expect(handled).toBe(before);
  });

  it('refuses a body changed after signing', async () => {
    const ts = Math.floor(Date.now() / 1000);
    const signature = slackSignature(SECRET, ts, commandBody({ ...command(), text: 'BTC' }));
    const res = await slack.post(commandBody({ ...command(), text: 'ETH' }), FORM, { timestampSec: ts, signature });
    expect(res.status).toBe(401);
  });

  it('refuses a correctly signed but stale request (older than 5 minutes) with 401', async () => {
    const before = handled;
    const res = await slack.command(command(), { timestampSec: Math.floor(Date.now() / 1000) - 5 * 60 - 30 });
    expect(res.status).toBe(401);
    expect(handled).toBe(before);
  });

  it("accepts a signature four minutes old (inside Bolt's window)", async () => {
    const res = await slack.command(command(), { timestampSec: Math.floor(Date.now() / 1000) - 4 * 60 });
    expect(res.status).toBe(200);
  });

  it('refuses a request without signature headers with 401', async () => {
    const res = await slack.command(command(), { unsigned: true });
    expect(res.status).toBe(401);
  });

  it("passes Slack's retry headers through to the listener", async () => {
    let seen: { retryNum?: number; retryReason?: string } = {};
    app.command('/retry-probe', async ({ ack, context }) => {
      seen = { retryNum: context.retryNum, retryReason: context.retryReason };
      await ack();
    });
    const res = await slack.command(
      { ...command(), command: '/retry-probe' },
      { retry: { num: 2, reason: 'http_timeout' } },
    );
    expect(res.status).toBe(200);
    expect(seen).toEqual({ retryNum: 2, retryReason: 'http_timeout' });
  });
});
