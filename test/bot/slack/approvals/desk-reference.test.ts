/**
 * What approvers and deciders read of the desk reference and the new questions: the note sent to
 * the exchange as a field of what they approve, one line; a look-alike too close to our send, its
 * time and ours shown; an exchange that cannot be read past the settle window, no "send again".
 */
import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../../../src/bot/domain/record.js';
import { approvalMessage, type ApprovalMessageInput } from '../../../../src/bot/slack/approvals/approval-message.js';
import { questionBlocks } from '../../../../src/bot/slack/approvals/person-question.js';
import { threadPost } from '../../../../src/bot/slack/approvals/thread-status.js';
import { ACTION } from '../../../../src/bot/slack/kit/slack-ids.js';
import { limitViolations } from '../support/block-limits.js';

const T = Date.UTC(2025, 0, 15, 9, 0, 0);

function withdrawal(exchangeNote: string | undefined): ApprovalMessageInput {
  return {
    requestId: 'R6EYET',
    requesterId: 'U0REQ0001',
    createdAt: T,
    request: {
      kind: 'crypto_withdrawal',
      asset: 'USDT',
      network: 'Tron (TRC20)',
      amount: '100',
      fee: '1',
      total: '101',
      destination: { label: 'OTC partner', address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' },
      note: 'Payroll <!channel>',
      ...(exchangeNote === undefined ? {} : { exchangeNote }),
    },
    requiredApprovals: 2,
    approvals: [],
    sandbox: false,
  };
}

const fieldsOf = (payload: ReturnType<typeof approvalMessage>): string[] =>
  (payload.blocks as { fields?: { text: string }[] }[]).flatMap((b) => (b.fields ?? []).map((f) => f.text));

describe('the note sent to the exchange', () => {
  it('is a field of what approvers approve, on one line, escaped', () => {
    const fields = fieldsOf(approvalMessage(withdrawal('Payroll <!channel> · desk R6EYET-1')));
    expect(fields).toContain('*Note sent to the exchange*\n`Payroll &lt;!channel&gt; · desk R6EYET-1`');
    expect(limitViolations(approvalMessage(withdrawal(`${'x'.repeat(199)}… · desk R6EYET-1`)).blocks)).toEqual([]);
  });

  it('is not shown for a request made before the reference (nothing of it is sent)', () => {
    expect(fieldsOf(approvalMessage(withdrawal(undefined))).join('\n')).not.toContain('Note sent to the exchange');
  });
});

const lookAlike: Candidate = {
  exchangeId: 'w-hand',
  createdAt: T - 3_000,
  amount: '100',
  status: 'pending',
  requestId: null,
  destination: 'OTC partner',
};

describe('the new questions', () => {
  it('"unproven": the look-alike with its time, our send\'s time, "Ours" and "None of these"', () => {
    const blocks = questionBlocks({
      requestId: 'R6EYET',
      question: { askedAt: T + 10_000, kind: 'unproven', candidates: [lookAlike] },
      what: 'withdrawal',
      currency: 'USDT',
      sentAt: T,
    });
    const text = JSON.stringify(blocks);
    expect(text).toContain('too close to our send to prove it came after it');
    expect(text).toContain(`our send started <!date^${T / 1_000}^`);
    expect(text).toContain(`created <!date^${(T - 3_000) / 1_000}^`);
    const ids = blocks.flatMap((b) =>
      ((b as { elements?: { action_id?: string }[] }).elements ?? []).map((e) => e.action_id),
    );
    expect(ids).toEqual([`${ACTION.chooseCandidate}:0`, ACTION.noneOfThese, ACTION.lookAgain]);
    expect(limitViolations(blocks)).toEqual([]);
  });

  it('"unreadable": why, and only Look again and Mark as not sent (no send again on a look that proved nothing)', () => {
    const blocks = questionBlocks({
      requestId: 'R6EYET',
      question: {
        askedAt: T,
        kind: 'unreadable',
        candidates: [],
        message: 'The exchange lists more than 2,000 records <x>',
      },
      what: 'withdrawal',
      currency: 'USDT',
    });
    const text = JSON.stringify(blocks);
    expect(text).toContain('cannot read the exchange');
    expect(text).toContain('more than 2,000 records &lt;x&gt;');
    const ids = blocks.flatMap((b) =>
      ((b as { elements?: { action_id?: string }[] }).elements ?? []).map((e) => e.action_id),
    );
    expect(ids).toEqual([ACTION.lookAgain, ACTION.markNotSent]);
  });

  it('the thread says which question it is', () => {
    expect(
      JSON.stringify(
        threadPost({
          type: 'needs_person',
          at: T,
          kind: 'unproven',
          candidates: 1,
          waitedMinutes: 10,
          what: 'withdrawal',
        }),
      ),
    ).toContain('one made by hand just before');
    expect(
      JSON.stringify(
        threadPost({
          type: 'needs_person',
          at: T,
          kind: 'unreadable',
          candidates: 0,
          waitedMinutes: 10,
          what: 'withdrawal',
        }),
      ),
    ).toContain('*Look again* or *Mark as not sent*');
  });
});
