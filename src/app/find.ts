/**
 * Finding a request on the exchange after an unknown outcome, as the reference advises:
 * orders by client_order_id; crypto withdrawals listed since the attempt and matched on currency
 * entry, amount, destination and time; fiat withdrawals on request_id when the list carries it,
 * else amount, currency, bank account and time; a bank account removal by the account's absence.
 * A record another request owns is never taken (`owned`, see claims.ts).
 */
import { cmp } from '../domain/money.js';
import { attemptKeys, firstSentAt, type DeskRequest } from '../domain/record.js';
import type { CryptoWithdrawalSnapshot, FiatWithdrawalSnapshot } from '../domain/request.js';
import type { CryptoWithdrawalListItem, FiatWithdrawalListItem } from '../exchange/schemas.js';
import { collect, findFirst } from './collect.js';
import { isExchangeError, type ExchangeError } from '../exchange/errors.js';
import type { ListOptions } from './ports.js';
import { ownedExchangeIds } from './claims.js';
import type { EngineContext } from './context.js';
import { markCompleted, markSubmitted } from './outcomes.js';
import { fromCryptoWithdrawal, fromFiatWithdrawal, fromOrder, type RemoteView } from './remote.js';

export type Found = { kind: 'submitted'; exchangeId: string; view: RemoteView | undefined } | { kind: 'removed' };

/** How far a search reads: a window holding more than this cannot prove absence (see below). */
const LIST_LIMIT = { pageSize: 100, maxItems: 2_000, maxPages: 40 };

/**
 * The exchange lists more records in the search window than a search reads, and none of those
 * read matches. Not finding is then no proof of absence, and a send after a false "absent" could
 * move money twice: the outcome stays unknown and is looked at again, like an unreadable exchange.
 */
export class SearchIncompleteError extends Error {
  override name = 'SearchIncompleteError';
  readonly userMessage: string;

  constructor(operation: string) {
    super(`${operation}: more than ${LIST_LIMIT.maxItems} records in the search window and none matched; absence not proven`);
    this.userMessage = `The exchange lists more than ${LIST_LIMIT.maxItems.toLocaleString('en')} records since this was sent, too many to prove it is not among them; a person must check on the exchange.`;
  }
}

/** An error after which a search must be tried again later: nothing was proven either way. */
export function isInconclusiveSearch(err: unknown): err is ExchangeError | SearchIncompleteError {
  return isExchangeError(err) || err instanceof SearchIncompleteError;
}

/**
 * Looks for the request on the exchange and, when found, persists it as submitted (a bank
 * account removal: completed). True when found; exchange errors are thrown. The caller holds the
 * request's terms lock (claims.ts).
 */
export async function findAndSettle(ctx: EngineContext, request: DeskRequest): Promise<boolean> {
  const owned = await ownedExchangeIds(ctx, request.kind, searchWindow(ctx, request).from);
  const found = await findOnExchange(ctx, request, owned);
  if (found === undefined) return false;
  if (found.kind === 'removed') await markCompleted(ctx, request, 'found removed after an unknown outcome');
  else await markSubmitted(ctx, request, found.exchangeId, found.view, 'reconciled');
  return true;
}

/** Undefined when nothing on the exchange matches. Exchange errors are thrown. */
export async function findOnExchange(ctx: EngineContext, request: DeskRequest, owned: ReadonlySet<string>): Promise<Found | undefined> {
  let cut = false;
  const limit = { ...LIST_LIMIT, onTruncated: () => void (cut = true) };
  const found = await search(ctx, request, owned, limit, () => cut);
  if (found === undefined && cut) throw new SearchIncompleteError(`reconcile ${request.kind}`);
  return found;
}

async function search(ctx: EngineContext, request: DeskRequest, owned: ReadonlySet<string>, limit: ListOptions, truncated: () => boolean): Promise<Found | undefined> {
  const window = searchWindow(ctx, request);
  const s = request.snapshot;
  switch (s.kind) {
    case 'trade': {
      const keys = attemptKeys(request);
      const order = await findFirst(ctx.exchange.listOrders({ from_time: window.from }, limit), (o) => typeof o.client_order_id === 'string' && keys.includes(o.client_order_id));
      return order === undefined ? undefined : { kind: 'submitted', exchangeId: String(order.id), view: fromOrder(order) };
    }
    case 'crypto_withdrawal': {
      const items = await collect(ctx.exchange.listCryptoWithdrawals({ from_time: window.from }, limit));
      const match = items.filter((w) => matchesCrypto(w, s, window) && !owned.has(w.id)).sort((a, b) => a.created_at - b.created_at)[0];
      return match === undefined ? undefined : { kind: 'submitted', exchangeId: match.id, view: fromCryptoWithdrawal(match) };
    }
    case 'fiat_withdrawal': {
      const items = await collect(ctx.exchange.listFiatWithdrawals(limit));
      const keys = attemptKeys(request);
      const byKey = items.find((f) => typeof f.request_id === 'string' && keys.includes(f.request_id));
      const candidates = byKey ? [byKey] : items.filter((f) => matchesFiat(f, s, window));
      const match = candidates.find((f) => !owned.has(String(f.id)));
      return match === undefined || match.id === undefined ? undefined : { kind: 'submitted', exchangeId: String(match.id), view: fromFiatWithdrawal(match) };
    }
    case 'bank_account_removal': {
      const account = await findFirst(ctx.exchange.listBankAccounts(undefined, limit), (b) => b.id === s.bankAccount.id);
      if (account !== undefined) return undefined;
      // Here absence is the finding ("removed"), so it needs the whole list as much as the others.
      if (truncated()) throw new SearchIncompleteError('reconcile bank_account_removal');
      return { kind: 'removed' };
    }
  }
}

interface Window {
  from: number;
  to: number;
}

/** From the first send of the current key to the last send, widened by the clock skew allowed. */
export function searchWindow(ctx: EngineContext, request: DeskRequest): Window {
  const first = firstSentAt(request) ?? request.updatedAt;
  const last = request.execution?.attempts.at(-1)?.startedAt ?? first;
  return { from: Math.max(0, first - ctx.config.clockSkewMs), to: Math.max(last, ctx.clock.now()) + ctx.config.clockSkewMs };
}

function matchesCrypto(w: CryptoWithdrawalListItem, s: CryptoWithdrawalSnapshot, window: Window): boolean {
  const destination = w.address_book_address?.id === s.destination.id || (w.address !== undefined && w.address === s.destination.address);
  return w.crypto_currency.id === s.cryptoCurrencyId && cmp(w.amount, s.amount) === 0 && destination && w.created_at >= window.from && w.created_at <= window.to;
}

function matchesFiat(f: FiatWithdrawalListItem, s: FiatWithdrawalSnapshot, window: Window): boolean {
  if (f.id === undefined || f.amount === undefined || !/^-?\d+(\.\d+)?$/.test(f.amount) || cmp(f.amount, s.amount) !== 0) return false;
  if (f.currency !== undefined && f.currency !== s.currency) return false;
  if (typeof f.bank_account_id === 'number' && f.bank_account_id !== s.bankAccount.id) return false;
  const created = createdAtMs(f.created_at);
  // Without a readable time, matching is the safer error: a missed send shows as a stuck status,
  // a duplicate send moves money twice.
  return created === undefined || (created >= window.from && created <= window.to);
}

function createdAtMs(value: string | number | undefined): number | undefined {
  if (typeof value === 'number') return value;
  if (value === undefined) return undefined;
  const parsed = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}
