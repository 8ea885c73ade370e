// Which withdrawal view to show for the data and choices so far, and the submit check; both pure.
import {
  checkCryptoWithdrawal,
  checkFiatWithdrawal,
  cryptoAmount,
  fiatAmount,
  type CryptoWithdrawalChecked,
  type FiatWithdrawalChecked,
} from './withdraw-validation.js';
import type { Checked } from '../request-forms/field-errors.js';
import { cryptoWithdrawView, fiatWithdrawView, type WithdrawSummary } from './withdraw-modal.js';
import type { ModalView } from '../kit/blocks.js';
import { dynamicBlockId, INPUT } from '../kit/slack-ids.js';
import { fieldValue, type StateValues } from '../kit/view-state.js';
import type { CryptoFormData, FiatFormData, WithdrawFormData } from './withdraw-data.js';

/** What a withdrawal modal keeps in private_metadata: the form kind and where it was opened. */
export interface WithdrawMeta {
  k: 'crypto' | 'fiat';
  /** Channel of the command, for replies after submit. */
  c?: string;
}

export interface RenderOptions {
  now: number;
  sandbox: boolean;
  privateMetadata: string;
}

/** The filled form for the current state of the modal (empty state: the first fill). */
export function renderWithdrawForm(
  data: WithdrawFormData,
  values: StateValues | undefined,
  o: RenderOptions,
): ModalView {
  return data.kind === 'crypto' ? renderCrypto(data, values, o) : renderFiat(data, values, o);
}

function renderCrypto(data: CryptoFormData, values: StateValues | undefined, o: RenderOptions): ModalView {
  const entryId = Number(fieldValue(values, INPUT.withdrawEntry));
  const entry = data.entries.find((e) => e.id === entryId);
  const amountText = fieldValue(values, INPUT.withdrawAmount);
  let summary: WithdrawSummary | undefined;
  let summaryError: string | undefined;
  if (entry && amountText !== undefined) {
    const r = cryptoAmount(entry, amountText);
    if (r.ok) summary = { currency: entry.asset, amount: r.amount, fee: r.fee, total: r.total };
    else summaryError = r.error;
  }
  return cryptoWithdrawView({
    entries: data.entries,
    ...(entry ? { selectedEntryId: entry.id } : {}),
    destinations: entry ? (data.destinations[entry.id] ?? []) : [],
    ...(summary ? { summary } : {}),
    ...(summaryError ? { summaryError } : {}),
    now: o.now,
    privateMetadata: o.privateMetadata,
    sandbox: o.sandbox,
  });
}

function renderFiat(data: FiatFormData, values: StateValues | undefined, o: RenderOptions): ModalView {
  const currency = data.currencies.find((c) => c.currency === fieldValue(values, INPUT.fiatCurrency));
  const amountText = fieldValue(values, INPUT.fiatAmount);
  let summary: WithdrawSummary | undefined;
  let summaryError: string | undefined;
  if (currency && amountText !== undefined) {
    const r = fiatAmount(currency, amountText);
    if (r.ok) summary = { currency: currency.currency, amount: r.amount, fee: r.fee, total: r.total };
    else summaryError = r.error;
  }
  return fiatWithdrawView({
    currencies: data.currencies,
    ...(currency ? { selectedCurrency: currency.currency } : {}),
    banks: currency ? (data.banks[currency.currency] ?? []) : [],
    ...(summary ? { summary } : {}),
    ...(summaryError ? { summaryError } : {}),
    privateMetadata: o.privateMetadata,
    sandbox: o.sandbox,
  });
}

/** The crypto form's submit check over the data it was filled with. */
export function checkCryptoSubmission(
  data: CryptoFormData,
  values: StateValues | undefined,
  now: number,
): Checked<CryptoWithdrawalChecked> {
  const entry = data.entries.find((e) => e.id === Number(fieldValue(values, INPUT.withdrawEntry)));
  const destinationId = entry
    ? fieldValue(values, dynamicBlockId.withdrawDestination(entry.id), INPUT.withdrawDestination)
    : undefined;
  const destination =
    entry && destinationId ? data.destinations[entry.id]?.find((d) => d.id === destinationId) : undefined;
  return checkCryptoWithdrawal({
    entry,
    destination,
    amountText: fieldValue(values, INPUT.withdrawAmount),
    note: fieldValue(values, INPUT.withdrawNote),
    purpose: fieldValue(values, INPUT.withdrawPurpose),
    now,
  });
}

/** The fiat form's submit check over the data it was filled with. */
export function checkFiatSubmission(
  data: FiatFormData,
  values: StateValues | undefined,
): Checked<FiatWithdrawalChecked> {
  const currency = data.currencies.find((c) => c.currency === fieldValue(values, INPUT.fiatCurrency));
  const bankText = currency
    ? fieldValue(values, dynamicBlockId.fiatBank(currency.currency), INPUT.fiatBank)
    : undefined;
  const bank = currency && bankText ? data.banks[currency.currency]?.find((b) => String(b.id) === bankText) : undefined;
  return checkFiatWithdrawal({ currency, bankAccountId: bank?.id, amountText: fieldValue(values, INPUT.fiatAmount) });
}
