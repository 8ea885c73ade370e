/**
 * The running bot's operations endpoints (runBot, configured by its environment, against the
 * sandbox as a remote exchange and the fake Slack API), over real HTTP:
 * - HTTP mode: on HEALTH_PORT (loopback by default), never on PORT beside /slack/events; ready
 *   soon after start because the bot asks a quiet exchange itself (the probe) and auth.test
 *   passed; the process metrics and the status polling's lag are there; the health port closes
 *   on stop;
 * - until Slack has accepted the bot token (auth.test, which the start waits for), /readyz on
 *   HEALTH_PORT answers 503 naming Slack; a token Slack refuses stops the start with Slack's
 *   reason, never the token, and the health port closes;
 * - Socket Mode: served on HEALTH_PORT only (no PORT), with the acks of envelopes measured.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/bot/config/index.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../../src/stand-ins/fake-slack/fake-slack-api.js';
import { SCOPES } from '../../../src/bot/exchange/assumptions.js';
import { runBot, type RunningBot } from '../../../src/bot/runtime/run-bot.js';
import { startSandbox } from '../../../src/stand-ins/sandbox/index.js';
import { makeKey } from '../../stand-ins/sandbox/support/sign.js';
import { freePort } from '../../support/free-port.js';
import { BOT_TOKEN, SIGNING_SECRET, slackEnv } from '../slack/support/harness.js';
import { startSocketModeServer } from '../slack/support/socket-mode-server.js';
import { parseExposition } from './support/prometheus-text.js';

const APP_TOKEN = 'xapp-1-A0FAKE001-000000000-SECRETAPPTOKEN';

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  vi.unstubAllGlobals();
  while (cleanup.length > 0) await cleanup.pop()!();
});

interface Started {
  desk: RunningBot;
  fake: FakeSlackApi;
  key: ReturnType<typeof makeKey>;
}

/**
 * The bot on a fresh sandbox and fake Slack; `env` adds to (or overrides) its environment. The
 * fake expects `slack.token` (default the bot's) and answers after `slack.delayMs`.
 */
async function startBot(
  env: Record<string, string> = {},
  slack: { token?: string; delayMs?: number } = {},
): Promise<Started> {
  const key = makeKey();
  const fake = await startFakeSlackApi({
    expectedToken: slack.token ?? BOT_TOKEN,
    ...(slack.delayMs ? { delayMs: slack.delayMs } : {}),
  });
  cleanup.push(() => fake.stop());
  const sandbox = await startSandbox({ seed: 'ops', keys: [{ publicKeyHex: key.compressedHex, scopes: [...SCOPES] }] });
  cleanup.push(() => sandbox.close());
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-'));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    ...slackEnv(fake.apiUrl),
    EXCHANGE_BASE_URL: sandbox.url,
    EXCHANGE_PRIVATE_KEY: key.privateKeyHex,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    ...env,
  });
  const desk = await runBot(config, {
    startSandbox,
    receiverOptions: { port: 0, retryConfig: { retries: 0 } },
    shutdownGraceMs: 300,
    logWrite: () => {},
  });
  let stopped = false;
  cleanup.push(() => (stopped ? undefined : desk.stop()));
  const stop = desk.stop.bind(desk);
  desk.stop = async () => {
    stopped = true;
    await stop();
  };
  return { desk, fake, key };
}

async function get(port: number, path: string, init: RequestInit = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, init);
  return { status: res.status, text: await res.text() };
}

/** GETs `path` every 20 ms (nothing listening yet counts as not yet) until `done` holds of the answer; returns that answer. */
async function poll(
  port: number,
  path: string,
  done: (a: { status: number; text: string }) => boolean,
  timeoutMs = 5_000,
): Promise<{ status: number; text: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await get(port, path).catch(() => undefined);
    if (answer !== undefined && done(answer)) return answer;
    if (Date.now() > deadline)
      throw new Error(`${path} never as expected; last ${answer ? `${answer.status} ${answer.text}` : 'no answer'}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the running bot in HTTP mode', () => {
  it('serves the endpoints on HEALTH_PORT only, ready once auth.test passed and its own probe reached the exchange', async () => {
    const { desk } = await startBot({ HEALTH_PORT: '0' });
    const port = desk.port!;
    const healthPort = desk.healthPort!;
    expect(healthPort).not.toBe(port);

    const ready = await poll(healthPort, '/readyz', (a) => a.status === 200);
    expect(JSON.parse(ready.text)).toMatchObject({ ready: true, role: 'leader', failing: [] });
    expect(await get(healthPort, '/healthz')).toEqual({ status: 200, text: '{"status":"ok"}' });
    // The port Slack reaches serves /slack/events alone.
    for (const path of ['/healthz', '/readyz', '/metrics']) expect((await get(port, path)).status).toBe(404);

    const m = parseExposition((await get(healthPort, '/metrics')).text);
    // Nothing but the probe reads the exchange on an idle start.
    expect(
      m.value('desk_exchange_request_duration_seconds_count', { operation: 'GET /accounts/balances', status: '200' }),
    ).toBe(1);
    expect(m.value('desk_polling_lag_seconds', { loop: 'status' })).toBeLessThan(5);
    expect(m.find('desk_polling_lag_seconds', { loop: 'deposits' })).toEqual([]);
    expect(m.value('desk_leader')).toBe(1);
    expect(m.value('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(m.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');

    expect((await get(healthPort, '/slack/events')).status).toBe(404);
    expect((await get(healthPort, '/readyz', { method: 'POST' })).status).toBe(405);
    expect((await get(port, '/nothing-here')).status).toBe(404);

    await desk.stop();
    await expect(fetch(`http://127.0.0.1:${healthPort}/healthz`)).rejects.toThrow();
  });

  it('is not ready on HEALTH_PORT until Slack has accepted the bot token', async () => {
    const healthPort = await freePort();
    // Slack answers after 1 s: the start waits that long for auth.test.
    const starting = startBot({ HEALTH_PORT: String(healthPort) }, { delayMs: 1_000 });
    cleanup.push(() => starting.catch(() => undefined));
    const waiting = await poll(healthPort, '/readyz', (a) => a.status === 503);
    const body = JSON.parse(waiting.text) as {
      ready: boolean;
      failing: string[];
      checks: Record<string, { ok: boolean; detail: string }>;
    };
    expect(body.failing).toContain('slack');
    expect(body.checks.slack).toEqual({ ok: false, detail: expect.stringContaining('auth.test') });
    for (const secret of [BOT_TOKEN, SIGNING_SECRET]) expect(waiting.text).not.toContain(secret);
    await starting;
    expect(JSON.parse((await poll(healthPort, '/readyz', (a) => a.status === 200, 10_000)).text).checks.slack.ok).toBe(
      true,
    );
  });

  it('does not start on a bot token Slack refuses, says why without the token, and closes the health port', async () => {
    const healthPort = await freePort();
    const refused = await startBot(
      { HEALTH_PORT: String(healthPort) },
      { token: 'xoxb-test-000000000-ANOTHERBOTTOKEN' },
    ).then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    expect(refused?.message).toMatch(/invalid_auth/);
    expect(String(refused?.stack)).not.toContain(BOT_TOKEN);
    await expect(fetch(`http://127.0.0.1:${healthPort}/healthz`)).rejects.toThrow();
  });
});

describe('the running bot in Socket Mode', () => {
  it('serves the endpoints on HEALTH_PORT and measures the acks of envelopes', async () => {
    const server = await startSocketModeServer();
    cleanup.push(() => server.close());
    const realFetch = globalThis.fetch;
    // apps.connections.open (the app token's call) answers with the loopback socket; the rest is real.
    vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) =>
      String(input instanceof Request ? input.url : input).endsWith('/apps.connections.open')
        ? Promise.resolve(Response.json({ ok: true, url: `${server.url}/link/?ticket=t&app_id=A0FAKE001` }))
        : realFetch(input, init),
    );
    const { desk } = await startBot({ SLACK_APP_TOKEN: APP_TOKEN, SLACK_SIGNING_SECRET: '', HEALTH_PORT: '0' });
    expect(desk.port).toBeUndefined();
    const healthPort = desk.healthPort!;

    expect(await get(healthPort, '/healthz')).toEqual({ status: 200, text: '{"status":"ok"}' });
    await poll(healthPort, '/readyz', (a) => a.status === 200);

    server.send({
      envelope_id: 'env-ops-0001',
      type: 'events_api',
      accepts_response_payload: false,
      payload: {
        team_id: 'T0FAKE001',
        api_app_id: 'A0FAKE001',
        type: 'event_callback',
        event_id: 'Ev0OPS0001',
        event_time: 1_700_000_000,
        event: {
          type: 'app_home_opened',
          user: 'U0OUT0001',
          channel: 'D0OPS0001',
          tab: 'home',
          event_ts: '1700000000.000100',
        },
      },
    });
    const acked = await poll(
      healthPort,
      '/metrics',
      (a) => parseExposition(a.text).value('desk_slack_ack_duration_seconds_count') === 1,
    );
    expect(server.received.map((r) => r.envelope_id)).toContain('env-ops-0001');
    expect(parseExposition(acked.text).value('desk_slack_ack_duration_seconds_bucket', { le: '3' })).toBe(1);
    expect(acked.text).not.toContain(APP_TOKEN);

    // The socket dropped: Slack cannot hand this replica an event, so it is not ready until the
    // client has reconnected on its own (Slack's hello on the new socket).
    server.dropConnections();
    const down = await poll(healthPort, '/readyz', (a) => a.status === 503);
    expect((JSON.parse(down.text) as { failing: string[] }).failing).toEqual(['slack']);
    await poll(healthPort, '/readyz', (a) => a.status === 200, 15_000);
  }, 30_000);
});
