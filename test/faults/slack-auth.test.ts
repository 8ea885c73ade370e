/**
 * Slack authenticity through the whole bot (Bolt's real HTTP receiver, the engine, the sandbox):
 * a request whose signature is forged, made with another secret, computed over another body or
 * another timestamp, older than Bolt's five minutes, malformed or missing is refused with 401 on
 * every surface (slash commands, button clicks, modal submissions, options, events), and nothing
 * happens: no exchange call, no Slack call, no approval, no rejection, no audit line. The same
 * requests correctly signed do act (so the refusals are the signature's doing).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  slackSignature,
  commandBody,
  FORM,
  appHomeOpened,
  blockActionPayload,
  viewSubmissionPayload,
  blockSuggestionPayload,
  stateOf,
} from '../../src/stand-ins/fake-slack/slack-requests.js';
import { ACTION, CALLBACK, INPUT } from '../../src/bot/slack/kit/slack-ids.js';
import { SIGNING_SECRET } from '../bot/slack/support/harness.js';
import {
  approvalMessage,
  buttonValue,
  startTestBot,
  USERS,
  APPROVAL_CHANNEL,
  type TestBot,
} from '../e2e/support/test-bot.js';
import { requestCrypto } from '../e2e/support/flows.js';

let d: TestBot;
let requestId: string;
let approveValue: string;
let ts: string;

beforeAll(async () => {
  d = await startTestBot({ seed: 'slack-auth' });
  ({ requestId } = await requestCrypto(d));
  const message = approvalMessage(d.fake, requestId);
  ts = message.ts;
  approveValue = buttonValue(message.blocks, ACTION.approve)!;
}, 30_000);
afterAll(async () => {
  await d?.stop();
});

/** One request per surface, as Slack would post it: body and content type. */
function surfaces(): Array<{ name: string; body: string; contentType: string }> {
  const form = (payload: Record<string, unknown>) =>
    new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  return [
    {
      name: 'slash command /balances',
      body: commandBody({ command: '/balances', userId: USERS.requester, responseUrl: d.fake.responseUrl('auth-cmd') }),
      contentType: FORM,
    },
    {
      name: 'Approve click',
      body: form(
        blockActionPayload({
          userId: USERS.approver1,
          actionId: ACTION.approve,
          value: approveValue,
          container: { type: 'message', channelId: APPROVAL_CHANNEL, messageTs: ts },
          responseUrl: d.fake.responseUrl('auth-click'),
        }),
      ),
      contentType: FORM,
    },
    {
      name: 'reject reason submission',
      body: form(
        viewSubmissionPayload({
          userId: USERS.approver1,
          callbackId: CALLBACK.rejectReason,
          privateMetadata: JSON.stringify({ r: requestId }),
          values: { [INPUT.rejectReason]: { [INPUT.rejectReason]: stateOf.text('forged rejection') } },
        }),
      ),
      contentType: FORM,
    },
    {
      name: 'wallet search options',
      body: form(
        blockSuggestionPayload({
          userId: USERS.requester,
          actionId: INPUT.cpWallet,
          value: 'Bin',
          callbackId: CALLBACK.counterparty,
        }),
      ),
      contentType: FORM,
    },
    {
      name: 'app_home_opened event',
      body: JSON.stringify(appHomeOpened(USERS.approver1)),
      contentType: 'application/json',
    },
  ];
}

const now = () => Math.floor(Date.now() / 1000);
const sign = (body: string, t = now(), secret = SIGNING_SECRET) => ({
  'x-slack-request-timestamp': String(t),
  'x-slack-signature': slackSignature(secret, t, body),
});

/** Ways to get the signature wrong: headers for a body (the body sent is always the one given). */
const ATTACKS: Array<[string, (body: string) => Record<string, string>]> = [
  ['signed with another secret', (body) => sign(body, now(), 'not-the-signing-secret-0123456789')],
  ['signature of another body', (body) => sign(body.replace(/U0/g, 'U9'))],
  [
    'signature of another timestamp',
    (body) => ({ ...sign(body, now() - 30), 'x-slack-request-timestamp': String(now()) }),
  ],
  ['correctly signed but 6 minutes old', (body) => sign(body, now() - 6 * 60)],
  ['correctly signed, an hour old (a replay)', (body) => sign(body, now() - 3_600)],
  ['correctly signed, an hour in the future (replayable for an hour)', (body) => sign(body, now() + 3_600)],
  ['correctly signed, 6 minutes in the future', (body) => sign(body, now() + 6 * 60)],
  ['no signature headers', () => ({})],
  ['timestamp without signature', () => ({ 'x-slack-request-timestamp': String(now()) })],
  ['signature without timestamp', (body) => ({ 'x-slack-signature': sign(body)['x-slack-signature'] })],
  [
    'v1 scheme',
    (body) => ({ ...sign(body), 'x-slack-signature': sign(body)['x-slack-signature'].replace('v0=', 'v1=') }),
  ],
  [
    'truncated signature',
    (body) => ({ ...sign(body), 'x-slack-signature': sign(body)['x-slack-signature'].slice(0, 40) }),
  ],
  ['empty signature', (body) => ({ ...sign(body), 'x-slack-signature': '' })],
  ['timestamp not a number', (body) => ({ ...sign(body), 'x-slack-request-timestamp': 'now' })],
];

async function post(body: string, contentType: string, headers: Record<string, string>) {
  const res = await fetch(d.slack.endpoint, {
    method: 'POST',
    headers: { 'content-type': contentType, ...headers },
    body,
  });
  return { status: res.status, text: await res.text() };
}

/** Everything a handled request could have changed. */
async function footprint() {
  await d.settle();
  const record = await d.requests.get(requestId);
  return {
    slackCalls: d.fake.calls.length,
    exchangeCalls: d.sandbox.control.requests().length,
    auditLines: d.audit.head.seq,
    state: record?.state,
    approvals: record?.approvals.length,
  };
}

describe('Slack requests with a bad signature', () => {
  for (const [attack, headers] of ATTACKS) {
    it(`${attack}: 401 on every surface, and nothing happens`, async () => {
      const before = await footprint();
      for (const s of surfaces()) {
        const res = await post(s.body, s.contentType, headers(s.body));
        expect(res.status, `${s.name}: ${attack}`).toBe(401);
      }
      expect(await footprint()).toEqual(before);
    });
  }
});

describe('the same requests correctly signed', () => {
  it('act: the command answers, the click counts, the event publishes, the submission rejects', async () => {
    const byName = Object.fromEntries(surfaces().map((s) => [s.name, s]));
    const mark = d.fake.calls.length;
    const run = async (name: string) => {
      const s = byName[name]!;
      const res = await post(s.body, s.contentType, sign(s.body));
      expect(res.status, name).toBe(200);
      await d.settle();
    };
    await run('slash command /balances');
    expect(d.fake.calls.slice(mark).some((c) => c.responseUrlId === 'auth-cmd')).toBe(true);
    await run('app_home_opened event');
    expect(d.fake.calls.slice(mark).some((c) => c.method === 'views.publish')).toBe(true);
    await run('Approve click');
    expect((await d.requests.get(requestId))?.approvals.map((a) => a.userId)).toEqual([USERS.approver1]);
    await run('reject reason submission');
    // The approver who approved may still reject while the request waits for the second approval.
    expect((await d.requests.get(requestId))?.state).toBe('rejected');
  });
});

/**
 * Correctly signed, but for another workspace or app: no listener runs. Bolt then answers no ack
 * (its unhandled-request timeout), and nothing changes.
 */
describe('Slack requests for another workspace or app', () => {
  const FORGERIES: Array<[string, (body: string) => string]> = [
    ['another team', (body) => body.replaceAll('T0FAKE001', 'T0OTHER01')],
    ['another app', (body) => body.replaceAll('A0FAKE001', 'A0OTHER01')],
  ];
  for (const [what, forge] of FORGERIES) {
    it(`${what}: signed with our secret, and still nothing happens on any surface`, async () => {
      const before = await footprint();
      // At once: each waits out Bolt's unhandled-request timeout (about 3 s).
      await Promise.all(
        surfaces().map(async (s) => {
          const body = forge(s.body);
          expect(body, s.name).not.toBe(s.body);
          const res = await post(body, s.contentType, sign(body));
          // Bolt acknowledges an event itself before any middleware; the rest go unacknowledged.
          if (!s.name.includes('event')) expect(res.status, `${s.name}: ${what}`).not.toBe(200);
        }),
      );
      expect(await footprint()).toEqual(before);
    }, 30_000);
  }
});
