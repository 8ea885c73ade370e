/**
 * Modal input validation: plain-words field errors under the input at fault. The amount rules are
 * tested in the domain (test/bot/domain/amount.test.ts, test/bot/domain/request.test.ts); here the forms
 * are only checked to show the domain's answer, where the user typed.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src/bot/slack/kit/limits.js';
import { checkDeclaration } from '../../../src/bot/engine/compliance/declaration.js';
import { counterpartyBody } from '../../../src/bot/exchange/adapter/counterparty-body.js';
import { errorsByInput } from '../../../src/bot/slack/compliance/form-fields.js';
import { counterpartyValues } from '../../../src/bot/slack/compliance/counterparty-form.js';
import type { StateValues } from '../../../src/bot/slack/kit/view-state.js';
import { BLOCK, dynamicBlockId, INPUT } from '../../../src/bot/slack/kit/slack-ids.js';
import { checkLimitPrice, checkTradeQuantity, cryptoWithdrawalAmount, fiatWithdrawalAmount, limitFromSlippage } from '../../../src/bot/domain/request.js';
import type { AmountCheck } from '../../../src/bot/domain/amount.js';
import { destinationProblem } from '../../../src/bot/slack/withdrawals/destination-check.js';
import { checkTrade, checkTradeLimit, parsePair, parseSlippage } from '../../../src/bot/slack/trades/trade-validation.js';
import { quoteTerms, tradeState } from '../../../src/bot/slack/trades/trade-form.js';
import { checkCryptoWithdrawal, checkFiatWithdrawal } from '../../../src/bot/slack/withdrawals/withdraw-validation.js';
import { renderWithdrawForm } from '../../../src/bot/slack/withdrawals/withdraw-form.js';

/** The domain's sentence for an amount it refuses (the test fails if it accepts it). */
const refusal = (check: AmountCheck): string => {
  if (check.ok) throw new Error(`the domain accepted ${check.amount}`);
  return check.error;
};

describe('destinations', () => {
  const now = Date.UTC(2024, 4, 1, 12);
  it('refuses unverified addresses and those in cooldown, saying until when', () => {
    expect(destinationProblem({ verified: false }, now)).toContain('not verified');
    expect(destinationProblem({ verified: true, cooldownUntil: now + 2 * 3600_000 + 5 * 60_000 }, now)).toBe(
      'This address is in its withdrawal cooldown for another 2 h 5 min. Choose another address or ask again then.',
    );
    expect(destinationProblem({ verified: true, cooldownUntil: now - 1 }, now)).toBeUndefined();
    expect(destinationProblem({ verified: true, cooldownUntil: null }, now)).toBeUndefined();
  });
});

describe('checkCryptoWithdrawal', () => {
  const now = Date.UTC(2024, 4, 1, 12);
  const entry = { id: 7, asset: 'BTC', precision: 8, fee: '0.0005', minimum: '0.001', available: '1.2' };
  /** The entry as the domain's amount rule reads it. */
  const facts = { asset: 'BTC', precision: 8, withdrawalFee: '0.0005', minimumWithdrawal: '0.001' };
  const amountError = (amountText: string) => {
    const r = checkCryptoWithdrawal({ entry, destination: { id: 'd1', verified: true }, amountText, now });
    return r.ok ? undefined : r.errors[INPUT.withdrawAmount];
  };

  it('shows the domain\'s answer under the amount: too many decimals refused with the rounded-down value, the minimum, the balance', () => {
    expect(amountError('1.123456789')).toBe(refusal(cryptoWithdrawalAmount(facts, '1.123456789')));
    expect(amountError('1.123456789')).toBe('BTC takes at most 8 decimals. Did you mean 1.12345678? (rounded down)');
    expect(amountError('0.0009')).toBe(refusal(cryptoWithdrawalAmount(facts, '0.0009')));
    expect(amountError('1.2')).toBe(refusal(cryptoWithdrawalAmount(facts, '1.2', '1.2')));
    expect(amountError('abc')).toBe(refusal(cryptoWithdrawalAmount(facts, 'abc')));
    // An entry without a minimum has none on either side.
    const { minimum: _minimum, ...noMinimum } = entry;
    expect(checkCryptoWithdrawal({ entry: noMinimum, destination: { id: 'd1', verified: true }, amountText: '0.0009', now })).toMatchObject({ ok: true, value: { amount: '0.0009' } });
  });

  it('puts each error under its own field', () => {
    const r = checkCryptoWithdrawal({ entry, destination: { id: 'd1', verified: false }, amountText: '5', now });
    expect(r).toEqual({
      ok: false,
      errors: {
        [dynamicBlockId.withdrawDestination(7)]: expect.stringContaining('not verified'),
        [INPUT.withdrawAmount]: '5 BTC plus the 0.0005 BTC fee is 5.0005 BTC, more than the 1.2 BTC available.',
      },
    });
    expect(checkCryptoWithdrawal({ entry: undefined, destination: undefined, amountText: '1', now })).toEqual({ ok: false, errors: { [INPUT.withdrawEntry]: 'Choose the asset and network.' } });
  });
  it('returns the normalized request when everything holds', () => {
    const r = checkCryptoWithdrawal({ entry, destination: { id: 'd1', verified: true }, amountText: '0.50', note: '  hi ', purpose: '', now });
    expect(r).toEqual({ ok: true, value: { cryptoCurrencyId: 7, destinationId: 'd1', amount: '0.5', fee: '0.0005', total: '0.5005', note: 'hi' } });
    // The amount, fee and total are the domain's, not worked out again here.
    const domain = cryptoWithdrawalAmount(facts, '0.50', '1.2');
    expect(r.ok && { amount: r.value.amount, fee: r.value.fee, total: r.value.total }).toEqual(domain.ok && { amount: domain.amount, fee: domain.fee, total: domain.total });
  });

  it('the live summary under the amount shows the domain\'s amount, fee and total, or its refusal', () => {
    const data = { kind: 'crypto' as const, entries: [{ ...entry, network: 'Bitcoin' }], destinations: { 7: [] } };
    const summaryOf = (amount: string) => {
      const values = { [INPUT.withdrawEntry]: { [INPUT.withdrawEntry]: { type: 'static_select', selected_option: { value: '7' } } }, [INPUT.withdrawAmount]: { [INPUT.withdrawAmount]: { type: 'plain_text_input', value: amount } } } as StateValues;
      const block = renderWithdrawForm(data, values, { now, sandbox: false, privateMetadata: '{}' }).blocks.find((b) => b.block_id === BLOCK.withdrawSummary) as { text?: { text: string } } | undefined;
      return block?.text?.text;
    };
    expect(summaryOf('0.50')).toBe('Amount *0.5 BTC* + fee 0.0005 BTC = total *0.5005 BTC*');
    expect(summaryOf('1.123456789')).toBe(`:warning: ${refusal(cryptoWithdrawalAmount(facts, '1.123456789'))}`);
  });
});

describe('checkFiatWithdrawal', () => {
  const sgd = { currency: 'SGD', fee: '5', minimum: '100', maximum: '200000', available: '1000' };
  it('shows the domain\'s answer for limits and two decimals under the amount', () => {
    expect(checkFiatWithdrawal({ currency: sgd, bankAccountId: 42, amountText: '50' })).toEqual({ ok: false, errors: { [INPUT.fiatAmount]: refusal(fiatWithdrawalAmount(sgd, '50')) } });
    expect(checkFiatWithdrawal({ currency: sgd, bankAccountId: 42, amountText: '50' })).toEqual({ ok: false, errors: { [INPUT.fiatAmount]: 'The minimum is 100 SGD.' } });
    expect(checkFiatWithdrawal({ currency: { ...sgd, available: '1000000' }, bankAccountId: 42, amountText: '200000.01' })).toEqual({ ok: false, errors: { [INPUT.fiatAmount]: refusal(fiatWithdrawalAmount(sgd, '200000.01')) } });
    expect(checkFiatWithdrawal({ currency: sgd, bankAccountId: 42, amountText: '100.005' })).toEqual({
      ok: false,
      errors: { [INPUT.fiatAmount]: refusal(fiatWithdrawalAmount(sgd, '100.005')) },
    });
    expect(checkFiatWithdrawal({ currency: sgd, bankAccountId: 42, amountText: '100.005' })).toEqual({
      ok: false,
      errors: { [INPUT.fiatAmount]: 'SGD takes at most 2 decimals. Did you mean 100? (rounded down)' },
    });
    expect(checkFiatWithdrawal({ currency: sgd, bankAccountId: undefined, amountText: '100' })).toEqual({ ok: false, errors: { [dynamicBlockId.fiatBank('SGD')]: 'Choose a bank account.' } });
    expect(checkFiatWithdrawal({ currency: sgd, bankAccountId: 42, amountText: '995' })).toMatchObject({ ok: true, value: { amount: '995', total: '1000' } });
  });
});

describe('trade', () => {
  const pairs = ['BTC-SGD', 'ETH-SGD', 'BTC-USDT'];
  it('reads pairs loosely and names the known ones when unknown', () => {
    expect(parsePair('btc/sgd', pairs)).toEqual({ ok: true, pair: 'BTC-SGD' });
    expect(parsePair(' eth sgd ', pairs)).toEqual({ ok: true, pair: 'ETH-SGD' });
    expect(parsePair('btcusdt', pairs)).toEqual({ ok: true, pair: 'BTC-USDT' });
    expect(parsePair('DOGE-SGD', pairs)).toEqual({ ok: false, error: 'Unknown pair DOGE-SGD. The desk trades BTC-SGD, ETH-SGD, BTC-USDT.' });
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
    expect(parseSlippage('0.125')).toEqual({ ok: false, error: 'Slippage goes to two decimals (0.01% steps), e.g. 0.25.' });
    expect(parseSlippage('15')).toMatchObject({ ok: false, error: expect.stringContaining('over 10%') });
    expect(parseSlippage('lots')).toMatchObject({ ok: false });
  });

  it('turns slippage into a ceiling for a buy and a floor for a sell, as the engine will (domain limitFromSlippage)', () => {
    expect(checkTradeLimit({ side: 'buy', slippageText: '0.5', indicativePrice: '90000', counter: 'SGD' })).toEqual({ ok: true, value: { limitPrice: '90450', slippageBps: 50 } });
    expect(checkTradeLimit({ side: 'sell', slippageText: '0.5', indicativePrice: '90000', counter: 'SGD' })).toEqual({ ok: true, value: { limitPrice: limitFromSlippage('sell', '90000', 50), slippageBps: 50 } });
    expect(checkTradeLimit({ side: 'buy', slippageText: '0.5', counter: 'SGD' })).toEqual({ ok: false, errors: { [INPUT.tradeSlippage]: expect.stringContaining('Get a quote first') } });
  });

  it('refuses a limit on the wrong side of the price, far from it, neither or both', () => {
    expect(checkTradeLimit({ side: 'buy', limitText: '89000', indicativePrice: '90000', counter: 'SGD' })).toEqual({
      ok: false,
      errors: { [INPUT.tradeLimitPrice]: 'A buy limit under the indicative price (90,000 SGD) would not execute. Give a higher price or a slippage.' },
    });
    expect(checkTradeLimit({ side: 'sell', limitText: '91000', indicativePrice: '90000', counter: 'SGD' })).toMatchObject({ ok: false });
    expect(checkTradeLimit({ side: 'buy', limitText: '900000', indicativePrice: '90000', counter: 'SGD' })).toMatchObject({ ok: false, errors: { [INPUT.tradeLimitPrice]: expect.stringContaining('typo') } });
    expect(checkTradeLimit({ side: 'buy', counter: 'SGD' })).toEqual({ ok: false, errors: { [INPUT.tradeLimitPrice]: 'Give a worst acceptable price, or a slippage below.' } });
    expect(checkTradeLimit({ side: 'buy', limitText: '1', slippageText: '1', counter: 'SGD' })).toEqual({ ok: false, errors: { [INPUT.tradeSlippage]: 'Give a worst price or a slippage, not both.' } });
    expect(checkTradeLimit({ side: 'buy', limitText: 'cheap', counter: 'SGD' })).toMatchObject({ ok: false, errors: { [INPUT.tradeLimitPrice]: expect.stringContaining('not a number') } });
  });

  it('checks the whole trade form at once', () => {
    const r = checkTrade({ pairText: 'FOO-BAR', knownPairs: pairs, quantityText: 'x', quantityIn: 'base', paymentMethod: 'user_balance', side: 'buy', counter: 'SGD' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.errors).sort()).toEqual([INPUT.tradeLimitPrice, INPUT.tradePair, INPUT.tradeQuantity].sort());
    const ok = checkTrade({ pairText: 'btc-sgd', knownPairs: pairs, quantityText: '0.5', quantityIn: 'counter', paymentMethod: 'user_balance', side: 'sell', slippageText: '1', indicativePrice: '90000', counter: '' });
    expect(ok).toEqual({ ok: true, value: { pair: 'BTC-SGD', side: 'sell', quantity: '0.5', quantityCurrency: 'SGD', paymentMethod: 'user_balance', limitPrice: '89100', slippageBps: 100 } });
  });
});

describe('trade amounts: the form shows the domain\'s answer under the field', () => {
  const pairs = ['BTC-SGD'];
  const form = { pairText: 'BTC-SGD', knownPairs: pairs, quantityIn: 'base' as const, paymentMethod: 'user_balance', side: 'buy' as const, limitText: '91000', indicativePrice: '90000', counter: '' };

  it('a quantity with a ninth decimal is refused with the rounded-down value offered, as the engine refuses it', () => {
    const r = checkTrade({ ...form, quantityText: '0.123456789' });
    expect(r).toEqual({ ok: false, errors: { [INPUT.tradeQuantity]: refusal(checkTradeQuantity('0.123456789', 'BTC')) } });
    expect(r.ok || r.errors[INPUT.tradeQuantity]).toBe('BTC takes at most 8 decimals. Did you mean 0.12345678? (rounded down)');
    // Nor is a quote asked for it.
    const values = {
      [INPUT.tradePair]: { [INPUT.tradePair]: { type: 'plain_text_input', value: 'BTC-SGD' } },
      [INPUT.tradeQuantity]: { [INPUT.tradeQuantity]: { type: 'plain_text_input', value: '0.123456789' } },
    } as StateValues;
    expect(quoteTerms(tradeState(values), pairs)).toBeUndefined();
  });

  it('a quantity and a price are taken as the domain reads them', () => {
    expect(checkTrade({ ...form, quantityText: '.50', limitText: '91000.0' })).toMatchObject({ ok: true, value: { quantity: '0.5', limitPrice: '91000' } });
    expect(checkTradeLimit({ side: 'buy', limitText: '0.1234567890123456789', counter: 'SGD' })).toEqual({
      ok: false,
      errors: { [INPUT.tradeLimitPrice]: refusal(checkLimitPrice('0.1234567890123456789', 'SGD')) },
    });
  });
});

describe('counterparty modal -> the use case\'s check (app/compliance/declaration.ts)', () => {
  const TX = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
  const text = (value: string) => ({ type: 'plain_text_input', value });
  const choice = (value: string) => ({ type: 'radio_buttons', selected_option: { value } });
  const filled = (extra: Record<string, Record<string, object>> = {}) =>
    ({
      [INPUT.cpEntityType]: { [INPUT.cpEntityType]: choice('individual') },
      [INPUT.cpLegalName]: { [INPUT.cpLegalName]: text(' Jane Tan ') },
      [INPUT.cpOwnership]: { [INPUT.cpOwnership]: choice('third_party') },
      ...extra,
    }) as StateValues;
  const check = (values: StateValues, transactionId?: string) => checkDeclaration({ ...counterpartyValues(values), ...(transactionId ? { transactionId } : {}) });
  const all = () => true;

  it('reads every input into the reference body: nothing empty, nested objects only when filled', () => {
    const r = check(filled({ [INPUT.cpCountryCode]: { [INPUT.cpCountryCode]: text('sg') }, [INPUT.cpAddress1]: { [INPUT.cpAddress1]: text('1 Raffles Place') } }), TX);
    expect(r).toEqual({
      ok: true,
      value: {
        transactionId: TX,
        declaration: { entityType: 'individual', legalName: 'Jane Tan', ownership: 'third_party', address: { countryCode: 'SG', address1: '1 Raffles Place' } },
        createsUnverifiedWallet: false,
      },
    });
    // And the port sends it as exactly the reference's body.
    if (r.ok) {
      expect(counterpartyBody(r.value.declaration)).toEqual({
        wallet_identity_attributes: { entity_type: 'individual', entity_name: 'Jane Tan', ownership: 'third_party', address_attributes: { country_code: 'SG', address1: '1 Raffles Place' } },
      });
    }
  });

  it('puts each problem under the modal input at fault (block ids from ids.ts)', () => {
    const r = check(filled({ [INPUT.cpRegion]: { [INPUT.cpRegion]: text('Central') }, [INPUT.cpWalletName]: { [INPUT.cpWalletName]: text('n') }, [INPUT.cpWallet]: { [INPUT.cpWallet]: { type: 'external_select', selected_option: { value: 'w' } } } }), TX);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(errorsByInput(r.errors, all).byInput).toEqual({
      [INPUT.cpCountryCode]: 'The country code is required once any address field is filled.',
      [INPUT.cpWalletName]: 'Choose a listed wallet or type a name, not both.',
    });
    const empty = check({} as StateValues, TX);
    expect(empty.ok === false && Object.keys(errorsByInput(empty.errors, all).byInput).sort()).toEqual([INPUT.cpEntityType, INPUT.cpLegalName, INPUT.cpOwnership].sort());
  });

  it('a typed transaction id is checked too; when the modal does not show it, the error goes elsewhere', () => {
    const r = check(filled({ [INPUT.cpTransaction]: { [INPUT.cpTransaction]: text('abc') } }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(errorsByInput(r.errors, all).byInput[INPUT.cpTransaction]).toContain('UUID');
    expect(errorsByInput(r.errors, (id) => id !== INPUT.cpTransaction)).toEqual({ byInput: {}, elsewhere: [expect.stringContaining('UUID')] });
  });
});
