/** The question an unknown outcome puts to a person, as Block Kit: ids unique, text escaped, words true. */
import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../../../src/bot/domain/record.js';
import {
  candidateLine,
  settlementLine,
  settlementsBlock,
  parseSettleButtonValue,
  questionBlocks,
  withheldLine,
} from '../../../../src/bot/slack/approvals/person-question.js';
import { ACTION } from '../../../../src/bot/slack/kit/slack-ids.js';
import { limitViolations } from '../support/block-limits.js';

const T = 1_800_000_000_000;
const candidate = (id: string, status = 'pending'): Candidate => ({
  exchangeId: id,
  createdAt: T,
  amount: '100',
  status,
  requestId: null,
  destination: 'OTC <partner>',
});

describe('the question blocks', () => {
  it('"not found": the three buttons, carrying the request and the question time; no promise of deduplication', () => {
    const blocks = questionBlocks({
      requestId: 'R1',
      question: { askedAt: T, kind: 'not_found', candidates: [] },
      what: 'withdrawal',
      currency: 'USDT',
    });
    const ids = blocks.flatMap((b) =>
      ((b as { elements?: { action_id?: string; value?: string }[] }).elements ?? []).map((e) => e.action_id),
    );
    expect(ids).toEqual([ACTION.lookAgain, ACTION.sendAgain, ACTION.markNotSent]);
    expect(JSON.stringify(blocks)).toContain('does not prevent duplicates');
    const value = (blocks[1] as { elements: { value: string }[] }).elements[1]!.value;
    expect(parseSettleButtonValue(value)).toEqual({ requestId: 'R1', askedAt: T });
    expect(limitViolations(blocks)).toEqual([]);
  });

  it('a trade\'s "not found": Look again and Mark as not placed only (a trade is never sent again), words about its client order id', () => {
    const blocks = questionBlocks({
      requestId: 'R1',
      question: { askedAt: T, kind: 'not_found', candidates: [] },
      what: 'order',
      currency: '',
    });
    const ids = blocks.flatMap((b) =>
      ((b as { elements?: { action_id?: string }[] }).elements ?? []).map((e) => e.action_id),
    );
    expect(ids).toEqual([ACTION.lookAgain, ACTION.markNotPlaced]);
    const text = JSON.stringify(blocks);
    expect(text).toContain('client order id');
    expect(text).not.toContain('withdrawal');
    expect(text).not.toContain('Send again');
    expect(limitViolations(blocks)).toEqual([]);
  });

  it('a decision withheld says who decided what, that the bot looked first, and lists what appeared, escaped', () => {
    const line = withheldLine(
      { by: 'U0AAA0001', at: T, action: 'send_again', exchangeId: null, checked: 'x' },
      'appeared',
      [candidate('w-9')],
      'withdrawal',
      'USDT',
    );
    expect(line).toContain('<@U0AAA0001> decided to send it again');
    expect(line).toContain('looked on the exchange first, and did not do it');
    expect(line).toContain('w-9');
    expect(line).toContain('OTC &lt;partner&gt;');
    expect(
      withheldLine(
        { by: 'U0AAA0001', at: T, action: 'mark_not_sent', exchangeId: null, checked: 'x' },
        'found',
        [],
        'order',
        '',
      ),
    ).toContain('mark it as not placed');
  });

  it('"ambiguous": a button per candidate with unique action ids, escaped lines, and "None of these"', () => {
    const blocks = questionBlocks({
      requestId: 'R1',
      question: { askedAt: T, kind: 'ambiguous', candidates: [candidate('w-1'), candidate('w-2', '*done*')] },
      what: 'withdrawal',
      currency: 'USDT',
    });
    const elements = blocks.flatMap(
      (b) => (b as { elements?: { action_id?: string; value?: string }[] }).elements ?? [],
    );
    const ids = elements.map((e) => e.action_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain(ACTION.noneOfThese);
    expect(parseSettleButtonValue(elements[1]!.value)).toEqual({ requestId: 'R1', askedAt: T, exchangeId: 'w-2' });
    const text = JSON.stringify(blocks);
    expect(text).toContain('OTC &lt;partner&gt;');
    expect(text).not.toContain('OTC <partner>');
    expect(limitViolations(blocks)).toEqual([]);
  });

  it('decisions show who decided what and what they checked, escaped; "look again" is not listed', () => {
    const block = settlementsBlock('R1', [
      { by: 'U0AAA0001', at: T, action: 'look_again', exchangeId: null, checked: null },
      { by: 'U0BBB0002', at: T, action: 'send_again', exchangeId: null, checked: 'nothing there <!here>' },
    ]);
    const text = JSON.stringify(block);
    expect(text).toContain('<@U0BBB0002> decided to send it again');
    expect(text).toContain('&lt;!here&gt;');
    expect(text).not.toContain('<@U0AAA0001>');
    expect(settlementLine({ by: 'U3', at: T, action: 'choose', exchangeId: 'w-9', checked: 'x' })).toContain(
      '`w-9` is ours',
    );
    expect(candidateLine(candidate('w-1'), 'USDT', 0)).toMatch(/^1\. 100 USDT · pending/);
  });

  it('lists every candidate however many, over more sections when one cannot hold them', () => {
    const many = Array.from({ length: 20 }, (_, i) => ({
      ...candidate(`w-${String(i).padStart(2, '0')}`),
      destination: 'OTC partner settlement wallet '.repeat(4),
    }));
    const blocks = questionBlocks({
      requestId: 'R1',
      question: { askedAt: T, kind: 'ambiguous', candidates: many },
      what: 'withdrawal',
      currency: 'USDT',
    });
    const text = JSON.stringify(blocks);
    for (const c of many) expect(text).toContain(`\`${c.exchangeId}\``);
    expect(text).toContain('16 more candidates are listed above without a button');
    expect(limitViolations(blocks)).toEqual([]);
  });

  it("shows every decision while they fit, and says how many earlier ones gave way past a context's ten texts", () => {
    const decision = (i: number) => ({
      by: `U0D${String(i).padStart(6, '0')}`,
      at: T,
      action: 'send_again' as const,
      exchangeId: null,
      checked: `${i} `.padEnd(480, 'y'),
    });
    const few = JSON.stringify(
      settlementsBlock(
        'R1',
        Array.from({ length: 8 }, (_, i) => decision(i)),
      ),
    );
    // Eight long decisions are more than the 2,900 characters they used to be cut to.
    for (let i = 0; i < 8; i++) expect(few).toContain(`<@U0D${String(i).padStart(6, '0')}>`);
    expect(few).not.toContain('not shown here');
    const many = settlementsBlock(
      'R1',
      Array.from({ length: 80 }, (_, i) => decision(i)),
    )!;
    const elements = (many as { elements: { text: string }[] }).elements;
    expect(elements).toHaveLength(10);
    const earlier = Number(
      /^(\d+) earlier decisions are not shown here: each is in this message's thread\.$/.exec(elements[0]!.text)![1],
    );
    const shown = Array.from({ length: 80 }, (_, i) => i).filter((i) =>
      JSON.stringify(many).includes(`<@U0D${String(i).padStart(6, '0')}>`),
    );
    expect(shown).toEqual(Array.from({ length: 80 - earlier }, (_, i) => earlier + i));
    expect(limitViolations([many])).toEqual([]);
  });
});
