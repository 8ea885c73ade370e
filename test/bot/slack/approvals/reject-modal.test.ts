/** The reject modal's builder: a required reason, the summary escaped. */
import { describe, expect, it } from 'vitest';
import { rejectReasonView } from '../../../../src/bot/slack/approvals/reject-modal.js';
import { INPUT } from '../../../../src/bot/slack/kit/slack-ids.js';
import { viewViolations } from '../support/block-limits.js';

const ok = (view: object) => expect(viewViolations(view as Record<string, unknown>)).toEqual([]);

describe('modal builders', () => {
  it('the reject modal requires a reason', () => {
    const v = rejectReasonView({ requestId: 'R1', summary: '<!channel>', privateMetadata: '{}' });
    ok(v);
    expect(JSON.stringify(v)).toContain('&lt;!channel&gt;');
    expect(v.blocks.find((b) => b.block_id === INPUT.rejectReason)).not.toHaveProperty('optional');
  });
});
