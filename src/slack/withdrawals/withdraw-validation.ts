/** Submit checks of the withdrawal modals: each field's error under that field. */
import { dynamicBlockId, INPUT } from '../kit/slack-ids.js';
import { checkAmount, FIAT_PRECISION } from '../../domain/amount.js';
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
  const amount = checkAmount(i.amountText, {
    currency: i.entry.asset,
    precision: i.entry.precision,
    available: i.entry.available,
    fee: i.entry.fee,
    ...(i.entry.minimum !== undefined ? { minimum: i.entry.minimum } : {}),
  });
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
  /** Decimal places of the currency; 2 unless the desk knows better. */
  precision?: number;
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


export function checkFiatWithdrawal(i: FiatWithdrawalInput): Checked<FiatWithdrawalChecked> {
  const errors: FieldErrors = {};
  if (!i.currency) return invalid({ [INPUT.fiatCurrency]: 'Choose a currency.' });
  if (i.bankAccountId === undefined) errors[dynamicBlockId.fiatBank(i.currency.currency)] = 'Choose a bank account.';
  const amount = checkAmount(i.amountText, {
    currency: i.currency.currency,
    precision: i.currency.precision ?? FIAT_PRECISION,
    minimum: i.currency.minimum,
    maximum: i.currency.maximum,
    available: i.currency.available,
    fee: i.currency.fee,
  });
  if (!amount.ok) errors[INPUT.fiatAmount] = amount.error;
  if (!amount.ok || i.bankAccountId === undefined) return invalid(errors);
  return valid({ currency: i.currency.currency, bankAccountId: i.bankAccountId, amount: amount.amount, fee: amount.fee, total: amount.total });
}
