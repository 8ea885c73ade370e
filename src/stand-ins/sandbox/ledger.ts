// Balance movements in decimal strings. Callers check funds first and answer a clear 422; these only
// refuse broken invariants.
import { add, gte, sub } from '../../bot/domain/money.js';
import { balanceOf, type AccountState } from './state.js';

function take(from: string, amount: string, what: string): string {
  if (!gte(from, amount)) throw new Error(`sandbox invariant: ${what} would go negative`);
  return sub(from, amount);
}

/** Regular funds available for trading and withdrawals. */
export function available(account: AccountState, symbol: string): string {
  return account.balances.get(symbol)?.regular ?? '0';
}

export function creditRegular(account: AccountState, symbol: string, amount: string): void {
  const b = balanceOf(account, symbol);
  b.regular = add(b.regular, amount);
}

/** Money leaves `regular` (a withdrawal hold or a debit). */
export function debitRegular(account: AccountState, symbol: string, amount: string): void {
  const b = balanceOf(account, symbol);
  b.regular = take(b.regular, amount, `${symbol} regular`);
}

/** An order locks what it pays: regular -> locked_balance.orders. */
export function lockForOrder(account: AccountState, symbol: string, amount: string): void {
  const b = balanceOf(account, symbol);
  b.regular = take(b.regular, amount, `${symbol} regular`);
  b.orders = add(b.orders, amount);
}

/** A completed order spends its lock; a cancelled one returns it to regular. */
export function releaseOrderLock(
  account: AccountState,
  symbol: string,
  amount: string,
  returnToRegular: boolean,
): void {
  const b = balanceOf(account, symbol);
  b.orders = take(b.orders, amount, `${symbol} orders lock`);
  if (returnToRegular) b.regular = add(b.regular, amount);
}
