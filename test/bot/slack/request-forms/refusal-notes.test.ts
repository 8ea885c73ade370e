/** A form the engine refused after its ack says why once: under the field at fault, or above the form. */
import { describe, expect, it } from 'vitest';
import { refillForm } from '../../../../src/bot/slack/kit/refill-form.js';
import { refusalNotes } from '../../../../src/bot/slack/request-forms/request-flow.js';
import { cryptoWithdrawView } from '../../../../src/bot/slack/withdrawals/withdraw-modal.js';
import { INPUT } from '../../../../src/bot/slack/kit/slack-ids.js';

const form = cryptoWithdrawView({
  entries: [{ id: 1, asset: 'BTC', network: 'Bitcoin', precision: 8, fee: '0.0005', available: '2' }],
  selectedEntryId: 1,
  destinations: [],
  now: 0,
  privateMetadata: '{}',
  sandbox: false,
});
const message = 'Only 1.9 BTC is available now.';

describe('refusalNotes', () => {
  it('puts the sentence under the field at fault, once', () => {
    const text = JSON.stringify(
      refillForm(
        form,
        {},
        refusalNotes({ ok: false, reason: 'invalid_input', message, field: 'amount' }, INPUT.withdrawAmount),
      ).blocks,
    );
    expect(text.split(message)).toHaveLength(2);
    expect(text).toContain(`Not sent: ${message}`);
  });

  it('puts it above the form when no field is at fault', () => {
    const view = refillForm(
      form,
      {},
      refusalNotes({ ok: false, reason: 'exchange_error', message: 'busy' }, undefined),
    );
    const text = JSON.stringify(view.blocks);
    expect(text.split('busy')).toHaveLength(2);
    expect(JSON.stringify(view.blocks[0])).toContain('the exchange answered');
  });
});
