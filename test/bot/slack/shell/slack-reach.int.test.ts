/**
 * How the running bot reaches Slack (slack-transport.ts), over real HTTP: through HTTPS_PROXY when
 * it is set (every Web API call tunnels through it), and when Slack cannot be reached at start, one
 * sentence saying what was tried and how, /readyz failing (naming it) until Slack answers, then a
 * line saying it did.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src/bot/config/index.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../../../src/stand-ins/fake-slack/fake-slack-api.js';
import { runBot, type RunningBot } from '../../../../src/bot/runtime/run-bot.js';
import { startConnectProxy } from '../../../support/connect-proxy.js';
import { freePort } from '../../../support/free-port.js';
import { BOT_TOKEN, slackEnv } from '../support/harness.js';
import { startSandbox } from '../../../../src/stand-ins/sandbox/index.js';

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

/** The bot on the embedded sandbox, talking to `fake` with `env` added; its log lines are collected. */
function startBot(fake: FakeSlackApi, env: Record<string, string>, logs: string[]): Promise<RunningBot> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reach-'));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    ...slackEnv(fake.apiUrl),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...env,
  });
  const starting = runBot(config, {
    startSandbox,
    // Bolt's own retries of auth.test, every 30 ms instead of over half an hour.
    receiverOptions: {
      port: 0,
      host: '127.0.0.1',
      retryConfig: { retries: 1_000, factor: 1, minTimeout: 30, maxTimeout: 30 },
    },
    shutdownGraceMs: 300,
    logWrite: (line) => void logs.push(line),
  });
  cleanup.push(() => starting.then((d) => d.stop()).catch(() => undefined));
  return starting;
}

describe('reaching Slack', () => {
  it('goes through HTTPS_PROXY when it is set: every Web API call tunnels through the proxy', async () => {
    const fake = await startFakeSlackApi({ expectedToken: BOT_TOKEN });
    cleanup.push(() => fake.stop());
    const proxy = await startConnectProxy();
    cleanup.push(() => proxy.close());
    await startBot(fake, { HTTPS_PROXY: proxy.url }, []);
    const fakeHost = new URL(fake.apiUrl).host;
    expect(fake.callsTo('auth.test').length).toBeGreaterThan(0);
    expect(proxy.tunnels).toContain(fakeHost);
    expect(new Set(proxy.tunnels)).toEqual(new Set([fakeHost]));
  });

  it('says once what could not be reached and how, keeps /readyz failing, and says when Slack answered', async () => {
    const fake = await startFakeSlackApi({ expectedToken: BOT_TOKEN });
    cleanup.push(() => fake.stop());
    const [proxyPort, healthPort] = [await freePort(), await freePort()];
    const logs: string[] = [];
    const starting = startBot(
      fake,
      { HTTPS_PROXY: `http://desk:proxy-password-0001@127.0.0.1:${proxyPort}`, HEALTH_PORT: String(healthPort) },
      logs,
    );

    const readyz = async () => {
      const res = await fetch(`http://127.0.0.1:${healthPort}/readyz`).catch(() => undefined);
      return res ? ((await res.json()) as { ready: boolean; checks: { slack: { detail: string } } }) : undefined;
    };
    await expect
      .poll(async () => (await readyz())?.checks.slack.detail, { timeout: 5_000 })
      .toContain('Slack could not be reached');
    // Many retries later, still one sentence.
    await new Promise((r) => setTimeout(r, 300));
    const said = logs.filter((l) => l.includes('Slack could not be reached'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(
      `Slack could not be reached: ${fake.apiUrl} through the proxy 127.0.0.1:${proxyPort} (HTTPS_PROXY) failed (ECONNREFUSED)`,
    );
    expect(logs.join('\n')).not.toContain('proxy-password-0001');
    expect((await readyz())?.ready).toBe(false);

    // The proxy comes up: the start completes and Slack is said to answer again.
    const proxy = await startConnectProxy(proxyPort);
    cleanup.push(() => proxy.close());
    const desk = await starting;
    expect(desk.port).toBeGreaterThan(0);
    expect(logs.some((l) => l.includes('Slack answered again'))).toBe(true);
    await expect
      .poll(async () => (await readyz())?.checks.slack.detail, { timeout: 5_000 })
      .toContain('auth.test succeeded');
  });
});
