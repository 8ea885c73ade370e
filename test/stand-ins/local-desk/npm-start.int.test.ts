/**
 * `npm start` with nothing configured, as a process (src/main.ts, run from source as `npm run dev`
 * does): the local desk's address is the first line it prints, and the page is served there, on
 * 127.0.0.1 at PORT. With a Slack token configured, the desk is never served.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../../../src/stand-ins/local-desk/protocol.js';
import { startFakeSlackApi } from '../../../src/stand-ins/fake-slack/fake-slack-api.js';
import { freePort, startBotProcess } from './support/bot-process.js';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step();
});

/** Runs main.ts with `env` on a data folder of its own, removed after the test. */
function runMain(env: Record<string, string>, until: (line: string) => boolean, args: string[] = []) {
  const dataDir = mkdtempSync(join(tmpdir(), 'npm-start-'));
  const run = startBotProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env }, until, args);
  cleanup.push(() => {
    run.proc.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });
  return run;
}

describe('npm start', () => {
  it('with nothing configured: prints the local desk address first and serves the page there', async () => {
    const port = await freePort();
    const run = runMain({ PORT: String(port) }, (l) => l.includes('/slack/events'));
    const lines = await run.ready;
    expect(lines[0]).toBe(
      `Local desk: http://127.0.0.1:${port}/  (open it in a browser: be the trader, an approver, compliance or an outsider)`,
    );
    const page = await fetch(`http://127.0.0.1:${port}${ROUTES.page}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app"></div>');
    run.proc.kill('SIGTERM');
    await run.exited;
  });

  it('with a Slack token configured: no local desk', async () => {
    const port = await freePort();
    // The bot checks its token with auth.test before it listens: a Slack stand-in answers it.
    const slack = await startFakeSlackApi({ expectedToken: 'xoxb-test-not-real' });
    const run = runMain(
      {
        PORT: String(port),
        SLACK_BOT_TOKEN: 'xoxb-test-not-real',
        SLACK_SIGNING_SECRET: 'a'.repeat(32),
        APPROVAL_CHANNEL_ID: 'C0TEST0001',
        REQUESTER_USER_IDS: 'U0TEST0001',
        APPROVER_USER_IDS: 'U0TEST0002,U0TEST0003',
        SLACK_API_URL: slack.apiUrl,
        LOG_LEVEL: 'info',
      },
      (l) => l.includes('desk bot started'),
    );
    const lines = await run.ready;
    expect(lines.join('\n')).not.toContain('Local desk');
    // The bot itself has PORT: no page there.
    const page = await fetch(`http://127.0.0.1:${port}${ROUTES.page}`).catch(() => undefined);
    expect(page?.status).not.toBe(200);
    run.proc.kill('SIGTERM');
    await run.exited;
    await slack.stop();
  });

  it('--fresh outside the preview is refused: it would erase real requests', async () => {
    const run = runMain({ PORT: String(await freePort()), SLACK_BOT_TOKEN: 'xoxb-test-not-real' }, () => false, [
      '--fresh',
    ]);
    expect(await run.exited).toBe(1);
    expect(run.stderr.join('')).toContain('--fresh starts the local preview over');
  });
});
