// The exchange port's records mapped to the options the withdrawal modals show.
import type {
  Balance,
  CurrencyEntry,
  ExchangePort,
  FiatTerms,
  SavedAddress,
  SavedBankAccount,
} from '../../ports/exchange-port.js';
import type { SlackDeps } from '../kit/slack-context.js';
import { ModalData } from '../kit/modal-data.js';
import type { BankOption, CryptoEntryOption, DestinationOption, FiatCurrencyOption } from './withdraw-modal.js';

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

/** Open withdrawal forms' data by view id, in the store every replica shares (kit/modal-data.ts). */
export function withdrawModals(deps: Pick<SlackDeps, 'kv' | 'clock'>): ModalData<WithdrawFormData> {
  return new ModalData(deps.kv, deps.clock);
}

function availableOf(balances: readonly Balance[], currency: string): string {
  return balances.find((b) => b.currency.toUpperCase() === currency.toUpperCase())?.available ?? '0';
}

/** Pure mapping; entries without a precision are left out (the amount rule needs one; the engine refuses them too). */
export function cryptoFormData(
  entries: readonly CurrencyEntry[],
  balances: readonly Balance[],
  addresses: readonly SavedAddress[],
): CryptoFormData {
  const options: CryptoEntryOption[] = [];
  const destinations: Record<number, DestinationOption[]> = {};
  for (const entry of entries) {
    if (entry.precision === null) continue;
    options.push({
      id: entry.id,
      asset: entry.asset,
      network: entry.network,
      precision: entry.precision,
      fee: entry.withdrawalFee,
      ...(entry.minimumWithdrawal !== null ? { minimum: entry.minimumWithdrawal } : {}),
      available: availableOf(balances, entry.asset),
    });
    destinations[entry.id] = addresses
      .filter((d) => entry.networkId === null || d.networkIds.length === 0 || d.networkIds.includes(entry.networkId))
      .map((d) => ({
        id: d.id,
        label: d.label || 'Unnamed address',
        address: d.address,
        addressTag: d.addressTag,
        verified: d.verified,
        cooldownUntil: d.cooldownUntil,
      }));
  }
  options.sort((a, b) => a.asset.localeCompare(b.asset) || a.network.localeCompare(b.network));
  return { kind: 'crypto', entries: options, destinations };
}

export function fiatFormData(
  terms: readonly FiatTerms[],
  balances: readonly Balance[],
  accounts: readonly SavedBankAccount[],
): FiatFormData {
  const currencies: FiatCurrencyOption[] = [];
  const banks: Record<string, BankOption[]> = {};
  for (const t of terms) {
    // A currency without a fee row is not enabled for this account's legal entity.
    if (t.fee === null) continue;
    currencies.push({
      currency: t.currency,
      fee: t.fee,
      minimum: t.minimum,
      maximum: t.maximum,
      available: availableOf(balances, t.currency),
    });
    banks[t.currency] = accounts
      .filter((a) => a.currency === null || a.currency.toUpperCase() === t.currency.toUpperCase())
      .map((a) => ({ id: a.id, display: a.display, ...(a.verified !== null ? { verified: a.verified } : {}) }));
  }
  return { kind: 'fiat', currencies, banks };
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

export async function loadCryptoForm(exchange: ExchangePort): Promise<CryptoFormData> {
  const [entries, balances, addresses] = await Promise.all([
    exchange.currencyEntries(),
    exchange.balances(),
    all(exchange.savedAddresses(LOOKUP)),
  ]);
  return cryptoFormData(entries, balances, addresses);
}

export async function loadFiatForm(exchange: ExchangePort): Promise<FiatFormData> {
  const [terms, balances, accounts] = await Promise.all([
    exchange.fiatTerms(),
    exchange.balances(),
    all(exchange.bankAccounts(undefined, LOOKUP)),
  ]);
  return fiatFormData(terms, balances, accounts);
}
