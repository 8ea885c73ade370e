/**
 * What can have changed between the request and its execution, checked again just before the
 * money moves: the balance covers amount plus fee, the destination is still saved, verified and
 * out of its cooldown, the fee has not risen, fiat limits still allow the amount.
 * Exchange read errors are thrown: the caller retries the checks later.
 */
import { gt, lt } from '../../domain/money.js';
import type { DeskRequest } from '../../domain/record.js';
import { sameTag, type CryptoWithdrawalSnapshot, type FiatWithdrawalSnapshot } from '../../domain/request.js';
import { findFirst } from '../bounded-lists.js';
import type { EngineContext } from '../context.js';

export type CheckOutcome = { ok: true } | { ok: false; action: 'fail'; reason: string } | { ok: false; action: 'schedule'; at: number; reason: string };

const OK: CheckOutcome = { ok: true };
const LOOKUP_LIMIT = { pageSize: 100, maxPages: 20 };

export async function checkBeforeExecution(ctx: EngineContext, request: DeskRequest): Promise<CheckOutcome> {
  const s = request.snapshot;
  switch (s.kind) {
    case 'crypto_withdrawal':
      return checkCrypto(ctx, s);
    case 'fiat_withdrawal':
      return checkFiat(ctx, s);
    case 'bank_account_removal': {
      const account = await findFirst(ctx.exchange.bankAccounts(undefined, LOOKUP_LIMIT), (b) => b.id === s.bankAccount.id);
      return account === undefined ? fail('The bank account no longer exists on the exchange.') : OK;
    }
    case 'trade':
      return OK;
  }
}

async function checkCrypto(ctx: EngineContext, s: CryptoWithdrawalSnapshot): Promise<CheckOutcome> {
  const entry = (await ctx.exchange.currencyEntries()).find((e) => e.id === s.cryptoCurrencyId);
  if (entry === undefined) return fail(`${s.asset} on ${s.network} is no longer offered for withdrawal.`);
  if (gt(entry.withdrawalFee, s.fee)) return fail(`The withdrawal fee rose from ${s.fee} to ${entry.withdrawalFee} ${s.asset} since approval; request again.`);
  const address = await findFirst(ctx.exchange.savedAddresses(LOOKUP_LIMIT), (a) => a.id === s.destination.id);
  if (address === undefined) return fail(`The destination "${s.destination.label}" is no longer in the address book.`);
  if (address.address !== s.destination.address) return fail(`The destination "${s.destination.label}" now points to another address.`);
  if (!sameTag(address.addressTag, s.destination.addressTag)) return fail(`The destination "${s.destination.label}" now has another tag/memo than the one approved.`);
  if (!address.verified) return fail(`The destination "${s.destination.label}" is not verified (status: ${address.status}).`);
  const cooldownUntil = address.cooldownUntil;
  if (cooldownUntil !== null && cooldownUntil > ctx.clock.now()) {
    return { ok: false, action: 'schedule', at: cooldownUntil, reason: `The destination "${s.destination.label}" is in its withdrawal cooldown.` };
  }
  return checkBalance(ctx, s.asset, s.total, 'amount plus fee');
}

async function checkFiat(ctx: EngineContext, s: FiatWithdrawalSnapshot): Promise<CheckOutcome> {
  const terms = (await ctx.exchange.fiatTerms()).find((t) => t.currency === s.currency);
  if (terms === undefined) return fail(`Fiat withdrawals in ${s.currency} are no longer enabled.`);
  if (lt(s.amount, terms.minimum)) return fail(`${s.amount} ${s.currency} is now below the minimum of ${terms.minimum}.`);
  if (gt(s.amount, terms.maximum)) return fail(`${s.amount} ${s.currency} is now above the maximum of ${terms.maximum}.`);
  if (terms.fee !== null && gt(terms.fee, s.fee)) return fail(`The withdrawal fee rose from ${s.fee} to ${terms.fee} ${s.currency} since approval; request again.`);
  const account = await findFirst(ctx.exchange.bankAccounts({ currency: s.currency }, LOOKUP_LIMIT), (b) => b.id === s.bankAccount.id);
  if (account === undefined) return fail(`The bank account ${s.bankAccount.display} no longer exists on the exchange.`);
  if (account.currency !== s.bankAccount.currency) return fail(`The bank account ${s.bankAccount.display} is now in ${account.currency ?? 'no currency'}, not ${s.bankAccount.currency ?? 'the one approved'}.`);
  if (s.bankAccount.accountNumberDigest !== undefined && account.accountNumberDigest !== s.bankAccount.accountNumberDigest) {
    return fail(`The bank account ${s.bankAccount.display} now has another account number than the one approved.`);
  }
  return checkBalance(ctx, s.currency, s.total, 'amount plus fee');
}

async function checkBalance(ctx: EngineContext, currency: string, needed: string, what: string): Promise<CheckOutcome> {
  const balance = (await ctx.exchange.balances({ currency })).find((b) => b.currency === currency);
  const available = balance?.available ?? '0';
  if (lt(available, needed)) return fail(`The available ${currency} balance (${available}) does not cover the ${what} (${needed}).`);
  return OK;
}

function fail(reason: string): CheckOutcome {
  return { ok: false, action: 'fail', reason };
}
