/**
 * The desk's story in a real browser (Debian's Chromium) against the real preview desk, as `npm
 * start` runs it with nothing configured: the real bot through its real HTTP receiver, the Slack
 * stand-in, the embedded sandbox exchange. Everything happens by what a person does in the page
 * (typing, choosing, clicking, switching person, the sandbox panel) and every step checks what the
 * page shows, found by role and accessible name. Screenshots of each main screen go to
 * test-artifacts/desk-story/; with UPDATE_DOCS_SCREENSHOT=1 the approval channel's is also written
 * to docs/local-desk.png (the README's).
 */
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { LABELS } from '../../src/stand-ins/local-desk/protocol.js';
import { PREVIEW_PEOPLE } from '../../src/stand-ins/preview/preview-cast.js';
import { REFUSAL_MESSAGES } from '../../src/bot/domain/refusals.js';
import { launchChromium, noBrowserReason } from './support/chromium.js';
import { localDeskPage, literal } from './support/desk-page.js';
import { startTestLocalDesk, type TestLocalDesk } from '../stand-ins/local-desk/support/desk.js';

const ARTIFACTS = 'test-artifacts/desk-story';
const DOCS_SCREENSHOT = 'docs/local-desk.png';
const VIEWPORT = { width: 1280, height: 800 };

const person = (role: string, n = 0) => PREVIEW_PEOPLE.filter((p) => p.role === role)[n]!;
const TARA = person('trader');
const ANA = person('approver', 0);
const BEN = person('approver', 1);
const CLEO = person('compliance');
const OTTO = person('outsider');

const WITHDRAWAL = 'Crypto withdrawal · 0.05 BTC to Treasury cold storage';
/** The local desk's policy file refuses an outsider in its own words. */
const NOT_IN_TREASURY = 'You are not in treasury, so your approval cannot count for this request.';
const TRADE = 'Trade · Buy 0.1 BTC with USD';
const REJECTED = 'Crypto withdrawal · 0.01 BTC to Treasury cold storage';

describe.skipIf(noBrowserReason !== undefined)(
  `the desk's story in Chromium, against the real preview desk${noBrowserReason ? ` (skipped: ${noBrowserReason})` : ''}`,
  () => {
    let desk: TestLocalDesk;
    let browser: Browser;
    let page: Page;

    beforeAll(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      [desk, browser] = await Promise.all([startTestLocalDesk(), launchChromium()]);
      page = await browser.newPage({ viewport: VIEWPORT });
      page.setDefaultTimeout(8_000);
    }, 30_000);
    afterAll(async () => {
      await browser?.close();
      await desk?.stop();
    });

    // ---- what a person finds on the page (support/desk-page.ts) -----------------------------------

    const ui = () => localDeskPage(page);
    const openChannel = (name: string) => ui().openChannel(name);
    const log = (name: string) => ui().log(name);
    const panel = () => ui().panel();
    const thread = () => ui().thread();
    const request = (headline: string) => ui().request(headline);
    const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}/${name}.png` });
    const actAs = (who: { name: string; role: string }) => ui().actAs(who);
    const approve = (message: Locator) => ui().approve(message);
    const type = (channel: string, line: string) => ui().type(channel, line);
    const moveTimeOn = (step: string) => ui().moveTimeOn(step);

    /** A USD price in a request's message after `label` (a pattern): as shown ("65,012.9") and as a decimal ("65012.9"). */
    async function priceField(message: Locator, label: string): Promise<{ shown: string; value: string }> {
      const text = await message.innerText();
      const shown = new RegExp(`${label}\\s+([\\d,.]+) USD`).exec(text)?.[1];
      if (!shown) throw new Error(`no ${label} in the message:\n${text}`);
      return { shown, value: shown.replaceAll(',', '') };
    }

    const askWithdrawal = (amount: string, note: string, filled?: () => Promise<unknown>) =>
      ui().askWithdrawal(amount, note, filled);

    // ---- the story ------------------------------------------------------------------------------------

    it('the trader opens the printed address and asks for a withdrawal from the message box', async () => {
      await page.goto(desk.localDesk.url);
      await page.getByRole('banner').getByText(TARA.name).waitFor();
      await log('#desk').waitFor();
      await shot('01-desk');

      await askWithdrawal('0.05', 'Sweep to cold storage before the weekend', () => shot('02-withdrawal-form'));
      // Slack does not show a slash command in the channel; the local desk does, to the one who typed it.
      await log('#desk').getByRole('article').filter({ hasText: '/withdraw crypto' }).waitFor();
      await openChannel('#desk-approvals');
      const asked = request(WITHDRAWAL);
      await asked.getByText('Needs 2 of treasury', { exact: false }).waitFor();
      expect(await asked.innerText()).toMatch(
        /Note from the requester, as typed\n+│ Sweep to cold storage before the weekend/,
      );
    }, 20_000);

    it("an outsider's and the trader's own Approve are refused with the bot's words, each to them alone", async () => {
      await actAs(OTTO);
      await approve(request(WITHDRAWAL));
      const refusedOtto = log('#desk-approvals').getByRole('article').filter({ hasText: NOT_IN_TREASURY });
      await refusedOtto.waitFor();
      expect(await refusedOtto.innerText()).toContain(LABELS.onlyVisibleToYou);

      await actAs(TARA);
      await approve(request(WITHDRAWAL));
      const refusedTara = log('#desk-approvals').getByRole('article').filter({ hasText: REFUSAL_MESSAGES.own_request });
      await refusedTara.waitFor();
      expect(await refusedTara.innerText()).toContain(LABELS.onlyVisibleToYou);
      // Otto's refusal was his alone.
      expect(await log('#desk-approvals').getByText(NOT_IN_TREASURY).count()).toBe(0);
      await request(WITHDRAWAL).getByText('Needs 2 of treasury', { exact: false }).waitFor();
      await shot('03-own-approval-refused');
    });

    it('two approvers approve, and the thread follows the withdrawal to completed with the explorer link as the sandbox time moves on', async () => {
      await actAs(ANA);
      expect(await log('#desk-approvals').getByText(REFUSAL_MESSAGES.own_request).count()).toBe(0);
      await approve(request(WITHDRAWAL));
      await request(WITHDRAWAL).getByText(`Needs 2 of treasury (1 so far: @${ANA.name})`, { exact: false }).waitFor();
      await shot('04-approval-channel');

      await actAs(BEN);
      await approve(request(WITHDRAWAL));
      await request(WITHDRAWAL).getByText(`Approved by @${ANA.name} and @${BEN.name}`).waitFor();
      await request(WITHDRAWAL)
        .getByRole('button', { name: /^\d+ repl(y|ies)$/ })
        .click();
      await thread()
        .getByText(/^📤 Sent to the exchange as /)
        .waitFor();

      await moveTimeOn('+1 min');
      await thread()
        .getByText(/^✅ Completed\./)
        .waitFor({ timeout: 10_000 });
      const explorer = thread().getByRole('link', { name: 'View on the explorer' });
      expect(await explorer.getAttribute('href')).toMatch(/^https:\/\//);
      await explorer.scrollIntoViewIfNeeded();
      await shot('05-withdrawal-completed');
      await thread().getByRole('button', { name: 'Close thread' }).click();
    }, 30_000);

    it('a trade whose quote runs out between the approvals is re-quoted within the limit and fills', async () => {
      await actAs(TARA);
      await openChannel('#desk');
      await type('#desk', '/trade BTC-USD');
      const form = page.getByRole('dialog', { name: 'Trade' });
      // As a new trader does: the quantity, then the slippage; the quote comes without "Get a quote".
      await form.getByRole('textbox', { name: 'Quantity', exact: true }).fill('0.1');
      await form.getByRole('textbox', { name: 'Or slippage from the indicative price, in %' }).fill('0.5');
      await form.getByText(/^Indicative: buy 0\.1 BTC of BTC-USD at [\d,.]+ USD$/).waitFor();
      await shot('06-trade-form');
      await form.getByRole('button', { name: 'Ask for approval' }).click();
      await page
        .getByRole('dialog', { name: 'Trade' })
        .getByText(/is waiting for approval/)
        .waitFor();
      await page.getByRole('dialog', { name: 'Trade' }).getByRole('button', { name: 'Close' }).click();

      await actAs(ANA);
      await openChannel('#desk-approvals');
      await approve(request(TRADE));
      await request(TRADE).getByText(`Needs 2 of treasury (1 so far: @${ANA.name})`, { exact: false }).waitFor();
      await shot('07-trade-one-approval');
      // The README's picture: the approval channel with a request half approved, as an approver sees it.
      if (process.env.UPDATE_DOCS_SCREENSHOT === '1') await page.screenshot({ path: DOCS_SCREENSHOT });
      const indicative = await priceField(request(TRADE), 'Indicative price');
      const limit = await priceField(request(TRADE), 'Worst acceptable price\\s+at most');

      // Ben gets to it later: the approvers' quote has run out. The market is where the quote was.
      await moveTimeOn('+1 min');
      await panel().getByLabel('Price of').selectOption('BTC-USD');
      await panel().getByLabel('New price').fill(indicative.value);
      await panel().getByRole('button', { name: 'Set price' }).click();
      await panel()
        .getByRole('status')
        .filter({ hasText: `BTC-USD is now ${indicative.value}.` })
        .waitFor();

      await actAs(BEN);
      await approve(request(TRADE));
      await request(TRADE)
        .getByRole('button', { name: /^\d+ repl(y|ies)$/ })
        .click();
      // Re-quoted from the approvers' quote, within the limit they approved, and ordered.
      const requoted = new RegExp(
        `^🔁 Quote expired, re-quoted BTC-USD at [\\d,.]+ USD \\(was ${literal(indicative.shown)} USD\\), within your limit of ${literal(limit.shown)} USD: ordering\\.$`,
      );
      await thread().getByText(requoted).waitFor();
      await thread()
        .getByText(/^📤 Sent to the exchange as /)
        .waitFor();
      await moveTimeOn('+1 min');
      await thread()
        .getByText(/^✅ Completed\. Order /)
        .waitFor({ timeout: 10_000 });
      await thread().getByText(requoted).scrollIntoViewIfNeeded();
      await shot('08-trade-requoted');
      await thread().getByRole('button', { name: 'Close thread' }).click();
    }, 30_000);

    it('an approver rejects a request with a reason: the channel and the trader see it', async () => {
      await actAs(TARA);
      await openChannel('#desk');
      await askWithdrawal('0.01', 'Top up the hot wallet');
      await actAs(ANA);
      await openChannel('#desk-approvals');
      await request(REJECTED).getByRole('button', { name: 'Reject', exact: true }).click();
      const form = page.getByRole('dialog', { name: 'Reject request' });
      await form.getByRole('textbox', { name: 'Reason' }).fill('The hot wallet is already above its limit');
      await shot('09-reject-reason');
      await form.getByRole('button', { name: 'Reject', exact: true }).click();
      await request(REJECTED)
        .getByText(new RegExp(`^⛔ Rejected by @${ANA.name} `))
        .waitFor();
      await request(REJECTED).getByText('The hot wallet is already above its limit').waitFor();
      expect(await request(REJECTED).getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
      await page.getByRole('dialog', { name: 'Reject request' }).getByRole('button', { name: 'Close' }).click();

      await actAs(TARA);
      await openChannel('Desk Bot');
      const dm = log('Desk Bot').getByRole('article').filter({ hasText: 'was rejected by' });
      await dm.getByText('The hot wallet is already above its limit').waitFor();
      expect(await dm.innerText()).toContain(`was rejected by @${ANA.name}`);
      await shot('10-rejected-dm');
    }, 20_000);

    it('a deposit injected from the panel reaches #compliance; compliance declares its sender, finding the wallet by search', async () => {
      await panel().getByLabel('Deposit currency').selectOption('BTC');
      await panel().getByLabel('Deposit amount').fill('0.8125');
      expect(await panel().getByRole('checkbox', { name: 'Needs the sender declared (Travel Rule)' }).isChecked()).toBe(
        true,
      );
      await panel().getByRole('button', { name: 'Inject deposit' }).click();
      await panel().getByRole('status').filter({ hasText: 'Deposit of 0.8125 BTC arrived.' }).waitFor();

      await actAs(CLEO);
      await openChannel('#compliance');
      const deposit = log('#compliance').getByRole('article').filter({ hasText: 'Deposit received: 0.8125 BTC' });
      await deposit.getByRole('button', { name: 'Declare counterparty' }).click();
      const form = page.getByRole('dialog', { name: 'Counterparty' });
      await form
        .getByRole('radiogroup', { name: 'The sender is' })
        .getByRole('radio', { name: 'An entity (company, organisation)' })
        .check();
      await form.getByRole('textbox', { name: 'Legal name' }).fill('Acme Trading Pte. Ltd.');
      await form
        .getByRole('radiogroup', { name: 'Whose wallet sent it' })
        .getByRole('radio', { name: "Someone else's (third party)" })
        .check();
      await form.getByRole('combobox', { name: 'Known wallet or exchange' }).pressSequentially('Bin');
      const suggestions = page.getByRole('listbox');
      await suggestions.getByRole('option', { name: /^Binance/ }).waitFor();
      await shot('11-wallet-search');
      await suggestions.getByRole('option', { name: /^Binance/ }).click();
      await form.getByRole('button', { name: 'Declare' }).click();

      const declared = page.getByRole('dialog', { name: 'Counterparty' });
      await declared.getByText(/^✅ Declared for transaction [\w-]+\. The exchange reviews it now/).waitFor();
      await declared.getByRole('button', { name: 'Close' }).click();
      await deposit
        .getByText(
          new RegExp(
            `^✅ Counterparty declared by @${CLEO.name} .*: Acme Trading Pte\\. Ltd\\. \\(entity, third party\\) · wallet: Binance \\(listed\\)$`,
          ),
        )
        .waitFor();
      expect(await deposit.getByRole('button', { name: 'Declare counterparty' }).count()).toBe(0);
      await shot('12-declared');
    }, 20_000);
  },
);
