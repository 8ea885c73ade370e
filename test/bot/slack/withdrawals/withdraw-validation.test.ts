/**
 * The withdrawal forms' checks: plain-words field errors under the input at fault. The amount rules
 * are tested in the domain (test/bot/domain/amount.test.ts, request.test.ts); here the forms only
 * show the domain's answer, where the user typed.
 */
import { describe, expect, it } from 'vitest';
import type { StateValues } from '../../../../src/bot/slack/kit/view-state.js';
import { BLOCK, dynamicBlockId, INPUT } from '../../../../src/bot/slack/kit/slack-ids.js';
import { cryptoWithdrawalAmount, fiatWithdrawalAmount } from '../../../../src/bot/domain/request.js';
import type { AmountCheck } from '../../../../src/bot/domain/amount.js';
import { destinationProblem } from '../../../../src/bot/slack/withdrawals/destination-check.js';
import {
  checkCryptoWithdrawal,
  checkFiatWithdrawal,
} from '../../../../src/bot/slack/withdrawals/withdraw-validation.js';
import { renderWithdrawForm } from '../../../../src/bot/slack/withdrawals/withdraw-form.js';

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

  it("shows the domain's answer under the amount: too many decimals refused with the rounded-down value, the minimum, the balance", () => {
    expect(amountError('1.123456789')).toBe(refusal(cryptoWithdrawalAmount(facts, '1.123456789')));
    expect(amountError('1.123456789')).toBe('BTC takes at most 8 decimals. Did you mean 1.12345678? (rounded down)');
    expect(amountError('0.0009')).toBe(refusal(cryptoWithdrawalAmount(facts, '0.0009')));
    expect(amountError('1.2')).toBe(refusal(cryptoWithdrawalAmount(facts, '1.2', '1.2')));
    expect(amountError('abc')).toBe(refusal(cryptoWithdrawalAmount(facts, 'abc')));
    // An entry without a minimum has none on either side.
    const { minimum: _minimum, ...noMinimum } = entry;
    expect(
      checkCryptoWithdrawal({ entry: noMinimum, destination: { id: 'd1', verified: true }, amountText: '0.0009', now }),
    ).toMatchObject({ ok: true, value: { amount: '0.0009' } });
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
    expect(checkCryptoWithdrawal({ entry: undefined, destination: undefined, amountText: '1', now })).toEqual({
      ok: false,
      errors: { [INPUT.withdrawEntry]: 'Choose the asset and network.' },
    });
  });
  it('returns the normalized request when everything holds', () => {
    const r = checkCryptoWithdrawal({
      entry,
      destination: { id: 'd1', verified: true },
      amountText: '0.50',
      note: '  hi ',
      purpose: '',
      now,
    });
    expect(r).toEqual({
      ok: true,
      value: { cryptoCurrencyId: 7, destinationId: 'd1', amount: '0.5', fee: '0.0005', total: '0.5005', note: 'hi' },
    });
    // The amount, fee and total are the domain's, not worked out again here.
    const domain = cryptoWithdrawalAmount(facts, '0.50', '1.2');
    expect(r.ok && { amount: r.value.amount, fee: r.value.fee, total: r.value.total }).toEqual(
      domain.ok && { amount: domain.amount, fee: domain.fee, total: domain.total },
    );
  });

  it("the live summary under the amount shows the domain's amount, fee and total, or its refusal", () => {
    const data = { kind: 'crypto' as const, entries: [{ ...entry, network: 'Bitcoin' }], destinations: { 7: [] } };
    const summaryOf = (amount: string) => {
      const values = {
        [INPUT.withdrawEntry]: { [INPUT.withdrawEntry]: { type: 'static_select', selected_option: { value: '7' } } },
        [INPUT.withdrawAmount]: { [INPUT.withdrawAmount]: { type: 'plain_text_input', value: amount } },
      } as StateValues;
      const block = renderWithdrawForm(data, values, { now, sandbox: false, privateMetadata: '{}' }).blocks.find(
        (b) => b.block_id === BLOCK.withdrawSummary,
      ) as { text?: { text: string } } | undefined;
      return block?.text?.text;
    };
    expect(summaryOf('0.50')).toBe('Amount *0.5 BTC* + fee 0.0005 BTC = total *0.5005 BTC*');
    expect(summaryOf('1.123456789')).toBe(`:warning: ${refusal(cryptoWithdrawalAmount(facts, '1.123456789'))}`);
  });
});

describe('checkFiatWithdrawal', () => {
  const sgd = { currency: 'SGD', fee: '5', minimum: '100', maximum: '200000', available: '1000' };
  it("shows the domain's answer for limits and two decimals under the amount", () => {
    expect(checkFiatWithdrawal({ currency: sgd, bankAccountId: 42, amountText: '50' })).toEqual({
      ok: false,
      errors: { [INPUT.fiatAmount]: refusal(fiatWithdrawalAmount(sgd, '50')) },
    });
    expect(checkFiatWithdrawal({ currency: sgd, bankAccountId: 42, amountText: '50' })).toEqual({
      ok: false,
      errors: { [INPUT.fiatAmount]: 'The minimum is 100 SGD.' },
    });
    expect(
      checkFiatWithdrawal({ currency: { ...sgd, available: '1000000' }, bankAccountId: 42, amountText: '200000.01' }),
    ).toEqual({ ok: false, errors: { [INPUT.fiatAmount]: refusal(fiatWithdrawalAmount(sgd, '200000.01')) } });
    expect(checkFiatWithdrawal({ currency: sgd, bankAccountId: 42, amountText: '100.005' })).toEqual({
      ok: false,
      errors: { [INPUT.fiatAmount]: refusal(fiatWithdrawalAmount(sgd, '100.005')) },
    });
    expect(checkFiatWithdrawal({ currency: sgd, bankAccountId: 42, amountText: '100.005' })).toEqual({
      ok: false,
      errors: { [INPUT.fiatAmount]: 'SGD takes at most 2 decimals. Did you mean 100? (rounded down)' },
    });
    expect(checkFiatWithdrawal({ currency: sgd, bankAccountId: undefined, amountText: '100' })).toEqual({
      ok: false,
      errors: { [dynamicBlockId.fiatBank('SGD')]: 'Choose a bank account.' },
    });
    expect(checkFiatWithdrawal({ currency: sgd, bankAccountId: 42, amountText: '995' })).toMatchObject({
      ok: true,
      value: { amount: '995', total: '1000' },
    });
  });
});
