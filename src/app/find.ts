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
import { ownedExchangeIds } from './claims.js';
import type { EngineContext } from './context.js';
import { markCompleted, markSubmitted } from './outcomes.js';
import { fromCryptoWithdrawal, fromFiatWithdrawal, fromOrder, type RemoteView } from './remote.js';

export type Found = { kind: 'submitted'; exchangeId: string; view: RemoteView | undefined } | { kind: 'removed' };

const LIST_LIMIT = { pageSize: 100, maxPages: 20 };

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
  const window = searchWindow(ctx, request);
  const s = request.snapshot;
  switch (s.kind) {
    case 'trade': {
      const keys = attemptKeys(request);
      const order = await findFirst(ctx.exchange.listOrders({ from_time: window.from }, LIST_LIMIT), (o) => typeof o.client_order_id === 'string' && keys.includes(o.client_order_id));
      return order === undefined ? undefined : { kind: 'submitted', exchangeId: String(order.id), view: fromOrder(order) };
    }
    case 'crypto_withdrawal': {
      const items = await collect(ctx.exchange.listCryptoWithdrawals({ from_time: window.from }, LIST_LIMIT));
      const match = items.filter((w) => matchesCrypto(w, s, window) && !owned.has(w.id)).sort((a, b) => a.created_at - b.created_at)[0];
      return match === undefined ? undefined : { kind: 'submitted', exchangeId: match.id, view: fromCryptoWithdrawal(match) };
    }
    case 'fiat_withdrawal': {
      const items = await collect(ctx.exchange.listFiatWithdrawals(LIST_LIMIT));
      const keys = attemptKeys(request);
      const byKey = items.find((f) => typeof f.request_id === 'string' && keys.includes(f.request_id));
      const candidates = byKey ? [byKey] : items.filter((f) => matchesFiat(f, s, window));
      const match = candidates.find((f) => !owned.has(String(f.id)));
      return match === undefined || match.id === undefined ? undefined : { kind: 'submitted', exchangeId: String(match.id), view: fromFiatWithdrawal(match) };
    }
    case 'bank_account_removal': {
      const account = await findFirst(ctx.exchange.listBankAccounts(undefined, LIST_LIMIT), (b) => b.id === s.bankAccount.id);
      return account === undefined ? { kind: 'removed' } : undefined;
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
