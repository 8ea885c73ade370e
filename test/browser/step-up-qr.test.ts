/**
 * The local desk draws the step-up enrollment modal's otpauth:// URI as a QR code (issue 24), from
 * the bot's own modal, in a real browser; found by its role and name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { LABELS } from '../../src/stand-ins/local-desk/protocol.js';
import { enrollView } from '../../src/bot/slack/step-up/step-up-views.js';
import { newTotpSecret, otpauthUri } from '../../src/bot/domain/step-up/totp.js';
import { launchChromium, noBrowserReason } from './support/chromium.js';
import { startFixtureLocalDesk, type FixtureLocalDesk } from './support/fixture-desk.js';
import { approverSnapshot, SANDBOX } from './support/desk-workspace.js';
import { PEOPLE } from '../stand-ins/local-desk/support/bot-views.js';

describe.skipIf(noBrowserReason !== undefined)(
  `the enrollment modal's QR code in Chromium${noBrowserReason ? ` (skipped: ${noBrowserReason})` : ''}`,
  () => {
    let browser: Browser;
    let desk: FixtureLocalDesk;
    beforeAll(async () => {
      [browser, desk] = await Promise.all([launchChromium(), startFixtureLocalDesk(PEOPLE.approver1.id, SANDBOX)]);
    });
    afterAll(async () => {
      await browser?.close();
      await desk?.close();
    });

    it('shows a QR code beside the link, and the code field', async () => {
      const page = await browser.newPage();
      page.setDefaultTimeout(5_000);
      desk.show(PEOPLE.approver1.id, approverSnapshot());
      await page.goto(`${desk.url}/?as=${PEOPLE.approver1.id}`);
      await page.getByRole('navigation', { name: LABELS.channels }).waitFor();
      const secret = newTotpSecret();
      const view = enrollView({ secret, uri: otpauthUri('Desk Bot', PEOPLE.approver1.id, secret), replacing: false });
      desk.update(PEOPLE.approver1.id, (s) => ({ ...s, modals: [{ id: 'V1', hash: 'h1', view: view as never }] }));
      const dialog = page.getByRole('dialog', { name: 'Approval codes' });
      const qr = dialog.getByRole('img', { name: 'QR code for your authenticator app' });
      await qr.waitFor();
      const box = await qr.boundingBox();
      expect(box!.width).toBeGreaterThan(100);
      // Dark modules drawn: a QR code, not an empty frame.
      expect(await qr.locator('g rect').count()).toBeGreaterThan(200);
      await dialog.getByRole('textbox', { name: /The code the app now shows/ }).waitFor();
      await page.close();
    });
  },
);
