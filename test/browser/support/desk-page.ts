/**
 * What a person finds and does on the local desk's page, by role and accessible name (protocol.ts
 * LABELS): the browser tests' shared vocabulary against the real preview desk.
 */
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { LABELS } from '../../../src/stand-ins/local-desk/protocol.js';

/** `text` matched as itself inside a RegExp. */
export const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function localDeskPage(page: Page) {
  const nav = () => page.getByRole('navigation', { name: LABELS.channels });
  const log = (name: string) => page.getByRole('log', { name });
  const panel = () => page.getByRole('region', { name: LABELS.sandbox });
  const thread = () => page.getByRole('complementary', { name: LABELS.thread });

  /** The option of a native select whose text starts with `start`, as shown. */
  async function optionText(select: Locator, start: string): Promise<string> {
    const text = await select
      .getByRole('option', { name: new RegExp(`^${literal(start)}`) })
      .first()
      .textContent();
    if (!text) throw new Error(`no option starting with ${start}`);
    return text;
  }

  const ui = {
    nav,
    log,
    panel,
    thread,
    optionText,
    openChannel: (name: string) => nav().getByRole('button', { name, exact: true }).click(),
    /** The message in #desk-approvals whose header is `headline`. */
    request: (headline: string) =>
      log('#desk-approvals')
        .getByRole('article')
        .filter({ has: page.getByRole('heading', { name: headline }) }),

    /** Be someone else: the people switcher, then their own live view (their name in the top bar). */
    async actAs(who: { name: string; role: string }): Promise<void> {
      await page.getByRole('combobox', { name: LABELS.actAs }).selectOption({ label: `${who.name} (${who.role})` });
      await page.getByRole('banner').getByText(who.name).waitFor();
    },

    /** Approve, and confirm in the bot's confirm dialog. */
    async approve(message: Locator): Promise<void> {
      await message.getByRole('button', { name: 'Approve', exact: true }).click();
      await page
        .getByRole('alertdialog', { name: 'Approve this request?' })
        .getByRole('button', { name: 'Approve', exact: true })
        .click();
    },

    /** Type a line in the open channel's message box and press Enter. */
    async type(channel: string, line: string): Promise<void> {
      const box = page.getByRole('textbox', { name: LABELS.messageBox(channel) });
      await box.fill(line);
      await box.press('Enter');
      await expect.poll(() => box.inputValue()).toBe('');
    },

    /** Move the sandbox's clock on with the panel's button (`+1 min` …). */
    async moveTimeOn(step: string): Promise<void> {
      await panel().getByRole('button', { name: step, exact: true }).click();
      await panel()
        .getByRole('status')
        .filter({ hasText: `Moved on ${step.slice(1)}.` })
        .waitFor();
    },

    /**
     * The trader, in #desk: `/withdraw crypto`, BTC, the treasury's cold storage, the amount and
     * Enter (the fee and total appear), a purpose and a note, Ask for approval; then closes the
     * bot's "waiting for approval" view. `filled` runs just before the submit.
     */
    async askWithdrawal(amount: string, note: string, filled?: () => Promise<unknown>): Promise<void> {
      await ui.type('#desk', '/withdraw crypto');
      const form = page.getByRole('dialog', { name: 'Crypto withdrawal' });
      const entry = form.getByRole('combobox', { name: 'Currency and network' });
      await entry.selectOption({ label: await optionText(entry, 'BTC') });
      const destination = form.getByRole('combobox', { name: 'Destination' });
      await destination.selectOption({ label: await optionText(destination, 'Treasury cold storage') });
      const amountBox = form.getByRole('textbox', { name: 'Amount', exact: true });
      await amountBox.fill(amount);
      await amountBox.press('Enter');
      await form
        .getByText(new RegExp(`^Amount ${literal(amount)} BTC \\+ fee [\\d.]+ BTC = total [\\d.]+ BTC`))
        .waitFor();
      await form.getByRole('textbox', { name: 'Purpose' }).fill('Treasury rebalancing');
      await form.getByRole('textbox', { name: 'Note for the approvers' }).fill(note);
      await filled?.();
      await form.getByRole('button', { name: 'Ask for approval' }).click();
      const sent = page.getByRole('dialog', { name: 'Withdraw' });
      await sent.getByText(/^✅ Crypto withdrawal \w+ is waiting for approval in #desk-approvals\.$/).waitFor();
      await sent.getByRole('button', { name: 'Close' }).click();
      await sent.waitFor({ state: 'detached' });
    },
  };
  return ui;
}
