/**
 * The local desk restarted mid-request, in a real browser (Debian's Chromium), as a person does it:
 * `npm start` as a process (src/main.ts), a 0.07 BTC withdrawal asked for in the page, one
 * approval, Ctrl-C (SIGINT), `npm start` again on the same data; the page, left open on the same
 * address, shows the request as it was; the second approval sends it; Ctrl-C and start again while
 * the exchange works on it; the thread and App Home continue, and moving the sandbox's time on
 * completes it, with nothing the page cannot draw (issue 21, section 1).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { LABELS } from '../../src/stand-ins/local-desk/protocol.js';
import { PREVIEW_PEOPLE } from '../../src/stand-ins/preview/preview-cast.js';
import { freePort, startBotProcess, type BotProcess } from '../stand-ins/local-desk/support/bot-process.js';
import { launchChromium, noBrowserReason } from './support/chromium.js';
import { localDeskPage } from './support/desk-page.js';

const person = (role: string, n = 0) => PREVIEW_PEOPLE.filter((p) => p.role === role)[n]!;
const TARA = person('trader');
const ANA = person('approver', 0);
const BEN = person('approver', 1);
const WITHDRAWAL = 'Crypto withdrawal · 0.07 BTC to Treasury cold storage';

describe.skipIf(noBrowserReason !== undefined)(
  `npm start, stopped and started again mid-request, in Chromium${noBrowserReason ? ` (skipped: ${noBrowserReason})` : ''}`,
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'desk-restart-browser-'));
    let port: number;
    let run: BotProcess | undefined;
    let browser: Browser;
    let page: Page;
    const ui = () => localDeskPage(page);
    const undrawn = () => page.getByText(/^Not drawn here/);

    /** `npm start` on the same data and port; resolves once the bot takes requests. */
    async function npmStart(): Promise<void> {
      run = startBotProcess({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' }, (line) =>
        line.includes('/slack/events'),
      );
      const lines = await run.ready;
      if (!lines.some((l) => l.includes('/slack/events')))
        throw new Error(`npm start did not come up:\n${lines.join('\n')}\n${run.stderr.join('')}`);
    }

    /** Ctrl-C: the process stops cleanly. */
    async function ctrlC(): Promise<void> {
      const code = await run!.stop('SIGINT');
      expect(code).toBe(0);
      run = undefined;
    }

    /** The page, left open, is loaded again from the new process, as the same person. */
    async function pageBack(who: { name: string }): Promise<void> {
      await page.reload();
      await page.getByRole('banner').getByText(who.name).waitFor();
    }

    beforeAll(async () => {
      port = await freePort();
      [browser] = await Promise.all([launchChromium(), npmStart()]);
      page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      page.setDefaultTimeout(10_000);
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await run?.stop('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('first run: the trader asks for 0.07 BTC; Ana approves; Ctrl-C', async () => {
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.getByRole('banner').getByText(TARA.name).waitFor();
      await ui().askWithdrawal('0.07', 'Before the restart');
      await ui().actAs(ANA);
      await ui().openChannel('#desk-approvals');
      await ui().approve(ui().request(WITHDRAWAL));
      await ui()
        .request(WITHDRAWAL)
        .getByText(`Needs 2 of treasury (1 so far: @${ANA.name})`, { exact: false })
        .waitFor();
      await ctrlC();
    }, 60_000);

    it('second run: the request is there with its approval; Ben approves and it is sent; Ctrl-C while the exchange works on it', async () => {
      await npmStart();
      await pageBack(ANA);
      await ui().actAs(BEN);
      await ui().openChannel('#desk-approvals');
      await ui()
        .request(WITHDRAWAL)
        .getByText(`Needs 2 of treasury (1 so far: @${ANA.name})`, { exact: false })
        .waitFor();
      await ui().approve(ui().request(WITHDRAWAL));
      await ui().request(WITHDRAWAL).getByText(`Approved by @${ANA.name} and @${BEN.name}`).waitFor();
      await ui()
        .request(WITHDRAWAL)
        .getByRole('button', { name: /^\d+ repl(y|ies)$/ })
        .click();
      await ui()
        .thread()
        .getByText(/^📤 Sent to the exchange as /)
        .waitFor();
      expect(await undrawn().count()).toBe(0);
      await ctrlC();
    }, 60_000);

    it('third run: the thread and App Home continue, and the withdrawal completes as the sandbox time moves on', async () => {
      await npmStart();
      await pageBack(BEN);
      await ui().actAs(TARA);
      await ui().openChannel(LABELS.home);
      const home = page.getByRole('main');
      await home.getByRole('heading', { name: 'Your open requests (1)' }).waitFor();
      await ui().openChannel('#desk-approvals');
      await ui().request(WITHDRAWAL).getByText(`Approved by @${ANA.name} and @${BEN.name}`).waitFor();
      await ui()
        .request(WITHDRAWAL)
        .getByRole('button', { name: /^\d+ repl(y|ies)$/ })
        .click();
      await ui()
        .thread()
        .getByText(/^📤 Sent to the exchange as /)
        .waitFor();

      await ui().moveTimeOn('+10 min');
      await ui()
        .thread()
        .getByText(/^✅ Completed\./)
        .waitFor({ timeout: 15_000 });
      await ui().openChannel(LABELS.home);
      await home.getByRole('heading', { name: 'Your open requests (0)' }).waitFor();
      expect(await undrawn().count()).toBe(0);
      await ctrlC();
    }, 60_000);
  },
);
