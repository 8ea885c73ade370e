/** Retention of the Slack side's references in the key-value file (src/bot/slack/shell/retention.ts). */
import { describe, expect, it } from 'vitest';
import { deposit as depositRecord } from '../../../../src/bot/exchange/adapter/deposit-records.js';
import { approvalMessageKey } from '../../../../src/bot/slack/approvals/approval-notifier.js';
import { depositMessageKey } from '../../../../src/bot/slack/compliance/deposit-notifier.js';
import {
  APPROVAL_MESSAGE_RETENTION_MS,
  DEPOSIT_MESSAGE_RETENTION_MS,
  expiredSlackKey,
  HOME_VIEWER_RETENTION_MS,
  SUBMISSION_RETENTION_MS,
} from '../../../../src/bot/slack/shell/retention.js';
import { SUBMISSION_KEY_PREFIX } from '../../../../src/bot/slack/request-forms/submission-markers.js';
import { MODAL_DATA_TTL_MS, modalDataKey } from '../../../../src/bot/slack/kit/modal-data.js';
import { homeViewerKey } from '../../../../src/bot/slack/home/homes.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const slackTs = (ms: number) => `${Math.floor(ms / 1000)}.000100`;

describe('expiredSlackKey', () => {
  const expired = expiredSlackKey(NOW, new Set(['ROPEN1']));

  it('drops a submission marker past its retention, whatever its state, and keeps a younger one', () => {
    for (const state of ['started', 'created', 'refused']) {
      expect(expired(`${SUBMISSION_KEY_PREFIX}V1`, { state, at: NOW - SUBMISSION_RETENTION_MS - 1 })).toBe(true);
      expect(expired(`${SUBMISSION_KEY_PREFIX}V1`, { state, at: NOW - SUBMISSION_RETENTION_MS + 60_000 })).toBe(false);
    }
  });

  it("drops a modal's data once it is past the age the forms use it to, and keeps a younger one", () => {
    expect(expired(modalDataKey('V1'), { data: { kind: 'fiat' }, at: NOW - MODAL_DATA_TTL_MS - 1 })).toBe(true);
    expect(expired(modalDataKey('V1'), { data: { kind: 'fiat' }, at: NOW - MODAL_DATA_TTL_MS + 60_000 })).toBe(false);
  });

  it('drops an App Home viewer who has not opened the tab for the retention, and keeps a recent one', () => {
    expect(expired(homeViewerKey('U1'), { at: NOW - HOME_VIEWER_RETENTION_MS - 1 })).toBe(true);
    expect(expired(homeViewerKey('U1'), { at: NOW - 60_000 })).toBe(false);
  });

  it('drops the approval message reference of a finished request once the message is old enough', () => {
    const old = { channel: 'C1', ts: slackTs(NOW - APPROVAL_MESSAGE_RETENTION_MS - 1_000) };
    const young = { channel: 'C1', ts: slackTs(NOW - APPROVAL_MESSAGE_RETENTION_MS + 60_000) };
    expect(expired(approvalMessageKey('RDONE1'), old)).toBe(true);
    expect(expired(approvalMessageKey('RDONE1'), young)).toBe(false);
  });

  it('never drops the reference of an open request, however old', () => {
    expect(
      expired(approvalMessageKey('ROPEN1'), { channel: 'C1', ts: slackTs(NOW - 10 * APPROVAL_MESSAGE_RETENTION_MS) }),
    ).toBe(false);
  });

  it('drops a deposit message reference only when old and nothing can happen to the deposit any more', () => {
    const old = slackTs(NOW - DEPOSIT_MESSAGE_RETENTION_MS - 1_000);
    // What the exchange listed, read by the port as the watch stores it.
    const stored = (d: { status: string; travel_rule_status: string }) =>
      depositRecord({
        id: '7C1D2E3F-0000-4000-8000-0000000000AA',
        created_at: 0,
        invoice_downloadable: false,
        transaction: { uuid: '7C1D2E3F-0000-4000-8000-000000000001' },
        ...d,
      });
    const ref = (deposit: { status: string; travel_rule_status: string }, declared: boolean, ts = old) => ({
      channel: 'C2',
      ts,
      deposit: stored(deposit),
      ...(declared ? { declaration: { by: 'U0CMP0001', at: 1 } } : {}),
    });
    const key = depositMessageKey('7C1D2E3F-0000-4000-8000-000000000001');
    // Final, review closed, declared: nothing reads it again.
    expect(expired(key, ref({ status: 'completed', travel_rule_status: 'approved' }, true))).toBe(true);
    // Final and its review closed without us: no declaration is taken any more.
    expect(expired(key, ref({ status: 'completed', travel_rule_status: 'approved' }, false))).toBe(true);
    // Still waiting for a declaration, however old.
    expect(expired(key, ref({ status: 'completed', travel_rule_status: 'required' }, false))).toBe(false);
    // Still moving.
    expect(expired(key, ref({ status: 'pending', travel_rule_status: 'approved' }, true))).toBe(false);
    // Young.
    expect(
      expired(key, ref({ status: 'completed', travel_rule_status: 'approved' }, true, slackTs(NOW - 60_000))),
    ).toBe(false);
  });

  it('keeps what it cannot date, and every key that is not its own', () => {
    expect(expired(`${SUBMISSION_KEY_PREFIX}V1`, { state: 'created' })).toBe(false);
    expect(expired(approvalMessageKey('RDONE1'), { channel: 'C1', ts: 'not-a-ts' })).toBe(false);
    expect(expired('compliance:deposit-message:abc', { at: 0 })).toBe(false);
    expect(expired('claim:bank_account_removal:1001', 'R1')).toBe(false);
  });
});
