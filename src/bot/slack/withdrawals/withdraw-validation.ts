// Submit checks of the withdrawal modals, each error under its field. The amount is the domain's to judge;
// this passes what was typed and shows its answer.
import { dynamicBlockId, INPUT } from '../kit/slack-ids.js';
import type { AmountCheck } from '../../domain/amount.js';
import { cryptoWithdrawalAmount, fiatWithdrawalAmount } from '../../domain/request.js';
import { destinationProblem, type DestinationState } from './destination-check.js';
import { invalid, valid, type Checked, type FieldErrors } from '../request-forms/field-errors.js';

export interface CryptoEntryRules {
  id: number;
  asset: string;
  precision: number;
  fee: string;
  minimum?: string;
  available: string;
}

export interface CryptoWithdrawalInput {
  entry: CryptoEntryRules | undefined;
  /** The chosen destination (undefined: none chosen or no longer listed). */
  destination: (DestinationState & { id: string }) | undefined;
  amountText: string | undefined;
  note?: string | undefined;
  purpose?: string | undefined;
  now: number;
}

export interface CryptoWithdrawalChecked {
  cryptoCurrencyId: number;
  destinationId: string;
  amount: string;
  fee: string;
  total: string;
  note?: string;
  purpose?: string;
}

/** The domain's answer for an amount typed for this entry, with the balance the form showed. */
export function cryptoAmount(entry: CryptoEntryRules, text: string | undefined): AmountCheck {
  return cryptoWithdrawalAmount(
    {
      asset: entry.asset,
      precision: entry.precision,
      withdrawalFee: entry.fee,
      minimumWithdrawal: entry.minimum ?? null,
    },
    text,
    entry.available,
  );
}

export function checkCryptoWithdrawal(i: CryptoWithdrawalInput): Checked<CryptoWithdrawalChecked> {
  const errors: FieldErrors = {};
  if (!i.entry) {
    errors[INPUT.withdrawEntry] = 'Choose the asset and network.';
    return invalid(errors);
  }
  const destinationBlock = dynamicBlockId.withdrawDestination(i.entry.id);
  if (!i.destination) errors[destinationBlock] = 'Choose a saved address.';
  else {
    const problem = destinationProblem(i.destination, i.now);
    if (problem) errors[destinationBlock] = problem;
  }
  const amount = cryptoAmount(i.entry, i.amountText);
  if (!amount.ok) errors[INPUT.withdrawAmount] = amount.error;
  if (!amount.ok || !i.destination || Object.keys(errors).length > 0) return invalid(errors);
  const note = i.note?.trim();
  const purpose = i.purpose?.trim();
  return valid({
    cryptoCurrencyId: i.entry.id,
    destinationId: i.destination.id,
    amount: amount.amount,
    fee: amount.fee,
    total: amount.total,
    ...(note ? { note } : {}),
    ...(purpose ? { purpose } : {}),
  });
}

export interface FiatCurrencyRules {
  currency: string;
  fee: string;
  minimum: string;
  maximum: string;
  available: string;
}

export interface FiatWithdrawalInput {
  currency: FiatCurrencyRules | undefined;
  bankAccountId: number | undefined;
  amountText: string | undefined;
}

export interface FiatWithdrawalChecked {
  currency: string;
  bankAccountId: number;
  amount: string;
  fee: string;
  total: string;
}

/** The domain's answer for an amount typed in this currency, with the balance the form showed. */
export function fiatAmount(currency: FiatCurrencyRules, text: string | undefined): AmountCheck {
  return fiatWithdrawalAmount(currency, text, currency.available);
}

export function checkFiatWithdrawal(i: FiatWithdrawalInput): Checked<FiatWithdrawalChecked> {
  const errors: FieldErrors = {};
  if (!i.currency) return invalid({ [INPUT.fiatCurrency]: 'Choose a currency.' });
  if (i.bankAccountId === undefined) errors[dynamicBlockId.fiatBank(i.currency.currency)] = 'Choose a bank account.';
  const amount = fiatAmount(i.currency, i.amountText);
  if (!amount.ok) errors[INPUT.fiatAmount] = amount.error;
  if (!amount.ok || i.bankAccountId === undefined) return invalid(errors);
  return valid({
    currency: i.currency.currency,
    bankAccountId: i.bankAccountId,
    amount: amount.amount,
    fee: amount.fee,
    total: amount.total,
  });
}
