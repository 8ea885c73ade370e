/**
 * What approvers read is what is true: a requester's note and an address-book label with bidi
 * controls, zero-width characters, newlines, mrkdwn and look-alike letters, each drawn through the
 * real builders (approval message, App Home, thread, DM, withdrawal form, listings).
 */
import { describe, expect, it } from 'vitest';
import { approvalMessage, type ApprovalMessageInput } from '../../../../src/bot/slack/approvals/approval-message.js';
import { homeView } from '../../../../src/bot/slack/home/home-view.js';
import { threadPost } from '../../../../src/bot/slack/approvals/thread-status.js';
import { verdictDm } from '../../../../src/bot/slack/approvals/requester-dms.js';
import { cryptoWithdrawView } from '../../../../src/bot/slack/withdrawals/withdraw-modal.js';
import { withdrawalLine } from '../../../../src/bot/slack/listings/listing-lines.js';
import { mixesScripts, oneLine, shownLabel, visibleText } from '../../../../src/bot/slack/kit/display-text.js';
import { BLOCK } from '../../../../src/bot/slack/kit/slack-ids.js';
import { limitViolations } from '../support/block-limits.js';
import { cryptoRequest, T0 } from '../support/approval-inputs.js';
import type { CryptoWithdrawalView } from '../../../../src/bot/slack/approvals/request-view.js';

const RLO = '\u202E';
const PDF = '\u202C';
const ZWSP = '\u200B';
/** "Cold wallet" with a Cyrillic "о" (U+043E). */
const LOOKALIKE = 'C\u043Eld wallet';
/** Every character that must never reach a person. */
const HIDDEN = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\u2060\uFEFF]/u;

function withdrawal(label: string, note: string | null): ApprovalMessageInput {
  const base = cryptoRequest();
  return {
    ...base,
    request: {
      ...(base.request as CryptoWithdrawalView),
      destination: { label, address: 'bc1qrealdestination000000000000000000000' },
      note,
    },
  };
}

type Block = {
  type: string;
  block_id?: string;
  text?: { type: string; text: string; emoji?: boolean };
  fields?: { text: string }[];
  elements?: { type: string; text: string }[];
};

/** Every text object of the blocks with its type, in order. */
function texts(node: unknown): { type: string; text: string }[] {
  if (Array.isArray(node)) return node.flatMap(texts);
  if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    const own =
      (o.type === 'mrkdwn' || o.type === 'plain_text') && typeof o.text === 'string'
        ? [{ type: o.type, text: o.text }]
        : [];
    return [...own, ...Object.values(o).flatMap(texts)];
  }
  return [];
}

/** The note as a hostile requester writes it: a reversed amount, a fake heading and address, a ping. */
const HOSTILE_NOTE = `pay ${RLO}0001${PDF} BTC as agreed${ZWSP}\n\n\n\n*Destination*\n\`bc1qattacker0000000000000000000000000000\`\n:white_check_mark: *Approved by <@U0BOSS001>* <!channel>`;

describe('the sanitising every builder uses', () => {
  it('drops bidi controls and zero-width characters, and keeps the words', () => {
    expect(visibleText(`pay ${RLO}0001${PDF} BTC`)).toBe('pay 0001 BTC');
    expect(visibleText(`Cold${ZWSP}\u200D\u2060\uFEFFwallet`)).toBe('Coldwallet');
    expect(visibleText('a\u2067b\u2069\u200Ec\u200F')).toBe('abc');
  });

  it('collapses a label to one line, whatever the line breaks', () => {
    expect(oneLine('Cold wallet\n*Destination*\r\nbc1qattacker\u2028x')).toBe(
      'Cold wallet *Destination* bc1qattacker x',
    );
  });

  it('marks a label mixing scripts as browsers mark IDN domains (UTS #39 highly restrictive)', () => {
    expect(mixesScripts(LOOKALIKE)).toBe(true);
    expect(mixesScripts('pаypal')).toBe(true); // Cyrillic "а"
    expect(mixesScripts('Ledger ωallet')).toBe(true); // Greek omega
    expect(shownLabel(LOOKALIKE)).toBe(`${LOOKALIKE} (⚠ mixes Latin and Cyrillic letters: look-alike characters?)`);
    // One script, or Latin with Chinese, Japanese or Korean script sets: not marked.
    for (const fine of [
      'Cold wallet 2',
      'Холодный кошелёк',
      'Ψυχρό πορτοφόλι',
      '冷钱包 wallet',
      '東京オフィス wallet',
      '콜드 wallet',
      'Café Zürich – 1',
    ]) {
      expect(mixesScripts(fine), fine).toBe(false);
      expect(shownLabel(fine)).toBe(fine);
    }
  });
});

describe('the approval message with a hostile note and label', () => {
  const msg = approvalMessage(withdrawal(`Cold${ZWSP} wallet\n*Destination*\nbc1qattacker`, HOSTILE_NOTE));
  const blocks = msg.blocks as Block[];

  it('carries no bidi control or zero-width character anywhere', () => {
    expect(HIDDEN.test(JSON.stringify(msg))).toBe(false);
    expect(JSON.stringify(msg)).toContain('pay 0001 BTC');
  });

  it('shows the note after every field, as quoted plain text that draws no bold, mention or emoji', () => {
    const fieldsAt = blocks.findIndex((b) => b.block_id === BLOCK.approvalSummary);
    const noteAt = blocks.findIndex((b) => b.text?.type === 'plain_text' && b.text.text.includes('pay 0001 BTC'));
    expect(fieldsAt).toBeGreaterThan(-1);
    expect(noteAt).toBeGreaterThan(fieldsAt);
    const note = blocks[noteAt]!.text!;
    expect(note.emoji).toBe(false);
    expect(note.text.split('\n').every((line) => line.startsWith('│ '))).toBe(true);
    // Runs of empty lines are cut to one, so a note cannot push its fake heading out of sight.
    expect(note.text).not.toContain('│ \n│ \n│ ');
    expect(blocks[noteAt - 1]?.type).toBe('context');
    expect(texts(blocks[noteAt - 1]).map((t) => t.text)).toEqual(['*Note from the requester, as typed*']);
    // The attacker's address appears only inside the plain-text quote, never in mrkdwn.
    const mrkdwn = texts(blocks).filter((t) => t.type === 'mrkdwn');
    expect(mrkdwn.some((t) => t.text.includes('bc1qattacker0'))).toBe(false);
    // The label's "*Destination*" sits in a code span (drawn literally), not as a heading.
    expect(mrkdwn.filter((t) => /(^|\n)\*Destination\*/.test(t.text))).toHaveLength(1);
  });

  it('keeps the label on one line in its field, with no heading of its own', () => {
    const destination = blocks
      .find((b) => b.block_id === BLOCK.approvalSummary)!
      .fields!.find((f) => f.text.startsWith('*Destination*'))!;
    expect(destination.text.split('\n')[1]).toBe('`Cold wallet *Destination* bc1qattacker`');
    expect(destination.text).toContain('`bc1qrealdestination000000000000000000000`');
  });

  it('stays within Block Kit limits', () => {
    expect(limitViolations(msg.blocks)).toEqual([]);
  });

  it('matches the snapshot', () => {
    expect(msg).toMatchSnapshot();
  });
});

describe('a look-alike label is marked wherever it is drawn', () => {
  const mark = 'mixes Latin and Cyrillic letters';

  it('in the approval message: header, destination field and fallback text', () => {
    const msg = approvalMessage(withdrawal(LOOKALIKE, null));
    const blocks = msg.blocks as Block[];
    expect(blocks.find((b) => b.type === 'header')?.text?.text).toContain(mark);
    expect(JSON.stringify(blocks.find((b) => b.block_id === BLOCK.approvalSummary))).toContain(mark);
    expect(msg.text).toContain(mark);
  });

  it('on App Home, in the requester DM and in the thread of an exchange message with bidi controls', () => {
    const r = withdrawal(LOOKALIKE, HOSTILE_NOTE);
    const home = JSON.stringify(
      homeView({
        userId: 'U0APP0001',
        waitingForMe: [r],
        myOpen: [],
        recent: [],
        isApprover: true,
        isRequester: false,
        isDeskMember: true,
        at: T0,
        sandbox: false,
      }),
    );
    expect(home).toContain(mark);
    expect(HIDDEN.test(home)).toBe(false);
    const dm = JSON.stringify(
      verdictDm({
        requestId: r.requestId,
        request: r.request,
        verdict: { outcome: 'rejected', by: 'U0APP0001', at: T0, reason: `no ${RLO}yaw${PDF}` },
      }),
    );
    expect(dm).toContain(mark);
    expect(HIDDEN.test(dm)).toBe(false);
    const thread = JSON.stringify(
      threadPost({ type: 'failed', at: T0, message: `insufficient ${RLO}ecnalab${PDF}${ZWSP}` }),
    );
    expect(HIDDEN.test(thread)).toBe(false);
  });

  it("in the withdrawal form's destination choice and in the withdrawals listing", () => {
    const view = cryptoWithdrawView({
      entries: [{ id: 1, asset: 'BTC', network: 'Bitcoin', precision: 8, fee: '0.0005', available: '2' }],
      selectedEntryId: 1,
      destinations: [
        { id: 'A1', label: `${LOOKALIKE}\n*x*`, address: 'bc1qrealdestination000000000000000000000', verified: true },
      ],
      now: T0,
      privateMetadata: '{}',
      sandbox: false,
    });
    const select = JSON.stringify(view.blocks).match(
      /"action_id":"withdraw_destination"[^]*?"options":\[\{"text":\{"type":"plain_text","text":"([^"]*)"/,
    )?.[1];
    expect(select).toBe(`⚠ ${LOOKALIKE} *x* · bc1qre…0000`);
    expect(JSON.stringify(view.blocks)).toContain(`${mark}: look-alike characters? · verified`);
    const line = withdrawalLine({
      id: '1',
      createdAt: T0,
      amount: '1',
      asset: 'BTC',
      label: LOOKALIKE,
      address: 'bc1qx',
      status: 'completed',
      linkExplorer: null,
      travelRuleStatus: null,
    });
    expect(line).toContain(mark);
  });
});
