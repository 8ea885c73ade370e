/** Modal input validation: plain-words field errors under the input at fault (the amount rule itself: test/domain/amount.test.ts). */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/slack/kit/limits.js';
import { checkDeclaration } from '../../src/app/compliance/declaration.js';
import { counterpartyBody } from '../../src/exchange/engine-port/counterparty-body.js';
import { errorsByInput } from '../../src/slack/compliance/form-fields.js';
import { counterpartyValues } from '../../src/slack/compliance/counterparty-form.js';
import type { StateValues } from '../../src/slack/kit/view-state.js';
import { dynamicBlockId, INPUT } from '../../src/slack/kit/slack-ids.js';
import { destinationProblem } from '../../src/slack/withdrawals/destination-check.js';
import { checkTrade, checkTradeLimit, parsePair, parseSlippage } from '../../src/slack/trades/trade-validation.js';
import { checkCryptoWithdrawal, checkFiatWithdrawal } from '../../src/slack/withdrawals/withdraw-validation.js';

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
  });
});

describe('checkFiatWithdrawal', () => {
  const sgd = { currency: 'SGD', fee: '5', minimum: '100', maximum: '200000', available: '1000' };
  it('checks limits and two decimals', () => {
    expect(checkFiatWithdrawal({ currency: sgd, bankAccountId: 42, amountText: '50' })).toEqual({ ok: false, errors: { [INPUT.fiatAmount]: 'The minimum is 100 SGD.' } });
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

  it('turns slippage into a ceiling for a buy and a floor for a sell', () => {
    expect(checkTradeLimit({ side: 'buy', slippageText: '0.5', indicativePrice: '90000', counter: 'SGD' })).toEqual({ ok: true, value: { limitPrice: '90450', slippageBps: 50 } });
    expect(checkTradeLimit({ side: 'sell', slippageText: '0.5', indicativePrice: '90000', counter: 'SGD' })).toEqual({ ok: true, value: { limitPrice: '89550', slippageBps: 50 } });
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
    const r = checkTrade({ pairText: 'FOO-BAR', knownPairs: pairs, quantityText: 'x', quantityIn: 'base', quantityPrecision: 8, paymentMethod: 'user_balance', side: 'buy', counter: 'SGD' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.errors).sort()).toEqual([INPUT.tradeLimitPrice, INPUT.tradePair, INPUT.tradeQuantity].sort());
    const ok = checkTrade({ pairText: 'btc-sgd', knownPairs: pairs, quantityText: '0.5', quantityIn: 'counter', quantityPrecision: 2, paymentMethod: 'user_balance', side: 'sell', slippageText: '1', indicativePrice: '90000', counter: '' });
    expect(ok).toEqual({ ok: true, value: { pair: 'BTC-SGD', side: 'sell', quantity: '0.5', quantityCurrency: 'SGD', paymentMethod: 'user_balance', limitPrice: '89100', slippageBps: 100 } });
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
