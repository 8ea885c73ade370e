// What may have changed before the money moves, judged without I/O on what the exchange shows: balance
// covers amount plus fee, destination saved, verified, out of cooldown, fee not risen, fiat limits allow.
import { destinationBar, destinationBarText } from '../../domain/destination-readiness.js';
import { gt, lt } from '../../domain/money.js';
import {
  sameTag,
  type CryptoWithdrawalSnapshot,
  type FiatWithdrawalSnapshot,
  type Snapshot,
} from '../../domain/request.js';
import type { CheckFacts } from './observations.js';

/** The one check type: go, fail with a reason, or wait until a time. */
export type Check =
  | { ok: true }
  | { ok: false; action: 'fail'; reason: string }
  | { ok: false; action: 'schedule'; at: number; reason: string };

const OK: Check = { ok: true };

export function judgeChecks(s: Snapshot, facts: CheckFacts, now: number): Check {
  if (s.kind === 'crypto_withdrawal' && facts.kind === 'crypto_withdrawal') return judgeCrypto(s, facts, now);
  if (s.kind === 'fiat_withdrawal' && facts.kind === 'fiat_withdrawal') return judgeFiat(s, facts);
  if (s.kind === 'bank_account_removal' && facts.kind === 'bank_account_removal')
    return facts.account === undefined ? fail('The bank account no longer exists on the exchange.') : OK;
  if (s.kind === 'trade' && facts.kind === 'trade') return OK;
  throw new Error(`checks of a ${facts.kind} read for a ${s.kind}`);
}

function judgeCrypto(
  s: CryptoWithdrawalSnapshot,
  { entry, address, available }: Extract<CheckFacts, { kind: 'crypto_withdrawal' }>,
  now: number,
): Check {
  if (entry === undefined) return fail(`${s.asset} on ${s.network} is no longer offered for withdrawal.`);
  if (gt(entry.withdrawalFee, s.fee))
    return fail(
      `The withdrawal fee rose from ${s.fee} to ${entry.withdrawalFee} ${s.asset} since approval; request again.`,
    );
  if (address === undefined) return fail(`The destination "${s.destination.label}" is no longer in the address book.`);
  if (address.address !== s.destination.address)
    return fail(`The destination "${s.destination.label}" now points to another address.`);
  if (!sameTag(address.addressTag, s.destination.addressTag))
    return fail(`The destination "${s.destination.label}" now has another tag/memo than the one approved.`);
  const bar = destinationBar(address, now);
  if (bar?.reason === 'unverified')
    return fail(destinationBarText(bar, `The destination "${s.destination.label}" (status: ${address.status})`));
  if (bar?.reason === 'cooldown')
    return {
      ok: false,
      action: 'schedule',
      at: bar.until,
      reason: destinationBarText(bar, `The destination "${s.destination.label}"`),
    };
  return judgeBalance(s.asset, available, s.total);
}

function judgeFiat(
  s: FiatWithdrawalSnapshot,
  { terms, account, available }: Extract<CheckFacts, { kind: 'fiat_withdrawal' }>,
): Check {
  if (terms === undefined) return fail(`Fiat withdrawals in ${s.currency} are no longer enabled.`);
  if (lt(s.amount, terms.minimum))
    return fail(`${s.amount} ${s.currency} is now below the minimum of ${terms.minimum}.`);
  if (gt(s.amount, terms.maximum))
    return fail(`${s.amount} ${s.currency} is now above the maximum of ${terms.maximum}.`);
  if (terms.fee !== null && gt(terms.fee, s.fee))
    return fail(`The withdrawal fee rose from ${s.fee} to ${terms.fee} ${s.currency} since approval; request again.`);
  if (account === undefined) return fail(`The bank account ${s.bankAccount.display} no longer exists on the exchange.`);
  if (account.currency !== s.bankAccount.currency)
    return fail(
      `The bank account ${s.bankAccount.display} is now in ${account.currency ?? 'no currency'}, not ${s.bankAccount.currency ?? 'the one approved'}.`,
    );
  if (
    s.bankAccount.accountNumberDigest !== undefined &&
    account.accountNumberDigest !== s.bankAccount.accountNumberDigest
  ) {
    return fail(`The bank account ${s.bankAccount.display} now has another account number than the one approved.`);
  }
  return judgeBalance(s.currency, available, s.total);
}

function judgeBalance(currency: string, available: string, needed: string): Check {
  if (lt(available, needed))
    return fail(`The available ${currency} balance (${available}) does not cover the amount plus fee (${needed}).`);
  return OK;
}

function fail(reason: string): Check {
  return { ok: false, action: 'fail', reason };
}
