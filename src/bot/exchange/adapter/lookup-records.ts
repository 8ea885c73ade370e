// The lookups in the engine's terms: which exchange field means what for a request, in one place.
import { createHash } from 'node:crypto';
import { bankAccountDisplay } from '../../domain/request.js';
import { sameStatus } from '../../domain/status.js';
import type {
  Balance,
  CurrencyEntry,
  FiatTerms,
  KnownWallet,
  SavedAddress,
  SavedBankAccount,
} from '../../ports/exchange-port.js';
import { ADDRESS_VERIFIED_STATUS } from '../assumptions.js';
import type * as Wire from '../schemas.js';

export function currencyEntry(entry: Wire.CryptoCurrencyEntry): CurrencyEntry {
  return {
    id: entry.id,
    asset: entry.asset.symbol ?? entry.code,
    network: entry.network.name ?? entry.network.network_code ?? entry.network_id,
    networkId: entry.network.uuid ?? entry.network_id,
    precision: entry.precision ?? null,
    withdrawalFee: entry.withdrawal_fee,
    minimumWithdrawal: entry.minimum_withdrawal ?? null,
  };
}

export function savedAddress(address: Wire.AddressBookAddress): SavedAddress {
  return {
    id: address.id,
    label: address.label ?? '',
    address: address.address,
    addressTag: address.address_tag ?? null,
    verified: sameStatus(address.status, ADDRESS_VERIFIED_STATUS),
    networkIds: address.crypto_currency_networks.flatMap((n) => (n.uuid === undefined ? [] : [n.uuid])),
    status: address.status,
    cooldownUntil: address.withdrawal_cooldown_until ?? null,
  };
}

export function savedBankAccount(account: Wire.BankAccount): SavedBankAccount {
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
    verified: account.verified ?? null,
  };
}

/** The account number as a request keeps it: a digest, compared again before execution. */
function accountNumberDigest(accountNumber: string): string {
  return createHash('sha256').update(accountNumber.replace(/\s+/g, '')).digest('hex');
}

/** One row per currency with limits; its fee where the exchange lists one. */
export function fiatTerms(
  fees: readonly Wire.FiatWithdrawalFee[],
  limits: readonly Wire.FiatWithdrawalLimit[],
): FiatTerms[] {
  return limits.map((limit) => ({
    currency: limit.currency,
    minimum: limit.minimum_withdrawal_amount,
    maximum: limit.maximum_withdrawal_amount,
    fee: fees.find((f) => f.currency === limit.currency)?.fee ?? null,
  }));
}

export function balance(b: Wire.Balance): Balance {
  return {
    currency: b.currency,
    available: b.regular,
    locked: b.locked,
    lockedInOrders: b.locked_balance.orders,
    lockedInOtherProducts: b.locked_balance.alternative_products,
  };
}

export function knownWallet(w: Wire.KnownWallet): KnownWallet {
  return { id: w.id, type: w.type, name: w.name, riskLevel: w.risk_level ?? null };
}
