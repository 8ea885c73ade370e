/**
 * The local desk's page in a real browser (Debian's Chromium), against a fixture server that
 * speaks the page's protocol with the bot's own Block Kit. Everything is found by role and name,
 * as a person with a screen reader would find it; screenshots go to test-artifacts/local-desk/.
 */
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  LABELS,
  PANEL_FAULTS,
  PANEL_FAULT_TARGETS,
  type LocalDeskMessage,
} from '../../src/stand-ins/local-desk/protocol.js';
import { walletSearchAnswer } from '../../src/bot/slack/compliance/counterparty-modal.js';
import type { PlainTextOption } from '../../src/bot/slack/kit/blocks.js';
import { ACTION, BLOCK, dynamicBlockId, INPUT } from '../../src/bot/slack/kit/slack-ids.js';
import { launchChromium, noBrowserReason } from './support/chromium.js';
import { accessibleDescription } from './support/accessibility.js';
import { startFixtureLocalDesk, type FixtureLocalDesk } from './support/fixture-desk.js';
import {
  approverSnapshot,
  CHANNELS,
  outsiderSnapshot,
  PENDING_TS,
  SANDBOX,
  traderSnapshot,
  tsAt,
} from './support/desk-workspace.js';
import {
  AT,
  choiceView,
  cryptoView,
  DESTINATIONS,
  PEOPLE,
  pendingApproval,
  walletAnswer,
  walletModal,
} from '../stand-ins/local-desk/support/bot-views.js';

const walletOptions = (): PlainTextOption[] =>
  'options' in walletAnswer() ? (walletAnswer() as { options: PlainTextOption[] }).options : [];

const ARTIFACTS = 'test-artifacts/local-desk';
const VIEWPORT = { width: 1440, height: 900 };

describe.skipIf(noBrowserReason !== undefined)(
  `the local desk page in Chromium${noBrowserReason ? ` (skipped: ${noBrowserReason})` : ''}`,
  () => {
    let browser: Browser;
    let desk: FixtureLocalDesk;
    let page: Page;

    beforeAll(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      [browser, desk] = await Promise.all([launchChromium(), startFixtureLocalDesk(PEOPLE.trader.id, SANDBOX)]);
    });
    afterAll(async () => {
      await browser?.close();
      await desk?.close();
    });
    beforeEach(async (ctx) => {
      desk.posts.length = 0;
      desk.connections.length = 0;
      desk.answer = () => undefined;
      desk.sandbox = structuredClone(SANDBOX);
      desk.show(PEOPLE.trader.id, traderSnapshot());
      desk.show(PEOPLE.approver1.id, approverSnapshot());
      desk.show(PEOPLE.outsider.id, outsiderSnapshot());
      page = await browser.newPage({ viewport: VIEWPORT });
      // Fail on the locator that did not turn up, well before the test's own timeout.
      page.setDefaultTimeout(5_000);
      ctx.onTestFinished(() => page.close());
    });

    const open = async (as: string = PEOPLE.trader.id) => {
      await page.goto(`${desk.url}/?as=${as}`);
      await page.getByRole('navigation', { name: LABELS.channels }).waitFor();
    };
    const channel = (name: string) =>
      page.getByRole('navigation', { name: LABELS.channels }).getByRole('button', { name, exact: true });
    const log = (name: string) => page.getByRole('log', { name });
    const pendingMessage = () => log('#desk-approvals').getByRole('article').filter({ hasText: 'R7K2QX' });
    const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}/${name}.png` });

    it('draws the channels, the people and the approval channel as Slack does', async () => {
      await open();
      const nav = page.getByRole('navigation', { name: LABELS.channels });
      for (const name of ['#desk-approvals', '#desk-compliance', '#desk', 'Desk Bot', LABELS.home])
        await nav.getByRole('button', { name, exact: true }).waitFor();
      expect(await channel('#desk').getAttribute('aria-current')).toBe('page');
      const actAs = page.getByRole('combobox', { name: LABELS.actAs });
      expect(await actAs.locator('option').allTextContents()).toEqual([
        'Tina Trader (trader)',
        'Alex Approver (approver)',
        'Bea Approver (approver)',
        'Carl Compliance (compliance)',
        'Olga Outsider (outsider)',
      ]);

      await channel('#desk-approvals').click();
      expect(await channel('#desk-approvals').getAttribute('aria-current')).toBe('page');
      expect(await channel('#desk').getAttribute('aria-current')).toBeNull();
      expect(await log('#desk-approvals').getByRole('article').count()).toBe(3);

      const pending = pendingMessage();
      await pending.getByRole('heading', { name: 'Crypto withdrawal · 0.25 BTC to Cold wallet' }).waitFor();
      const text = await pending.innerText();
      // Mentions by name, the date token in the trader's zone (Singapore, UTC+8) and named, user text unescaped.
      expect(text).toContain('@Tina Trader May 1, 2024 10:03 PM GMT+8');
      expect(text).toMatch(/Note from the requester, as typed\n+│ Before the weekend <please>/);
      expect(text).toContain('Expires May 1, 2024 11:03 PM GMT+8 unless approved.');
      expect(text).not.toContain('Only visible to you');
      for (const name of ['Approve', 'Reject', 'Cancel'])
        await pending.getByRole('button', { name, exact: true }).waitFor();

      const refusal = log('#desk-approvals')
        .getByRole('article')
        .filter({ hasText: 'You cannot approve your own request.' });
      expect(await refusal.innerText()).toContain(LABELS.onlyVisibleToYou);
      const done = log('#desk-approvals').getByRole('article').filter({ hasText: 'R2DONE' });
      expect(await done.innerText()).toContain('(edited)');
      expect(await done.innerText()).toContain('Approved by @Alex Approver and @Bea Approver');

      await done.getByRole('button', { name: '3 replies' }).click();
      const thread = page.getByRole('complementary', { name: LABELS.thread });
      const explorer = thread.getByRole('link', { name: 'View on the explorer' });
      expect(await explorer.getAttribute('href')).toBe('https://explorer.example/tx/0xabc');
      expect(await thread.innerText()).toContain('Sent to the exchange as wd_8f3a: status processing.');
      // The parent is drawn twice (channel and thread): names and descriptions still point at one element each.
      const duplicateIds = await page.evaluate(
        `[...document.querySelectorAll('[id]')].map((e) => e.id).filter((id, i, all) => all.indexOf(id) !== i)`,
      );
      expect(duplicateIds).toEqual([]);
      await shot('approval-channel');
    });

    it("asks a button's confirm first, then sends the action Slack would; a refusal shows by the message", async () => {
      await open();
      await channel('#desk-approvals').click();
      await pendingMessage().getByRole('button', { name: 'Approve', exact: true }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Approve this request?' });
      expect(await confirm.innerText()).toContain(
        'You approve the crypto withdrawal 0.25 BTC to Cold wallet (request R7K2QX).',
      );
      await shot('approve-confirm');
      await confirm.getByRole('button', { name: 'Not yet' }).click();
      await confirm.waitFor({ state: 'detached' });
      expect(desk.posts).toEqual([]);

      await pendingMessage().getByRole('button', { name: 'Approve', exact: true }).click();
      await confirm.getByRole('button', { name: 'Approve', exact: true }).click();
      const post = await desk.waitForPost((p) => p.name === 'action');
      expect(post.body).toEqual({
        as: PEOPLE.trader.id,
        container: { type: 'message', channel: CHANNELS.approvals.id, ts: PENDING_TS },
        action: {
          type: 'button',
          block_id: BLOCK.approvalActions,
          action_id: ACTION.approve,
          action_ts: expect.stringMatching(/^\d+\.\d{6}$/),
          text: { type: 'plain_text', text: 'Approve', emoji: true },
          value: 'R7K2QX:3f2a9c',
          style: 'primary',
        },
        values: {},
      });

      desk.answer = (p) => (p.name === 'action' ? { ok: false, error: 'The bot answered HTTP 500' } : undefined);
      await pendingMessage().getByRole('button', { name: 'Reject' }).click();
      await pendingMessage().getByRole('alert').filter({ hasText: 'The bot answered HTTP 500' }).waitFor();
    });

    it('shows a change the bot makes without a reload', async () => {
      await open();
      await channel('#desk-approvals').click();
      await pendingMessage().getByRole('button', { name: 'Approve', exact: true }).waitFor();
      await page.evaluate('window.__sameDocument = true');
      const approved = pendingApproval({
        approvals: [
          { userId: PEOPLE.approver1.id, at: AT + 60_000 },
          { userId: PEOPLE.approver2.id, at: AT + 120_000 },
        ],
        verdict: { outcome: 'approved', at: AT + 120_000 },
      });
      desk.update(PEOPLE.trader.id, (s) => ({
        ...s,
        messages: [
          ...s.messages.map((m): LocalDeskMessage => (m.ts === PENDING_TS ? { ...m, ...approved, edited: true } : m)),
          {
            channel: CHANNELS.approvals.id,
            ts: tsAt(AT + 130_000),
            threadTs: PENDING_TS,
            text: ':arrows_counterclockwise: Approved: executing on the exchange.',
            author: { kind: 'bot' },
          },
        ],
      }));
      await pendingMessage().getByText('Approved by @Alex Approver and @Bea Approver').waitFor();
      await pendingMessage().getByRole('button', { name: '1 reply' }).waitFor();
      expect(await pendingMessage().getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
      expect(await pendingMessage().innerText()).toContain('(edited)');

      // The server goes away and comes back: the page reconnects and follows on.
      const connections = desk.connections.length;
      desk.dropStreams();
      await expect.poll(() => desk.connections.length).toBeGreaterThan(connections);
      desk.update(PEOPLE.trader.id, (s) => ({
        ...s,
        messages: [
          ...s.messages,
          {
            channel: CHANNELS.approvals.id,
            ts: tsAt(AT + 140_000),
            threadTs: PENDING_TS,
            text: ':outbox_tray: Sent to the exchange.',
            author: { kind: 'bot' },
          },
        ],
      }));
      await pendingMessage().getByRole('button', { name: '2 replies' }).waitFor();
      expect(await page.evaluate('window.__sameDocument')).toBe(true);
    });

    it("dates a message by when the desk got it (its `at`), not by the Slack stand-in's ts, which is only a sequence", async () => {
      desk.update(PEOPLE.trader.id, (s) => ({
        ...s,
        messages: [
          { channel: CHANNELS.desk.id, ts: '1700000000.000042', at: AT, text: 'posted at AT', author: { kind: 'bot' } },
        ],
      }));
      await open();
      const message = log('#desk').getByRole('article').filter({ hasText: 'posted at AT' });
      // AT is 14:03 UTC on May 1, 2024: 10:03 PM for the trader in Singapore; the ts would say November 2023.
      expect(await message.getByRole('time').innerText()).toBe('10:03 PM');
      expect(await log('#desk').getByRole('separator').innerText()).toContain('May 1st');
      expect(await log('#desk').innerText()).not.toContain('November');
    });

    it('sends a slash command from the message box, and says when it cannot', async () => {
      await open();
      const box = page.getByRole('textbox', { name: LABELS.messageBox('#desk') });
      await box.fill('/withdraw crypto');
      await box.press('Enter');
      const post = await desk.waitForPost((p) => p.name === 'command');
      expect(post.body).toEqual({ as: PEOPLE.trader.id, channel: CHANNELS.desk.id, text: '/withdraw crypto' });
      await expect.poll(() => box.inputValue()).toBe('');

      await box.fill('hello bot');
      await box.press('Enter');
      await page.getByRole('alert').filter({ hasText: 'Only slash commands reach the bot here' }).waitFor();
      expect(desk.posts.filter((p) => p.name === 'command')).toHaveLength(1);

      desk.answer = (p) =>
        p.name === 'command' ? { ok: false, error: 'The bot did not answer within 3 s' } : undefined;
      await box.fill('/balances');
      await box.press('Enter');
      await page.getByRole('alert').filter({ hasText: 'The bot did not answer within 3 s' }).waitFor();
      expect(await box.inputValue()).toBe('/balances');
    });

    it("runs the withdrawal modal: labelled inputs, actions on change and Enter, Slack's state.values, field errors", async () => {
      await open();
      desk.update(PEOPLE.trader.id, (s) => ({ ...s, modals: [{ id: 'V1', hash: 'h1', view: cryptoView() as never }] }));
      const dialog = page.getByRole('dialog', { name: 'Crypto withdrawal' });
      const amount = dialog.getByRole('textbox', { name: 'Amount', exact: true });
      await amount.waitFor();
      expect(await accessibleDescription(page, 'textbox', 'Amount')).toBe(
        'Digits and a point. Press Enter to see the fee and the total.',
      );
      await dialog.getByRole('textbox', { name: 'Note for the approvers' }).waitFor();
      await amount.fill('0.25');

      await dialog.getByRole('combobox', { name: 'Currency and network' }).selectOption({ label: 'BTC · Bitcoin' });
      const chose = await desk.waitForPost((p) => p.name === 'action');
      expect(chose.body).toMatchObject({
        as: PEOPLE.trader.id,
        container: { type: 'view', viewId: 'V1' },
        action: {
          type: 'static_select',
          block_id: INPUT.withdrawEntry,
          action_id: INPUT.withdrawEntry,
          selected_option: { value: '11' },
        },
        values: {
          [INPUT.withdrawEntry]: { [INPUT.withdrawEntry]: { selected_option: { value: '11' } } },
          [INPUT.withdrawAmount]: { [INPUT.withdrawAmount]: { type: 'plain_text_input', value: '0.25' } },
        },
      });

      // views.update: the same view with the destinations; what was typed stays, as in Slack.
      const withDestinations = cryptoView({ selectedEntryId: 11, destinations: DESTINATIONS });
      desk.update(PEOPLE.trader.id, (s) => ({
        ...s,
        modals: [{ id: 'V1', hash: 'h2', view: withDestinations as never }],
      }));
      const destination = dialog.getByRole('combobox', { name: 'Destination' });
      await destination.waitFor();
      expect(await amount.inputValue()).toBe('0.25');

      const before = desk.posts.length;
      await amount.press('Enter');
      const entered = await desk.waitForPost((p) => p.name === 'action', before);
      expect(entered.body.action).toMatchObject({
        type: 'plain_text_input',
        block_id: INPUT.withdrawAmount,
        action_id: INPUT.withdrawAmount,
        value: '0.25',
      });
      desk.update(PEOPLE.trader.id, (s) => ({
        ...s,
        modals: [
          {
            id: 'V1',
            hash: 'h3',
            view: cryptoView({
              selectedEntryId: 11,
              destinations: DESTINATIONS,
              summary: { currency: 'BTC', amount: '0.25', fee: '0.0005', total: '0.2505' },
            }) as never,
          },
        ],
      }));
      await dialog.getByText('Amount 0.25 BTC + fee 0.0005 BTC = total 0.2505 BTC').waitFor();

      // Slack's client refuses an empty required field before anything is sent.
      await dialog.getByRole('button', { name: 'Ask for approval' }).click();
      await expect
        .poll(() => accessibleDescription(page, 'combobox', 'Destination'))
        .toBe('Please complete this required field.');
      expect(await destination.getAttribute('aria-invalid')).toBe('true');
      expect(desk.posts.filter((p) => p.name === 'submit')).toEqual([]);

      await destination.selectOption({ label: `Cold wallet · bc1qxy…0wlh` });
      await expect.poll(() => destination.getAttribute('aria-invalid')).toBeNull();
      await shot('withdrawal-modal');

      desk.answer = (p) =>
        p.name === 'submit'
          ? { ok: true, errors: { [INPUT.withdrawAmount]: 'Only 2.5 BTC is available.' } }
          : undefined;
      await dialog.getByRole('button', { name: 'Ask for approval' }).click();
      const submitted = await desk.waitForPost((p) => p.name === 'submit');
      const optionOf = (blockId: string, value: string) =>
        (
          withDestinations.blocks.find((b) => b.block_id === blockId) as unknown as {
            element: { options: { value: string }[] };
          }
        ).element.options.find((o) => o.value === value);
      expect(submitted.body).toEqual({
        as: PEOPLE.trader.id,
        viewId: 'V1',
        values: {
          [INPUT.withdrawEntry]: {
            [INPUT.withdrawEntry]: { type: 'static_select', selected_option: optionOf(INPUT.withdrawEntry, '11') },
          },
          [dynamicBlockId.withdrawDestination(11)]: {
            [INPUT.withdrawDestination]: {
              type: 'static_select',
              selected_option: optionOf(dynamicBlockId.withdrawDestination(11), 'd1'),
            },
          },
          [INPUT.withdrawAmount]: { [INPUT.withdrawAmount]: { type: 'plain_text_input', value: '0.25' } },
          [INPUT.withdrawPurpose]: { [INPUT.withdrawPurpose]: { type: 'plain_text_input', value: null } },
          [INPUT.withdrawNote]: { [INPUT.withdrawNote]: { type: 'plain_text_input', value: null } },
        },
      });
      await expect
        .poll(() => accessibleDescription(page, 'textbox', 'Amount'))
        .toBe('Only 2.5 BTC is available. Digits and a point. Press Enter to see the fee and the total.');
      expect(await amount.getAttribute('aria-invalid')).toBe('true');
    });

    it("runs the counterparty modal: radio groups, the wallet search's suggestions and groups", async () => {
      desk.show(PEOPLE.compliance.id, {
        ...traderSnapshot(),
        me: PEOPLE.compliance.id,
        modals: [{ id: 'V9', hash: 'c1', view: walletModal() as never }],
      });
      desk.answer = (p) => (p.name === 'suggest' ? { ok: true, ...walletAnswer() } : undefined);
      await open(PEOPLE.compliance.id);
      const dialog = page.getByRole('dialog', { name: 'Counterparty' });
      await dialog
        .getByRole('radiogroup', { name: 'The sender is' })
        .getByRole('radio', { name: 'An individual' })
        .check();
      const ours = dialog
        .getByRole('radiogroup', { name: 'Whose wallet sent it' })
        .getByRole('radio', { name: 'Our own (first party)' });
      expect(await accessibleDescription(page, 'radio', 'Our own (first party)')).toBe('Same party as the originator');
      await ours.check();
      await dialog.getByRole('textbox', { name: 'Legal name' }).fill('Jane Tan');

      const wallet = dialog.getByRole('combobox', { name: 'Known wallet or exchange' });
      expect(await accessibleDescription(page, 'combobox', 'Known wallet or exchange')).toContain(
        'Lists at most 100 matches',
      );
      await wallet.pressSequentially('Bi');
      const asked = await desk.waitForPost((p) => p.name === 'suggest');
      expect(asked.body).toEqual({
        as: PEOPLE.compliance.id,
        viewId: 'V9',
        blockId: INPUT.cpWallet,
        actionId: INPUT.cpWallet,
        value: 'Bi',
      });
      const list = page.getByRole('listbox');
      await list.getByRole('option', { name: /^Binance/ }).waitFor();
      expect(await list.getByRole('option').count()).toBe(2);
      await shot('counterparty-suggestions');
      await list.getByRole('option', { name: /^Bitstamp/ }).click();
      expect(await wallet.inputValue()).toBe('Bitstamp');

      await dialog.getByRole('button', { name: 'Declare' }).click();
      const submitted = await desk.waitForPost((p) => p.name === 'submit');
      const values = submitted.body.values as Record<string, Record<string, Record<string, unknown>>>;
      expect(values[INPUT.cpWallet]).toEqual({
        [INPUT.cpWallet]: { type: 'external_select', selected_option: walletOptions().find((o) => o.value === 'w2') },
      });
      expect(values[INPUT.cpEntityType]![INPUT.cpEntityType]).toMatchObject({
        type: 'radio_buttons',
        selected_option: { value: 'individual' },
      });
      expect(values[INPUT.cpOwnership]![INPUT.cpOwnership]).toMatchObject({
        type: 'radio_buttons',
        selected_option: { value: 'first_party' },
      });
      expect(values[INPUT.cpLegalName]).toEqual({
        [INPUT.cpLegalName]: { type: 'plain_text_input', value: 'Jane Tan' },
      });

      // More than Slack's 100 matches: the bot answers one option group saying so.
      const many = Array.from({ length: 101 }, (_, i) => ({
        id: `w${i}`,
        name: `Wallet ${i}`,
        type: 'private' as const,
      }));
      desk.answer = (p) => (p.name === 'suggest' ? { ok: true, ...walletSearchAnswer(many) } : undefined);
      await wallet.fill('');
      await wallet.pressSequentially('Wa');
      await list.getByRole('group', { name: 'First 100 of 101 matches: type more to narrow' }).waitFor();
      expect(await list.getByRole('option').count()).toBe(100);
    });

    it('shows the last modal of the stack; closing goes back to the one below', async () => {
      await open();
      desk.update(PEOPLE.trader.id, (s) => ({
        ...s,
        modals: [
          { id: 'V2', hash: 'a', view: choiceView() as never },
          { id: 'V3', hash: 'b', view: cryptoView() as never },
        ],
      }));
      const top = page.getByRole('dialog', { name: 'Crypto withdrawal' });
      await top.getByRole('button', { name: 'Back' }).waitFor();
      expect(await page.getByRole('dialog').count()).toBe(1);
      await top.getByRole('button', { name: 'Cancel' }).click();
      expect((await desk.waitForPost((p) => p.name === 'close')).body).toEqual({ as: PEOPLE.trader.id, viewId: 'V3' });

      desk.update(PEOPLE.trader.id, (s) => ({ ...s, modals: s.modals.slice(0, 1) }));
      const below = page.getByRole('dialog', { name: 'Withdraw' });
      await below.getByRole('button', { name: 'Crypto' }).click();
      const chose = await desk.waitForPost((p) => p.name === 'action');
      expect(chose.body).toMatchObject({
        container: { type: 'view', viewId: 'V2' },
        action: {
          type: 'button',
          block_id: BLOCK.withdrawChoice,
          action_id: ACTION.withdrawChooseCrypto,
          value: 'crypto',
        },
      });
      expect(await below.getByRole('button', { name: 'Back' }).count()).toBe(0);
      const before = desk.posts.length;
      await page.keyboard.press('Escape');
      expect((await desk.waitForPost((p) => p.name === 'close', before)).body).toEqual({
        as: PEOPLE.trader.id,
        viewId: 'V2',
      });
    });

    it('shows what it cannot draw, never dropping it', async () => {
      desk.update(PEOPLE.trader.id, (s) => ({
        ...s,
        messages: [
          ...s.messages,
          {
            channel: CHANNELS.dm.id,
            ts: tsAt(AT + 5_000),
            blocks: [
              { type: 'section', text: { type: 'mrkdwn', text: 'Your export is ready' } },
              { type: 'video', title: { type: 'plain_text', text: 'How to' } },
              { type: 'actions', elements: [{ type: 'datepicker', action_id: 'when' }] },
            ],
            author: { kind: 'bot' },
          },
        ],
        undrawn: [{ method: 'files.uploadV2', summary: 'a CSV file for the DM' }],
      }));
      await open();
      await channel('Desk Bot').click();
      const dm = log('Desk Bot');
      await dm.getByText('Your export is ready').waitFor();
      await dm.getByText('Not drawn here: video').waitFor();
      await dm.getByText('Not drawn here: datepicker').waitFor();
      expect(await page.getByRole('main').innerText()).toContain('files.uploadV2 a CSV file for the DM');
      await shot('direct-message-not-drawn');
    });

    it('draws the rest of the Block Kit it supports (written here: the bot sends none of it today)', async () => {
      const plain = (text: string) => ({ type: 'plain_text', text, emoji: true });
      const deleteOption = { text: plain('Delete'), value: 'delete' };
      const asia = { text: plain('Asia desk'), value: 'asia' };
      const sms = { text: plain('SMS'), value: 'sms' };
      desk.update(PEOPLE.trader.id, (s) => ({
        ...s,
        messages: [
          ...s.messages,
          {
            channel: CHANNELS.desk.id,
            ts: tsAt(AT + 9_000),
            blocks: [
              {
                type: 'section',
                block_id: 'menu',
                text: { type: 'mrkdwn', text: 'A saved report' },
                accessory: {
                  type: 'overflow',
                  action_id: 'report_menu',
                  options: [{ text: plain('Edit'), value: 'edit' }, deleteOption],
                  confirm: {
                    title: plain('Delete it?'),
                    text: plain('It cannot be undone.'),
                    confirm: plain('Delete'),
                    deny: plain('Keep'),
                    style: 'danger',
                  },
                },
              },
              { type: 'section', text: plain('*not bold* :x:') },
              { type: 'image', image_url: 'https://example.com/chart.png', alt_text: 'chart', title: plain('Chart') },
              {
                type: 'actions',
                block_id: 'desks',
                elements: [
                  {
                    type: 'static_select',
                    action_id: 'desk',
                    placeholder: plain('Pick a desk'),
                    option_groups: [{ label: plain('Regions'), options: [asia] }],
                  },
                ],
              },
            ],
            author: { kind: 'bot' },
          },
        ],
        modals: [
          {
            id: 'V7',
            hash: 'x',
            view: {
              type: 'modal',
              title: plain('Alerts'),
              submit: plain('Save'),
              blocks: [
                {
                  type: 'input',
                  block_id: 'notify',
                  label: plain('Notify by'),
                  element: {
                    type: 'checkboxes',
                    action_id: 'notify',
                    options: [{ text: plain('Email'), value: 'email' }, sms],
                  },
                },
              ],
            },
          },
        ],
      }));
      await open();
      const dialog = page.getByRole('dialog', { name: 'Alerts' });
      await dialog.getByRole('group', { name: 'Notify by' }).getByRole('checkbox', { name: 'SMS' }).check();
      await dialog.getByRole('button', { name: 'Save' }).click();
      expect((await desk.waitForPost((p) => p.name === 'submit')).body).toEqual({
        as: PEOPLE.trader.id,
        viewId: 'V7',
        values: { notify: { notify: { type: 'checkboxes', selected_options: [sms] } } },
      });
      desk.update(PEOPLE.trader.id, (s) => ({ ...s, modals: [] }));
      await dialog.waitFor({ state: 'detached' });

      const message = log('#desk').getByRole('article').filter({ hasText: 'A saved report' });
      expect(await message.innerText()).toContain('*not bold* \u274c');
      await message.getByRole('img', { name: 'chart' }).waitFor();
      await message.getByRole('button', { name: 'More actions' }).click();
      await message.getByRole('menu').getByRole('menuitem', { name: 'Delete' }).click();
      await page.getByRole('alertdialog', { name: 'Delete it?' }).getByRole('button', { name: 'Delete' }).click();
      const deleted = await desk.waitForPost((p) => p.name === 'action');
      expect(deleted.body.action).toMatchObject({
        type: 'overflow',
        block_id: 'menu',
        action_id: 'report_menu',
        selected_option: deleteOption,
      });

      const picker = message.getByRole('combobox', { name: 'Pick a desk' });
      // A native select's option groups are <optgroup>s (no role a locator can reach inside a combobox).
      expect(await picker.locator('optgroup').getAttribute('label')).toBe('Regions');
      const before = desk.posts.length;
      await picker.selectOption({ label: 'Asia desk' });
      const picked = await desk.waitForPost((p) => p.name === 'action', before);
      expect(picked.body).toMatchObject({
        container: { type: 'message', channel: CHANNELS.desk.id },
        action: { type: 'static_select', block_id: 'desks', action_id: 'desk', selected_option: asia },
      });
      expect(picked.body.values).toEqual({ desks: { desk: { type: 'static_select', selected_option: asia } } });
    });

    it('switches person: a new live view as them, their time zone, their App Home', async () => {
      await page.goto(desk.url);
      await log('#desk').waitFor();
      expect(desk.connections).toEqual(['']);
      await page.getByRole('combobox', { name: LABELS.actAs }).selectOption({ label: 'Alex Approver (approver)' });
      await expect.poll(() => desk.connections).toEqual(['', PEOPLE.approver1.id]);
      expect(new URL(page.url()).searchParams.get('as')).toBe(PEOPLE.approver1.id);
      await channel('#desk-approvals').click();
      // Alex reads in London (UTC+1 in May).
      await pendingMessage()
        .getByText(/@Tina Trader May 1, 2024 3:03 PM (GMT\+1|BST)/)
        .waitFor();
      expect(await log('#desk-approvals').getByText('You cannot approve your own request.').count()).toBe(0);

      await channel(LABELS.home).click();
      expect((await desk.waitForPost((p) => p.name === 'home')).body).toEqual({ as: PEOPLE.approver1.id });
      const main = page.getByRole('main');
      await main.getByRole('heading', { name: 'Waiting for your approval (1)' }).waitFor();
      await shot('app-home');
      await main.getByRole('button', { name: 'Approve', exact: true }).click();
      await page
        .getByRole('alertdialog', { name: 'Approve this request?' })
        .getByRole('button', { name: 'Approve', exact: true })
        .click();
      const post = await desk.waitForPost((p) => p.name === 'action');
      expect(post.body).toMatchObject({
        as: PEOPLE.approver1.id,
        container: { type: 'home' },
        action: { action_id: ACTION.approve, value: 'R7K2QX:3f2a9c' },
      });
    });

    it('drives the sandbox from its panel', async () => {
      await open();
      const panel = page.getByRole('region', { name: LABELS.sandbox });
      await panel.getByText('May 1, 2024 10:03:00 PM').waitFor();
      await panel.getByRole('button', { name: '+10 min' }).click();
      expect((await desk.waitForPost((p) => p.name === 'sandbox/advance')).body).toEqual({ ms: 600_000 });
      await panel.getByRole('status').filter({ hasText: 'Moved on 10 min.' }).waitFor();

      await panel.getByLabel('Deposit currency').selectOption('USDT');
      await panel.getByLabel('Deposit amount').fill('1500.50');
      await panel.getByRole('button', { name: 'Inject deposit' }).click();
      expect((await desk.waitForPost((p) => p.name === 'sandbox/deposit')).body).toEqual({
        currency: 'USDT',
        amount: '1500.50',
        needsCounterpartyInfo: true,
      });

      desk.answer = (p) =>
        p.name === 'sandbox/price' ? { ok: false, error: 'The sandbox has no ETH-SGD book' } : undefined;
      await panel.getByLabel('Price of').selectOption('ETH-SGD');
      await panel.getByLabel('New price').fill('4300');
      await panel.getByRole('button', { name: 'Set price' }).click();
      await panel.getByRole('alert').filter({ hasText: 'The sandbox has no ETH-SGD book' }).waitFor();

      await panel.getByLabel('Fault', { exact: true }).selectOption({ label: PANEL_FAULTS.lost_answer });
      await panel.getByLabel('Fault on').selectOption({ label: PANEL_FAULT_TARGETS.orders });
      await panel.getByLabel('Times (empty: until cleared)').fill('');
      await panel.getByRole('button', { name: 'Set fault' }).click();
      expect((await desk.waitForPost((p) => p.name === 'sandbox/fault')).body).toEqual({
        fault: 'lost_answer',
        on: 'orders',
      });
      await panel
        .getByRole('list', { name: 'Active faults' })
        .getByText('slow on POST /crypto/withdrawals, next 2')
        .waitFor();
      await panel.getByRole('button', { name: 'Clear faults' }).click();
      expect((await desk.waitForPost((p) => p.name === 'sandbox/clear-faults')).body).toEqual({});
    });
  },
);
