/**
 * What the Slack libraries write at LOG_LEVEL=debug (src/bot/slack/shell/library-log.ts): no envelope, no
 * payload, no Socket Mode ticket; their ordinary lines still.
 *
 * The first two tests run a whole Socket Mode session through the real libraries, wired by
 * createSlackApp: apps.connections.open (answered here: the Web API client's fetch is the global
 * one) gives a ws:// URL with a ticket; @slack/socket-mode connects to a loopback stand-in for
 * Slack (support/socket-mode-server.ts), which says hello and sends a view submission carrying a
 * counterparty's legal name, document number and address, and an App Home event, both with a
 * verification token; the app acks (the view with a modal update naming the counterparty), posts
 * a message naming them and publishes the Home tab on the fake Web API. The libraries log every
 * step; the test reads what reached the log.
 */
import { createRequestReads } from '../../../../src/bot/engine/request-reads.js';
import { isFinishedRequest, type RequestRecord } from '../../../../src/bot/domain/record.js';
import { createHomes } from '../../../../src/bot/slack/home/homes.js';
import { memoryKv, memoryRepository } from '../../../../src/bot/store/memory.js';
import { createPolicy } from '../../../../src/bot/domain/policy.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '@slack/bolt';
import { loadConfig } from '../../../../src/bot/config/index.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../../../src/stand-ins/fake-slack/fake-slack-api.js';
import { createLogger } from '../../../../src/bot/runtime/logger.js';
import { createSlackApp } from '../../../../src/bot/slack/shell/slack-app.js';
import type { SlackDeps } from '../../../../src/bot/slack/kit/slack-context.js';
import { guardSlackLogger } from '../../../../src/bot/slack/shell/library-log.js';
import { until } from '../../../support/until.js';
import { startSocketModeServer, type SocketModeServer } from '../support/socket-mode-server.js';

const BOT_TOKEN = 'xoxb-test-000000000-SECRETBOTTOKEN';
const APP_TOKEN = 'xapp-1-A0FAKE001-000000000-SECRETAPPTOKEN';
const TEAM = 'T0FAKE001';
const APP = 'A0FAKE001';
const OUTSIDER = 'U0OUT0001';

// What must never be written.
const LEGAL_NAME = 'Meridian Orchard Holdings Sp. z o.o.';
const DOCUMENT_NUMBER = 'KRS-0000987654';
const ADDRESS = 'ul. Wiśniowa 17/3, 02-520 Warszawa';
const VERIFICATION_TOKEN = 'vErIfIcAtIoNtOkEn4242';
const TICKET = 'f3c9a1de-7b42-4c8e-9d15-ticketsecret';
const SECRETS = [LEGAL_NAME, DOCUMENT_NUMBER, ADDRESS, 'Wiśniowa', VERIFICATION_TOKEN, TICKET];

/** Nothing in these sessions reaches the exchange (the App Home is an outsider's, empty): any call refuses. */
const noExchange = new Proxy(
  {},
  {
    get: (_t, p) =>
      p === 'then' ? undefined : () => Promise.reject(new Error(`exchange ${String(p)}: not in this test`)),
  },
);
const POLICY = createPolicy({ requesters: ['U0REQ0001'], approvers: ['U0APP0001', 'U0APP0002'] });
const CLOCK = { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };
const QUIET = { info: () => {}, warn: () => {}, error: () => {} };
/** The listeners this session reaches: App Home (an outsider's, empty) and the view submission's own handler. */
const DEPS = {
  exchange: noExchange,
  listings: noExchange,
  policy: POLICY,
  clock: CLOCK,
  homes: createHomes({
    reads: createRequestReads({
      requests: memoryRepository<RequestRecord>(isFinishedRequest),
      policy: POLICY,
      clock: CLOCK,
    }),
    policy: POLICY,
    clock: CLOCK,
    sandbox: false,
    logger: QUIET,
    client: { views: { publish: () => Promise.reject(new Error('no refresh in this test')) } },
    kv: memoryKv(),
  }),
} as unknown as SlackDeps;

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  while (cleanup.length > 0) await cleanup.pop()!();
});

function viewSubmission(envelopeId: string): Record<string, unknown> {
  return {
    envelope_id: envelopeId,
    type: 'interactive',
    accepts_response_payload: true,
    payload: {
      type: 'view_submission',
      token: VERIFICATION_TOKEN,
      team: { id: TEAM, domain: 'fake' },
      user: { id: OUTSIDER, team_id: TEAM },
      api_app_id: APP,
      trigger_id: '1111.2222.abcd',
      view: {
        id: 'V0LOG0001',
        team_id: TEAM,
        type: 'modal',
        callback_id: 'library_log_check',
        private_metadata: '',
        hash: '1700000000.abcdef',
        title: { type: 'plain_text', text: 'Counterparty' },
        blocks: [],
        state: {
          values: {
            legal_name: { legal_name: { type: 'plain_text_input', value: LEGAL_NAME } },
            document_number: { document_number: { type: 'plain_text_input', value: DOCUMENT_NUMBER } },
            address: { address: { type: 'plain_text_input', value: ADDRESS } },
          },
        },
      },
      response_urls: [],
    },
  };
}

function homeOpened(envelopeId: string): Record<string, unknown> {
  return {
    envelope_id: envelopeId,
    type: 'events_api',
    accepts_response_payload: false,
    retry_attempt: 0,
    retry_reason: '',
    payload: {
      token: VERIFICATION_TOKEN,
      team_id: TEAM,
      api_app_id: APP,
      type: 'event_callback',
      event_id: 'Ev0LOG0001',
      event_time: 1_700_000_000,
      event: {
        type: 'app_home_opened',
        user: OUTSIDER,
        channel: 'D0LOG0001',
        tab: 'home',
        event_ts: '1700000000.000100',
      },
      authorizations: [{ team_id: TEAM, user_id: 'U0BOT0001', is_bot: true }],
    },
  };
}

/** One Socket Mode session, as the file comment describes. `logger` as given to createSlackApp. */
async function socketModeSession(
  logger: Logger | undefined,
): Promise<{ server: SocketModeServer; fake: FakeSlackApi }> {
  const [server, fake] = await Promise.all([startSocketModeServer(), startFakeSlackApi({ expectedToken: BOT_TOKEN })]);
  cleanup.push(
    () => server.close(),
    () => fake.stop(),
  );
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) =>
    String(input instanceof Request ? input.url : input).endsWith('/apps.connections.open')
      ? Promise.resolve(Response.json({ ok: true, url: `${server.url}/link/?ticket=${TICKET}&app_id=${APP}` }))
      : realFetch(input, init),
  );
  const config = loadConfig({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_APP_TOKEN: APP_TOKEN,
    SLACK_API_URL: fake.apiUrl,
    APPROVAL_CHANNEL_ID: 'C0APPROVE1',
    REQUESTER_USER_IDS: 'U0REQ0001',
    APPROVER_USER_IDS: 'U0APP0001,U0APP0002',
    COMPLIANCE_USER_IDS: 'U0CMP0001',
    LOG_LEVEL: 'debug',
  });
  const slack = createSlackApp({
    config,
    deps: DEPS,
    receiverOptions: { retryConfig: { retries: 0 }, ...(logger ? { logger } : {}) },
  });
  // A submission answered with a modal that names the counterparty, as a form refilled would be.
  slack.app.view('library_log_check', async ({ ack }) => {
    await ack({
      response_action: 'update',
      view: {
        type: 'modal',
        title: { type: 'plain_text', text: 'Counterparty' },
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `${LEGAL_NAME}, ${ADDRESS}` } }],
      },
    });
  });
  await slack.start();
  cleanup.push(() => slack.stop());

  server.send(viewSubmission('env-view-0001'));
  server.send(homeOpened('env-home-0001'));
  await until('both acks', () => (server.received.length >= 2 ? true : undefined));
  await fake.waitFor((c) => c.method === 'views.publish');
  await slack.app.client.chat.postMessage({
    channel: 'C0COMPLY1',
    text: `Declared: ${LEGAL_NAME} (${DOCUMENT_NUMBER})`,
  });
  await slack.stop();
  cleanup.pop();
  return { server, fake };
}

function expectNoSecrets(output: string): void {
  for (const s of SECRETS) expect(output, `"${s}" was written`).not.toContain(s);
  expect(output).not.toMatch(/ws:\/\/127\.0\.0\.1/);
  expect(output).not.toContain('"payload"');
}

/** The session's ordinary debug lines, still written (the payloads withheld). */
const ORDINARY = [
  'Going to retrieve a new WSS URL ...',
  "apiCall('apps.connections.open') start",
  'http request result: [withheld]',
  'Initiating new WebSocket connection.',
  'WebSocket open event received (connection established)!',
  'Received a message on the WebSocket: [withheld]',
  'ack() call begins (body: [withheld])',
  'Calling ack() - type: interactive, envelope_id: env-view-0001, data: [withheld]',
  'Calling ack() - type: events_api, envelope_id: env-home-0001, data: [withheld]',
  'send() method was called (WebSocket state: OPEN)',
  'Sending a WebSocket message: [withheld]',
  'ack() response sent (body: [withheld])',
  "apiCall('views.publish') end",
  'http request body: [withheld]',
  "apiCall('chat.postMessage') end",
  'Manually disconnecting this Socket Mode client',
];

describe('Slack library logs at LOG_LEVEL=debug', () => {
  it('carry no envelope, payload or ticket through the process logger, and keep their ordinary lines', async () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'debug',
      secrets: [BOT_TOKEN, APP_TOKEN],
      write: (l) => void lines.push(l),
      name: 'slack',
    });
    const { server } = await socketModeSession(logger.bolt());

    // The session really carried the data: the ack Slack got names the counterparty.
    expect(JSON.stringify(server.received)).toContain(LEGAL_NAME);
    const output = lines.join('\n');
    expectNoSecrets(output);
    const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    for (const line of ORDINARY) expect(messages, line).toContain(line);
    expect(output).not.toContain('[redacted]');
  });

  it('carry none either when createSlackApp is given no logger (no console logger of Bolt’s own)', async () => {
    const written: string[] = [];
    for (const m of ['debug', 'info', 'warn', 'error', 'log'] as const)
      vi.spyOn(console, m).mockImplementation((...a: unknown[]) => void written.push(a.map(String).join(' ')));
    await socketModeSession(undefined);

    const output = written.join('\n');
    expectNoSecrets(output);
    expect(output).toContain('[DEBUG] slack Received a message on the WebSocket: [withheld]');
    expect(output).toContain("[DEBUG] slack apiCall('apps.connections.open') end");
  });

  describe('lines the session above does not produce, in the libraries’ formats', () => {
    function guarded() {
      const lines: string[] = [];
      const logger = guardSlackLogger(
        createLogger({ level: 'debug', secrets: [], write: (l) => void lines.push(l) }).bolt(),
      );
      return { logger, msgs: () => lines.map((l) => (JSON.parse(l) as { msg: string }).msg) };
    }
    const body = JSON.stringify({
      response_action: 'update',
      view: { blocks: [{ type: 'section', text: { type: 'mrkdwn', text: LEGAL_NAME } }] },
    });
    const envelope = JSON.stringify(viewSubmission('env-x'));

    it('withholds payloads and drops debug lines of unknown format', () => {
      const { logger, msgs } = guarded();
      // @slack/bolt dist/App.js processEvent, developerMode: `this.logger.debug(JSON.stringify(body))`.
      logger.debug(JSON.stringify((viewSubmission('env-x') as { payload: unknown }).payload));
      // @slack/bolt dist/App.js, developer mode OAuth failure: `this.logger.debug(error)`.
      logger.debug({ error: LEGAL_NAME });
      // @slack/socket-mode dist/src/SocketModeClient.js onWebSocketMessage, unparsable message.
      logger.debug(
        `Unable to parse an incoming WebSocket message (will ignore): SyntaxError: Unexpected token in JSON, ${envelope}`,
      );
      // @slack/bolt dist/receivers/HTTPResponseAck.js bind() (HTTP mode).
      logger.debug(`ack() call begins (body: ${body})`);
      logger.debug(`ack() response sent (body: ${body})`);
      // @slack/bolt dist/receivers/HTTPModuleFunctions.js defaultProcessEventErrorHandler.
      logger.debug(`Error details: Error: listener failed, storedResponse: ${body}`);
      logger.debug('Error details: Error: listener failed, retry num: 1, retry reason: timeout');
      // @slack/web-api dist/WebClient.js apiCall, with a result quoting a ticket URL.
      logger.debug(
        `http request result: {"ok":true,"url":"wss://wss-primary.slack.com/link/?ticket=${TICKET}&app_id=${APP}"}`,
      );
      // Ordinary lines: @slack/socket-mode dist/src/SlackWebSocket.js, @slack/web-api dist/WebClient.js.
      logger.debug('WebSocket close frame received (code: 1000, reason: )');
      logger.debug("apiCall('conversations.open') start");

      expect(msgs()).toEqual([
        'Unable to parse an incoming WebSocket message (will ignore): [withheld]',
        'ack() call begins (body: [withheld])',
        'ack() response sent (body: [withheld])',
        'Error details: Error: listener failed, storedResponse: [withheld]',
        'Error details: Error: listener failed, retry num: 1, retry reason: timeout',
        'http request result: [withheld]',
        'WebSocket close frame received (code: 1000, reason: )',
        "apiCall('conversations.open') start",
      ]);
    });

    it('removes Socket Mode URLs and tickets from lines of every level', () => {
      const { logger, msgs } = guarded();
      // @slack/socket-mode dist/src/SocketModeClient.js retrieveWSSURL and SlackWebSocket.js (errors).
      logger.error(
        `Failed to retrieve a new WSS URL (error: Error: could not reach wss://wss-primary.slack.com/link/?ticket=${TICKET}&app_id=${APP})`,
      );
      logger.warn('http request failed', `redirect to https://slack.com/link?ticket=${TICKET}`);
      logger.info('API Call failed due to rate limiting. Will retry in 3 seconds.');
      expect(msgs()).toEqual([
        'Failed to retrieve a new WSS URL (error: Error: could not reach wss://[withheld])',
        'http request failed redirect to https://slack.com/link?ticket=[withheld]',
        'API Call failed due to rate limiting. Will retry in 3 seconds.',
      ]);
    });

    it('keeps LOG_LEVEL when a library sets another level', () => {
      const { logger, msgs } = guarded();
      logger.setLevel('error' as never);
      logger.debug('http response received');
      expect(msgs()).toEqual(['http response received']);
      expect(logger.getLevel()).toBe('debug');
    });
  });
});
