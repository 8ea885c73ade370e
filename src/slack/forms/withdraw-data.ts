/**
 * The withdrawal forms' data: exchange records mapped (through app/facts.ts, the one place that
 * knows what each exchange field means) to the options the modals show.
 */
import { bankAccountRef, currencyEntryFacts, destinationFacts } from '../../app/exchange-facts.js';
import type { ExchangePort } from '../../app/ports.js';
import type { AddressBookAddress, Balance, BankAccount, CryptoCurrencyEntry, FiatWithdrawalFee, FiatWithdrawalLimit } from '../../exchange/schemas.js';
import type { BankOption, CryptoEntryOption, DestinationOption, FiatCurrencyOption } from '../blocks/modals/withdraw.js';

/** Bound on saved addresses and bank accounts read for one form. */
const LOOKUP = { pageSize: 100, maxItems: 1_000 };

export interface CryptoFormData {
  kind: 'crypto';
  entries: CryptoEntryOption[];
  /** Destinations per entry id (those saved for the entry's network). */
  destinations: Record<number, DestinationOption[]>;
}

export interface FiatFormData {
  kind: 'fiat';
  currencies: FiatCurrencyOption[];
  banks: Record<string, BankOption[]>;
}

export type WithdrawFormData = CryptoFormData | FiatFormData;

function availableOf(balances: readonly Balance[], currency: string): string {
  return balances.find((b) => b.currency.toUpperCase() === currency.toUpperCase())?.regular ?? '0';
}

/** Pure mapping; entries without a precision are left out (an amount could not be rounded as the exchange does). */
export function cryptoFormData(entries: readonly CryptoCurrencyEntry[], balances: readonly Balance[], addresses: readonly AddressBookAddress[]): CryptoFormData {
  const options: CryptoEntryOption[] = [];
  const destinations: Record<number, DestinationOption[]> = {};
  for (const entry of entries) {
    const facts = currencyEntryFacts(entry);
    if (!facts) continue;
    options.push({
      id: facts.id,
      asset: facts.asset,
      network: facts.network,
      precision: facts.precision,
      fee: facts.withdrawalFee,
      ...(facts.minimumWithdrawal !== null ? { minimum: facts.minimumWithdrawal } : {}),
      available: availableOf(balances, facts.asset),
    });
    destinations[facts.id] = addresses
      .map((a) => ({ record: a, facts: destinationFacts(a) }))
      .filter(({ facts: d }) => facts.networkId === null || d.networkIds.length === 0 || d.networkIds.includes(facts.networkId))
      .map(({ record, facts: d }) => ({
        id: d.id,
        label: d.label || 'Unnamed address',
        address: d.address,
        addressTag: d.addressTag,
        verified: d.verified,
        cooldownUntil: record.withdrawal_cooldown_until ?? null,
      }));
  }
  options.sort((a, b) => a.asset.localeCompare(b.asset) || a.network.localeCompare(b.network));
  return { kind: 'crypto', entries: options, destinations };
}

export function fiatFormData(fees: readonly FiatWithdrawalFee[], limits: readonly FiatWithdrawalLimit[], balances: readonly Balance[], accounts: readonly BankAccount[]): FiatFormData {
  const currencies: FiatCurrencyOption[] = [];
  const banks: Record<string, BankOption[]> = {};
  for (const limit of limits) {
    const fee = fees.find((f) => f.currency === limit.currency);
    // A currency without a fee row is not enabled for this account's legal entity.
    if (!fee) continue;
    currencies.push({
      currency: limit.currency,
      fee: fee.fee,
      minimum: limit.minimum_withdrawal_amount,
      maximum: limit.maximum_withdrawal_amount,
      available: availableOf(balances, limit.currency),
    });
    banks[limit.currency] = accounts
      .filter((a) => a.currency == null || a.currency.toUpperCase() === limit.currency.toUpperCase())
      .map((a) => ({ id: a.id, display: bankAccountRef(a).display, ...(a.verified !== undefined ? { verified: a.verified } : {}) }));
  }
  return { kind: 'fiat', currencies, banks };
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

export async function loadCryptoForm(exchange: ExchangePort): Promise<CryptoFormData> {
  const [entries, balances, addresses] = await Promise.all([exchange.listCryptoCurrencies(), exchange.listBalances(), all(exchange.listAddressBook(LOOKUP))]);
  return cryptoFormData(entries, balances, addresses);
}

export async function loadFiatForm(exchange: ExchangePort): Promise<FiatFormData> {
  const [fees, limits, balances, accounts] = await Promise.all([
    exchange.listFiatWithdrawalFees(),
    exchange.listFiatWithdrawalLimits(),
    exchange.listBalances(),
    all(exchange.listBankAccounts(undefined, LOOKUP)),
  ]);
  return fiatFormData(fees, limits, balances, accounts);
}
