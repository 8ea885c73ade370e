/** The loading and notice modals every feature shows: no submit, text escaped. */
import { describe, expect, it } from 'vitest';
import { loadingView, noticeView } from '../../../../src/bot/slack/kit/modal-views.js';
import { CALLBACK } from '../../../../src/bot/slack/kit/slack-ids.js';
import { viewViolations } from '../support/block-limits.js';

const ok = (view: object) => expect(viewViolations(view as Record<string, unknown>)).toEqual([]);

describe('modal builders', () => {
  it('loading and notice views have no submit and escape text', () => {
    const l = loadingView({ callbackId: CALLBACK.withdrawLoading, title: 'Withdraw', what: 'balances' });
    expect(l.submit).toBeUndefined();
    ok(l);
    expect(JSON.stringify(noticeView('Oops', 'Exchange said <!channel>'))).toContain('&lt;!channel&gt;');
  });
});
