/**
 * Exchange records mapped to the plain facts the domain builders take. One place that knows
 * which exchange field means what for a request.
 */
import { createHash } from 'node:crypto';
import type { BankAccountRef, CurrencyEntryFacts, DestinationFacts } from '../domain/request.js';
import { bankAccountDisplay } from '../domain/request.js';
import { ADDRESS_VERIFIED_STATUS } from '../exchange/assumptions.js';
import type { AddressBookAddress, BankAccount, CryptoCurrencyEntry } from '../exchange/schemas.js';
import { sameStatus } from '../exchange/statuses.js';

/** Undefined when the entry lacks a precision: an amount could not be rounded as the exchange will. */
export function currencyEntryFacts(entry: CryptoCurrencyEntry): CurrencyEntryFacts | undefined {
  if (entry.precision === undefined) return undefined;
  return {
    id: entry.id,
    asset: entry.asset.symbol ?? entry.code,
    network: entry.network.name ?? entry.network.network_code ?? entry.network_id,
    networkId: entry.network.uuid ?? entry.network_id,
    precision: entry.precision,
    withdrawalFee: entry.withdrawal_fee,
    minimumWithdrawal: entry.minimum_withdrawal ?? null,
  };
}

export function destinationFacts(address: AddressBookAddress): DestinationFacts {
  return {
    id: address.id,
    label: address.label ?? '',
    address: address.address,
    addressTag: address.address_tag ?? null,
    verified: isVerified(address),
    networkIds: address.crypto_currency_networks.flatMap((n) => (n.uuid === undefined ? [] : [n.uuid])),
  };
}

export function isVerified(address: Pick<AddressBookAddress, 'status'>): boolean {
  return sameStatus(address.status, ADDRESS_VERIFIED_STATUS);
}

export function bankAccountRef(account: BankAccount): BankAccountRef {
  return {
    id: account.id,
    currency: account.currency ?? null,
    display: bankAccountDisplay({
      bankName: account.bank?.name ?? null,
      currency: account.currency ?? null,
      accountNumber: account.account_number,
      beneficiary: account.beneficiary_name,
    }),
    accountNumberDigest: accountNumberDigest(account.account_number),
  };
}

/** The account number as the snapshot keeps it: a digest, compared again before execution. */
export function accountNumberDigest(accountNumber: string): string {
  return createHash('sha256').update(accountNumber.replace(/\s+/g, '')).digest('hex');
}

/** Blank and absent tags are the same: no tag. */
export function sameTag(a: string | null | undefined, b: string | null | undefined): boolean {
  const norm = (t: string | null | undefined) => (t === null || t === undefined || t.trim() === '' ? null : t.trim());
  return norm(a) === norm(b);
}
