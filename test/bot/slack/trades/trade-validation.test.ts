/**
 * The trade form's checks: plain-words field errors under the input at fault. The amount rules are
 * tested in the domain (test/bot/domain/request.test.ts); here the form only shows its answer.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../../src/bot/slack/kit/limits.js';
import type { StateValues } from '../../../../src/bot/slack/kit/view-state.js';
import { INPUT } from '../../../../src/bot/slack/kit/slack-ids.js';
import { checkLimitPrice, checkTradeQuantity, limitFromSlippage } from '../../../../src/bot/domain/request.js';
import type { AmountCheck } from '../../../../src/bot/domain/amount.js';
import {
  checkTrade,
  checkTradeLimit,
  parsePair,
  parseSlippage,
} from '../../../../src/bot/slack/trades/trade-validation.js';
import { quoteTerms, tradeState } from '../../../../src/bot/slack/trades/trade-form.js';

/** The domain's sentence for an amount it refuses (the test fails if it accepts it). */
const refusal = (check: AmountCheck): string => {
  if (check.ok) throw new Error(`the domain accepted ${check.amount}`);
  return check.error;
};

describe('trade', () => {
  const pairs = ['BTC-SGD', 'ETH-SGD', 'BTC-USDT'];
  it('reads pairs loosely and names the known ones when unknown', () => {
    expect(parsePair('btc/sgd', pairs)).toEqual({ ok: true, pair: 'BTC-SGD' });
    expect(parsePair(' eth sgd ', pairs)).toEqual({ ok: true, pair: 'ETH-SGD' });
    expect(parsePair('btcusdt', pairs)).toEqual({ ok: true, pair: 'BTC-USDT' });
    expect(parsePair('DOGE-SGD', pairs)).toEqual({
      ok: false,
      error: 'Unknown pair DOGE-SGD. The desk trades BTC-SGD, ETH-SGD, BTC-USDT.',
    });
    expect(parsePair('BTC-BTC', [])).toEqual({ ok: false, error: 'The two sides of a pair must differ.' });
    expect(parsePair('<!channel>', pairs)).toMatchObject({ ok: false });
  });

  it('names as many known pairs as a field error holds, and says how many more and where they are', () => {
    const many = Array.from({ length: 60 }, (_, i) => `C${String(i).padStart(2, '0')}-SGD`);
    const r = parsePair('DOGE-SGD', many);
    if (r.ok) throw new Error('expected an error');
    const named = many.filter((p) => r.error.includes(p));
    expect(named.length).toBeGreaterThan(10);
    expect(named).toEqual(many.slice(0, named.length));
    expect(r.error).toContain(`${named.at(-1)} and ${60 - named.length} more. The hint under Pair lists them.`);
    expect(r.error.length).toBeLessThanOrEqual(LIMITS.fieldError);
  });

  it('reads slippage as basis points', () => {
    expect(parseSlippage('0.5')).toEqual({ ok: true, bps: 50 });
    expect(parseSlippage('1.25 %')).toEqual({ ok: true, bps: 125 });
    expect(parseSlippage('0')).toMatchObject({ ok: false });
    expect(parseSlippage('0.125')).toEqual({
      ok: false,
      error: 'Slippage goes to two decimals (0.01% steps), e.g. 0.25.',
    });
    expect(parseSlippage('15')).toMatchObject({ ok: false, error: expect.stringContaining('over 10%') });
    expect(parseSlippage('lots')).toMatchObject({ ok: false });
  });

  it('turns slippage into a ceiling for a buy and a floor for a sell, as the engine will (domain limitFromSlippage)', () => {
    expect(checkTradeLimit({ side: 'buy', slippageText: '0.5', indicativePrice: '90000', counter: 'SGD' })).toEqual({
      ok: true,
      value: { limitPrice: '90450', slippageBps: 50 },
    });
    expect(checkTradeLimit({ side: 'sell', slippageText: '0.5', indicativePrice: '90000', counter: 'SGD' })).toEqual({
      ok: true,
      value: { limitPrice: limitFromSlippage('sell', '90000', 50), slippageBps: 50 },
    });
    expect(checkTradeLimit({ side: 'buy', slippageText: '0.5', counter: 'SGD' })).toEqual({
      ok: false,
      errors: { [INPUT.tradeSlippage]: expect.stringContaining('Get a quote first') },
    });
  });

  it('refuses a limit on the wrong side of the price, far from it, neither or both', () => {
    expect(checkTradeLimit({ side: 'buy', limitText: '89000', indicativePrice: '90000', counter: 'SGD' })).toEqual({
      ok: false,
      errors: {
        [INPUT.tradeLimitPrice]:
          'A buy limit under the indicative price (90,000 SGD) would not execute. Give a higher price or a slippage.',
      },
    });
    expect(
      checkTradeLimit({ side: 'sell', limitText: '91000', indicativePrice: '90000', counter: 'SGD' }),
    ).toMatchObject({ ok: false });
    expect(
      checkTradeLimit({ side: 'buy', limitText: '900000', indicativePrice: '90000', counter: 'SGD' }),
    ).toMatchObject({ ok: false, errors: { [INPUT.tradeLimitPrice]: expect.stringContaining('typo') } });
    expect(checkTradeLimit({ side: 'buy', counter: 'SGD' })).toEqual({
      ok: false,
      errors: { [INPUT.tradeLimitPrice]: 'Give a worst acceptable price, or a slippage below.' },
    });
    expect(checkTradeLimit({ side: 'buy', limitText: '1', slippageText: '1', counter: 'SGD' })).toEqual({
      ok: false,
      errors: { [INPUT.tradeSlippage]: 'Give a worst price or a slippage, not both.' },
    });
    expect(checkTradeLimit({ side: 'buy', limitText: 'cheap', counter: 'SGD' })).toMatchObject({
      ok: false,
      errors: { [INPUT.tradeLimitPrice]: expect.stringContaining('not a number') },
    });
  });

  it('checks the whole trade form at once', () => {
    const r = checkTrade({
      pairText: 'FOO-BAR',
      knownPairs: pairs,
      quantityText: 'x',
      quantityIn: 'base',
      paymentMethod: 'user_balance',
      side: 'buy',
      counter: 'SGD',
    });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(Object.keys(r.errors).sort()).toEqual(
        [INPUT.tradeLimitPrice, INPUT.tradePair, INPUT.tradeQuantity].sort(),
      );
    const ok = checkTrade({
      pairText: 'btc-sgd',
      knownPairs: pairs,
      quantityText: '0.5',
      quantityIn: 'counter',
      paymentMethod: 'user_balance',
      side: 'sell',
      slippageText: '1',
      indicativePrice: '90000',
      counter: '',
    });
    expect(ok).toEqual({
      ok: true,
      value: {
        pair: 'BTC-SGD',
        side: 'sell',
        quantity: '0.5',
        quantityCurrency: 'SGD',
        paymentMethod: 'user_balance',
        limitPrice: '89100',
        slippageBps: 100,
      },
    });
  });
});

describe("trade amounts: the form shows the domain's answer under the field", () => {
  const pairs = ['BTC-SGD'];
  const form = {
    pairText: 'BTC-SGD',
    knownPairs: pairs,
    quantityIn: 'base' as const,
    paymentMethod: 'user_balance',
    side: 'buy' as const,
    limitText: '91000',
    indicativePrice: '90000',
    counter: '',
  };

  it('a quantity with a ninth decimal is refused with the rounded-down value offered, as the engine refuses it', () => {
    const r = checkTrade({ ...form, quantityText: '0.123456789' });
    expect(r).toEqual({
      ok: false,
      errors: { [INPUT.tradeQuantity]: refusal(checkTradeQuantity('0.123456789', 'BTC')) },
    });
    expect(r.ok || r.errors[INPUT.tradeQuantity]).toBe(
      'BTC takes at most 8 decimals. Did you mean 0.12345678? (rounded down)',
    );
    // Nor is a quote asked for it.
    const values = {
      [INPUT.tradePair]: { [INPUT.tradePair]: { type: 'plain_text_input', value: 'BTC-SGD' } },
      [INPUT.tradeQuantity]: { [INPUT.tradeQuantity]: { type: 'plain_text_input', value: '0.123456789' } },
    } as StateValues;
    expect(quoteTerms(tradeState(values), pairs)).toBeUndefined();
  });

  it('a quantity and a price are taken as the domain reads them', () => {
    expect(checkTrade({ ...form, quantityText: '.50', limitText: '91000.0' })).toMatchObject({
      ok: true,
      value: { quantity: '0.5', limitPrice: '91000' },
    });
    expect(checkTradeLimit({ side: 'buy', limitText: '0.1234567890123456789', counter: 'SGD' })).toEqual({
      ok: false,
      errors: { [INPUT.tradeLimitPrice]: refusal(checkLimitPrice('0.1234567890123456789', 'SGD')) },
    });
  });
});
