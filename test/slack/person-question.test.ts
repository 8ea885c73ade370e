/** The question an unknown outcome puts to a person, as Block Kit: ids unique, text escaped, words true. */
import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../src/domain/record.js';
import { candidateLine, decisionLine, decisionsBlock, parseDecisionButtonValue, questionBlocks } from '../../src/slack/approvals/person-question.js';
import { ACTION } from '../../src/slack/kit/slack-ids.js';
import { limitViolations } from './support/block-limits.js';

const T = 1_800_000_000_000;
const candidate = (id: string, status = 'pending'): Candidate => ({ exchangeId: id, createdAt: T, amount: '100', status, requestId: null, destination: 'OTC <partner>' });

describe('the question blocks', () => {
  it('"not found": the three buttons, carrying the request and the question time; no promise of deduplication', () => {
    const blocks = questionBlocks({ requestId: 'R1', question: { askedAt: T, kind: 'not_found', candidates: [] }, what: 'withdrawal', currency: 'USDT' });
    const ids = blocks.flatMap((b) => ((b as { elements?: { action_id?: string; value?: string }[] }).elements ?? []).map((e) => e.action_id));
    expect(ids).toEqual([ACTION.lookAgain, ACTION.sendAgain, ACTION.markNotSent]);
    expect(JSON.stringify(blocks)).toContain('does not prevent duplicates');
    const value = (blocks[1] as { elements: { value: string }[] }).elements[1]!.value;
    expect(parseDecisionButtonValue(value)).toEqual({ requestId: 'R1', askedAt: T });
    expect(limitViolations(blocks)).toEqual([]);
  });

  it('"ambiguous": a button per candidate with unique action ids, escaped lines, and "None of these"', () => {
    const blocks = questionBlocks({ requestId: 'R1', question: { askedAt: T, kind: 'ambiguous', candidates: [candidate('w-1'), candidate('w-2', '*done*')] }, what: 'withdrawal', currency: 'USDT' });
    const elements = blocks.flatMap((b) => (b as { elements?: { action_id?: string; value?: string }[] }).elements ?? []);
    const ids = elements.map((e) => e.action_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain(ACTION.noneOfThese);
    expect(parseDecisionButtonValue(elements[1]!.value)).toEqual({ requestId: 'R1', askedAt: T, exchangeId: 'w-2' });
    const text = JSON.stringify(blocks);
    expect(text).toContain('OTC &lt;partner&gt;');
    expect(text).not.toContain('OTC <partner>');
    expect(limitViolations(blocks)).toEqual([]);
  });

  it('decisions show who decided what and what they checked, escaped; "look again" is not listed', () => {
    const block = decisionsBlock('R1', [
      { by: 'U0AAA0001', at: T, action: 'look_again', exchangeId: null, checked: null },
      { by: 'U0BBB0002', at: T, action: 'send_again', exchangeId: null, checked: 'nothing there <!here>' },
    ]);
    const text = JSON.stringify(block);
    expect(text).toContain('<@U0BBB0002> decided to send it again');
    expect(text).toContain('&lt;!here&gt;');
    expect(text).not.toContain('<@U0AAA0001>');
    expect(decisionLine({ by: 'U3', at: T, action: 'choose', exchangeId: 'w-9', checked: 'x' })).toContain('`w-9` is ours');
    expect(candidateLine(candidate('w-1'), 'USDT', 0)).toMatch(/^1\. 100 USDT · pending/);
  });
});

