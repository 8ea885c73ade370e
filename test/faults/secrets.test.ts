/**
 * Secrets never written: the real bot (src/main.ts, bundled, in its own process, configured only
 * through its environment like production) runs a representative flow against the sandbox and a
 * fake Slack Web API, with known secrets: the exchange private key (given as PEM), the Slack bot
 * token and signing secret. Along the way things go wrong on purpose: the exchange answers 401,
 * 500 and drops a committed withdrawal; Slack refuses a post; forged and invalid Slack requests
 * arrive. Then every byte the bot wrote is scanned: stdout and stderr (every log line and error
 * message), every file in DATA_DIR (audit log, request files, history, key-value file), and
 * everything it said to Slack. None of the secrets may appear, in any letter case.
 *
 * Step-up (issue 24) is on: both approvers enroll an authenticator with `/desk 2fa` and approve
 * with codes. Their secrets may appear in one place only, the enrollment modal's views.update; the
 * STEP_UP_ENCRYPTION_KEY nowhere. LOG_LEVEL is debug, where the Slack libraries log request bodies.
 *
 * The app-level token cannot be set in HTTP mode (it selects Socket Mode, which would dial
 * Slack): it is checked in a start-up that fails on configuration, with every secret set.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  SlackRequester,
  slackSignature,
  commandBody,
  FORM,
  stateOf,
  type StateValues,
} from '../../src/stand-ins/fake-slack/slack-requests.js';
import { ACTION, CALLBACK, dynamicBlockId, INPUT } from '../../src/bot/slack/kit/slack-ids.js';
import { blocksOf, buttonValue } from '../e2e/support/test-bot.js';
import { until } from '../support/until.js';
import { useBotWorld } from './support/bot-world.js';
import { isBotStarted, startChild, type RunningChild } from './support/child-process.js';
import { makeFaultKey } from './support/keys.js';
import { totpCode } from '../../src/bot/domain/step-up/totp.js';
import { randomBytes } from 'node:crypto';

const key = makeFaultKey();
const BOT_TOKEN = 'xoxb-4242424242-1717171717-SecretBotTokenValue9z';
const APP_TOKEN = 'xapp-1-A0SECRET1-4242424242-SecretAppTokenValue8y';
const SIGNING_SECRET = 'signing-secret-3f9a7c1e5b2d4f6a8c0e';
const PEOPLE = { requester: 'U0REQ0001', approver1: 'U0APP0001', approver2: 'U0APP0002' } as const;
const CHANNEL = 'C0APPROVE1';
const STEP_UP_KEY = randomBytes(32);
/** A malformed key (31 bytes): refused at start without being quoted. */
const SHORT_STEP_UP_KEY = STEP_UP_KEY.toString('hex').slice(2);
/** The approvers' authenticator secrets, as the enrollment modals showed them. */
const stepUpSecrets: string[] = [];

const world = useBotWorld({ seed: 'secrets', key, botToken: BOT_TOKEN });

/** Every form in which a secret could show up. */
function needles(): Array<[string, string]> {
  const pemLines = key.pem.split('\n').filter((l) => l && !l.startsWith('-----'));
  return [
    ['private key hex', key.hex],
    ['private key hex, upper case', key.hex.toUpperCase()],
    ['private key PEM body', key.pemBody],
    ...pemLines.map((l, i): [string, string] => [`private key PEM line ${i + 1}`, l]),
    ['private key as base64url', Buffer.from(key.hex, 'hex').toString('base64url')],
    ['private key as base64', Buffer.from(key.hex, 'hex').toString('base64')],
    ['Slack bot token', BOT_TOKEN],
    ['Slack bot token secret part', BOT_TOKEN.split('-').at(-1)!],
    ['Slack app token', APP_TOKEN],
    ['Slack signing secret', SIGNING_SECRET],
    ['step-up key, hex', STEP_UP_KEY.toString('hex')],
    ['step-up key, base64', STEP_UP_KEY.toString('base64')],
    ...stepUpSecrets.map((s, i): [string, string] => [`step-up secret ${i + 1}`, s]),
  ];
}

/** Where each needle was found in `haystacks` (name -> text). */
function leaks(haystacks: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [where, text] of Object.entries(haystacks)) {
    const lower = text.toLowerCase();
    for (const [what, needle] of needles()) if (lower.includes(needle.toLowerCase())) found.push(`${what} in ${where}`);
  }
  return found;
}

function filesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, filesUnder(path));
    else out[path] = readFileSync(path).toString('latin1');
  }
  return out;
}

function botEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: world.fake.apiUrl,
    PORT: '0',
    APPROVAL_CHANNEL_ID: CHANNEL,
    COMPLIANCE_CHANNEL_ID: 'C0COMPLY1',
    REQUESTER_USER_IDS: PEOPLE.requester,
    APPROVER_USER_IDS: `${PEOPLE.approver1},${PEOPLE.approver2}`,
    COMPLIANCE_USER_IDS: PEOPLE.approver1,
    EXCHANGE_BASE_URL: world.sandbox.url,
    EXCHANGE_PRIVATE_KEY: key.pem,
    DATA_DIR: world.dataDir,
    LOG_LEVEL: 'debug',
    POLL_INTERVAL_MS: '1000',
    STEP_UP_AT_LEAST: '1',
    STEP_UP_ENCRYPTION_KEY: STEP_UP_KEY.toString('base64'),
    ...extra,
  };
}

/** `/desk 2fa` as `userId`, confirmed with a first code: the secret the modal showed. */
async function enrollStepUp(slack: SlackRequester, userId: string): Promise<string> {
  const mark = world.fake.calls.length;
  await slack.command({ command: '/desk', text: '2fa', userId, responseUrl: world.fake.responseUrl(`2fa-${userId}`) });
  const filled = await world.fake.waitFor(
    (c) => c.method === 'views.update' && JSON.stringify(c.args.view).includes('otpauth://'),
    { after: mark },
  );
  const uri = /otpauth:\/\/totp\/[^`"\\]+/.exec(JSON.stringify(filled.args.view))![0].replaceAll('&amp;', '&');
  const secret = new URL(uri).searchParams.get('secret')!;
  stepUpSecrets.push(secret);
  const done = await slack.viewSubmission({
    userId,
    callbackId: CALLBACK.stepUpEnroll,
    viewId: String(filled.args.view_id),
    privateMetadata: '',
    values: { [INPUT.stepUpCode]: { [INPUT.stepUpCode]: stateOf.text(totpCode(secret, Date.now())) } },
  });
  expect(JSON.stringify(done.json), `${userId} enrolled`).toContain('enrolled');
  return secret;
}

/** The bound Slack port, from the bot's own "started" log line. */
async function portOf(child: RunningChild): Promise<number> {
  const started = await child.waitFor(isBotStarted);
  if (!started) throw new Error(`bot exited: ${child.stderr()}\n${JSON.stringify(child.events.slice(-5))}`);
  return Number(started.port);
}

describe('secrets during a whole run of the bot', () => {
  it('never appear in logs, errors, files or Slack messages, whatever goes wrong', async () => {
    const child = startChild(world.bundle, botEnv());
    let output: string;
    try {
      const slack = new SlackRequester(`http://127.0.0.1:${await portOf(child)}/slack/events`, SIGNING_SECRET);

      // Reads that fail: the exchange refuses our key once, then has an internal error.
      world.sandbox.control.setFaults([
        { kind: 'error', status: 401, method: 'GET', path: '/accounts/balances', times: 1 },
        { kind: 'error', status: 500, method: 'GET', path: '/accounts/balances', times: 1 },
      ]);
      for (let i = 0; i < 3; i++)
        await slack.command({
          command: '/balances',
          text: 'BTC',
          userId: PEOPLE.requester,
          responseUrl: world.fake.responseUrl(`bal${i}`),
        });
      await slack.command({
        command: '/desk',
        text: 'withdrawals',
        userId: PEOPLE.requester,
        responseUrl: world.fake.responseUrl('desk'),
      });

      // Requests Slack never signed, or signed with another secret.
      const body = commandBody({
        command: '/balances',
        userId: PEOPLE.requester,
        responseUrl: world.fake.responseUrl('forged'),
      });
      expect(
        (
          await slack.post(body, FORM, {
            signature: slackSignature('wrong-secret-0000000000', Math.floor(Date.now() / 1000), body),
          })
        ).status,
      ).toBe(401);
      expect((await slack.post(body, FORM, { unsigned: true })).status).toBe(401);

      // A withdrawal: form, an invalid submission, a valid one whose creation the exchange commits and drops.
      let mark = world.fake.calls.length;
      await slack.command({
        command: '/withdraw',
        text: 'crypto',
        userId: PEOPLE.requester,
        responseUrl: world.fake.responseUrl('w'),
      });
      const opened = await world.fake.waitFor((c) => c.method === 'views.open', { after: mark });
      const viewId = (opened.response.view as { id: string }).id;
      await world.fake.waitFor((c) => c.method === 'views.update' && c.args.view_id === viewId, { after: mark });
      const address = world.sandbox.control.addresses().find((a) => a.label === 'OTC partner (TRC20)')!;
      const values = (amount: string): StateValues => ({
        [INPUT.withdrawEntry]: { [INPUT.withdrawEntry]: stateOf.select('104') },
        [dynamicBlockId.withdrawDestination(104)]: { [INPUT.withdrawDestination]: stateOf.select(address.id) },
        [INPUT.withdrawAmount]: { [INPUT.withdrawAmount]: stateOf.text(amount) },
        [INPUT.withdrawNote]: { [INPUT.withdrawNote]: stateOf.text(`settlement ${BOT_TOKEN.slice(0, 5)}`) },
      });
      await slack.viewSubmission({
        userId: PEOPLE.requester,
        callbackId: CALLBACK.withdrawCrypto,
        viewId,
        privateMetadata: JSON.stringify({ k: 'crypto' }),
        values: values('1e9'),
      });
      world.sandbox.control.setFaults([
        { kind: 'drop_after_commit', method: 'POST', path: '/crypto/withdrawals', times: 1 },
      ]);
      world.fake.failNext('chat.postMessage', 'ratelimited');
      mark = world.fake.calls.length;
      await slack.viewSubmission({
        userId: PEOPLE.requester,
        callbackId: CALLBACK.withdrawCrypto,
        viewId,
        privateMetadata: JSON.stringify({ k: 'crypto' }),
        values: values('123.45'),
      });
      const posted = await world.fake.waitFor(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.channel === CHANNEL &&
          JSON.stringify(c.args.blocks ?? []).includes(ACTION.approve),
        { after: mark, timeoutMs: 10_000 },
      );
      const approve = buttonValue(blocksOf(posted), ACTION.approve);
      expect(approve, 'the approve button').toBeDefined();
      for (const user of [PEOPLE.approver1, PEOPLE.approver2]) {
        const secret = await enrollStepUp(slack, user);
        mark = world.fake.calls.length;
        await slack.blockAction({
          userId: user,
          actionId: ACTION.approve,
          value: approve!,
          container: { type: 'message', channelId: CHANNEL, messageTs: String(posted.response.ts) },
          responseUrl: world.fake.responseUrl(`a-${user}`),
        });
        const codeModal = await world.fake.waitFor(
          (c) => c.method === 'views.update' && JSON.stringify(c.args.view).includes(CALLBACK.stepUpApprove),
          { after: mark },
        );
        const view = codeModal.args.view as { private_metadata: string };
        const answer = await slack.viewSubmission({
          userId: user,
          callbackId: CALLBACK.stepUpApprove,
          viewId: String(codeModal.args.view_id),
          privateMetadata: view.private_metadata,
          // The next step's code (one step of drift is accepted): the enrolling code's step counts once.
          values: { [INPUT.stepUpCode]: { [INPUT.stepUpCode]: stateOf.text(totpCode(secret, Date.now() + 30_000)) } },
        });
        expect(JSON.stringify(answer.json), `${user}'s code`).toContain('update');
      }
      // Executed once (reconciled after the dropped answer), then followed by polling.
      await until('the withdrawal on the exchange', () =>
        world.sandbox.control.withdrawals().some((w) => w.amount === '123.45') ? true : undefined,
      );
      await new Promise((r) => setTimeout(r, 1_500));
      expect(world.sandbox.control.withdrawals().filter((w) => w.amount === '123.45')).toHaveLength(1);
    } finally {
      child.proc.kill('SIGTERM');
      const exit = await child.exited;
      output = child.events.map((e) => JSON.stringify(e)).join('\n') + '\n' + child.stderr();
      expect(exit.code, output.slice(-2_000)).toBe(0);
    }
    // The error paths ran: the exchange's 401 and 500 and the dropped commit, and a refused Slack post.
    const faults = world.sandbox.control.requests().map((r) => `${r.status}:${r.fault ?? ''}`);
    expect(faults).toEqual(expect.arrayContaining(['401:error', '500:error', '0:drop_after_commit']));
    expect(world.fake.calls.some((c) => c.response.ok === false)).toBe(true);
    if (process.env.SECRETS_VERBOSE) console.log(output);
    const files = filesUnder(world.dataDir);
    expect(Object.keys(files).some((f) => f.endsWith('audit.jsonl'))).toBe(true);
    expect(output).toContain('desk bot started');
    expect(stepUpSecrets).toHaveLength(2);
    // The one place a step-up secret is shown: its enrollment modal.
    const enrollmentModal = (c: (typeof world.fake.calls)[number]) =>
      c.method === 'views.update' && (c.args.view as { callback_id?: string }).callback_id === CALLBACK.stepUpEnroll;
    const slackSaid = world.fake.calls
      .filter((c) => !enrollmentModal(c))
      .map((c) => JSON.stringify(c.args))
      .join('\n');
    const found = leaks({ 'process output': output, ...files, 'messages to Slack': slackSaid });
    expect(found).toEqual([]);
    // The logger's last guard should have had nothing to catch either: say so if it did.
    const redactions = (output.match(/\[redacted\]/g) ?? []).length;
    if (redactions > 0)
      console.warn(`secrets: the log redactor replaced ${redactions} value(s); some code path tried to log a secret`);
  }, 40_000);

  it('a start-up that fails on its configuration names the problem, not the secrets (app token included)', async () => {
    const child = startChild(
      world.bundle,
      botEnv({
        SLACK_APP_TOKEN: APP_TOKEN,
        REQUIRED_APPROVALS: '1',
        EXCHANGE_PRIVATE_KEY: `${key.pem}\ngarbage`,
        STEP_UP_ENCRYPTION_KEY: SHORT_STEP_UP_KEY,
      }),
    );
    const exit = await child.exited;
    const output = child.events.map((e) => JSON.stringify(e)).join('\n') + '\n' + child.stderr();
    expect(exit.code).toBe(1);
    expect(output).toMatch(/REQUIRED_APPROVALS/);
    expect(output).toMatch(/STEP_UP_ENCRYPTION_KEY/);
    expect(leaks({ 'process output': output })).toEqual([]);
    expect(output.toLowerCase()).not.toContain(SHORT_STEP_UP_KEY);
  }, 20_000);
});
