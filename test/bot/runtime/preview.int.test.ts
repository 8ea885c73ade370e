/**
 * `npm start` with nothing configured (the local preview): everything it runs listens on
 * 127.0.0.1 only, and the bot answers there (src/stand-ins/preview/preview.ts, src/main.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/bot/config/index.js';
import { LOOPBACK, startPreview, wantsPreview } from '../../../src/stand-ins/preview/preview.js';
import { runBot } from '../../../src/bot/runtime/run-bot.js';
import { startSandbox } from '../../../src/stand-ins/sandbox/index.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup.length = 0;
});

describe('the local preview', () => {
  it('runs the bot, the Slack stand-in and the sandbox on 127.0.0.1 only', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'preview-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    expect(wantsPreview({})).toBe(true);
    const preview = await startPreview({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'error' });
    cleanup.push(() => preview.close());
    const desk = await runBot(loadConfig(preview.env), { startSandbox, ...preview.runOptions, logWrite: () => {} });
    cleanup.push(() => desk.stop());
    expect(desk.host).toBe(LOOPBACK);
    expect(new URL(preview.slack.apiUrl).hostname).toBe(LOOPBACK);
    expect(new URL(desk.sandbox!.url).hostname).toBe(LOOPBACK);
    // It answers there (an unsigned request is refused by the signature check, which proves the bot took it).
    const res = await fetch(`http://${LOOPBACK}:${desk.port}/slack/events`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
  });
});
