/** The /trade modal's builder: its inputs, the quote, and the pairs hint within Slack's limits. */
import { describe, expect, it } from 'vitest';
import { tradeView } from '../../../../src/bot/slack/trades/trade-modal.js';
import { BLOCK, INPUT } from '../../../../src/bot/slack/kit/slack-ids.js';
import { viewViolations } from '../support/block-limits.js';

const NOW = Date.UTC(2024, 4, 1, 12);
const ok = (view: object) => expect(viewViolations(view as Record<string, unknown>)).toEqual([]);
const ids = (view: { blocks: { block_id?: string }[] }) => view.blocks.map((b) => b.block_id).filter(Boolean);

describe('modal builders', () => {
  it('the trade form asks for a price or a slippage and shows the quote', () => {
    const v = tradeView({
      knownPairs: ['BTC-SGD'],
      pair: 'BTC-SGD',
      side: 'sell',
      quantityIn: 'base',
      paymentMethods: ['user_balance'],
      quote: { pair: 'BTC-SGD', side: 'sell', price: '90000', expiresAt: NOW, quantity: '1', quantityCurrency: 'BTC' },
      approvalHint: 'The order executes later, after 2 approvals, at a fresh quote within this limit.',
      privateMetadata: '{}',
      sandbox: true,
    });
    ok(v);
    expect(ids(v)).toEqual(
      expect.arrayContaining([
        INPUT.tradePair,
        INPUT.tradeSide,
        INPUT.tradeQuantity,
        INPUT.tradeQuantityCurrency,
        INPUT.tradePaymentMethod,
        INPUT.tradeLimitPrice,
        INPUT.tradeSlippage,
        BLOCK.tradeQuote,
      ]),
    );
    expect(JSON.stringify(v)).toContain('BTC (base)');
  });

  it("the trade form's hint names every known pair it can hold, and counts the rest", () => {
    const hintOf = (knownPairs: string[]) => {
      const v = tradeView({
        knownPairs,
        paymentMethods: ['user_balance'],
        approvalHint: 'The order executes later, after 2 approvals, at a fresh quote within this limit.',
        privateMetadata: '{}',
        sandbox: false,
      });
      ok(v);
      return (v.blocks as { block_id?: string; hint?: { text: string } }[]).find((b) => b.block_id === INPUT.tradePair)!
        .hint!.text;
    };
    const forty = Array.from({ length: 40 }, (_, i) => `C${String(i).padStart(2, '0')}-SGD`);
    // Forty used to be cut to thirty without a word.
    expect(hintOf(forty)).toBe(`Pairs: ${forty.join(', ')}`);
    const many = Array.from({ length: 400 }, (_, i) => `C${String(i).padStart(3, '0')}-SGD`);
    const hint = hintOf(many);
    const named = many.filter((p) => hint.includes(p));
    expect(hint).toBe(`Pairs: ${named.join(', ')} and ${400 - named.length} more`);
    expect(hint.length).toBeLessThanOrEqual(2_000);
  });
});
