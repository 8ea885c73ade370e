/**
 * One look on the exchange for a request whose send has an unknown outcome, as the reference
 * advises ("recent withdrawals are listed before resending"), within the window the doubt fixed:
 *   - an order by its client_order_id;
 *   - a crypto or fiat withdrawal by a request_id of ours when the list carries it, else every
 *     record matching its terms (currency entry or currency, amount, destination) that no other
 *     request owns and that carries no other request_id: the candidates;
 *   - a bank account removal by the account's absence.
 * A list a bound cut short proves nothing, and neither does an exchange error: inconclusive.
 */
import { cmp } from '../../domain/money.js';
import { attemptKeys, type Candidate, type DeskRequest, type InDoubt } from '../../domain/record.js';
import type { CryptoWithdrawalSnapshot, FiatWithdrawalSnapshot } from '../../domain/request.js';
import { isExchangeError } from '../../exchange/errors.js';
import type { CryptoWithdrawalListItem, FiatWithdrawalListItem } from '../../exchange/schemas.js';
import { collect, findFirst } from '../collect.js';
import { ownedExchangeIds } from './look-alikes.js';
import type { EngineContext } from '../context.js';
import type { ListOptions } from '../ports.js';
import type { Look } from './in-doubt.js';

/** How far a search reads: a window holding more than this cannot prove absence. */
export const SEARCH_LIMIT = { pageSize: 100, maxItems: 2_000, maxPages: 40 };

export async function lookOnExchange(ctx: EngineContext, request: DeskRequest, inDoubt: InDoubt): Promise<Look> {
  let cut = false;
  const limit: ListOptions = { ...SEARCH_LIMIT, onTruncated: () => void (cut = true) };
  try {
    const look = await search(ctx, request, inDoubt, limit);
    // A cut list still proves what it found, never what it did not.
    if (cut && !(look.kind === 'found' && request.kind !== 'bank_account_removal')) {
      return { kind: 'inconclusive', cut: true, message: `The exchange lists more than ${SEARCH_LIMIT.maxItems.toLocaleString('en')} records in the search window, too many to prove which are there; a person should check on the exchange.` };
    }
    return look;
  } catch (err) {
    if (!isExchangeError(err)) throw err;
    return { kind: 'inconclusive', cut: false, message: err.userMessage };
  }
}

async function search(ctx: EngineContext, request: DeskRequest, inDoubt: InDoubt, limit: ListOptions): Promise<Look> {
  const keys = attemptKeys(request);
  const s = request.snapshot;
  switch (s.kind) {
    case 'trade': {
      const order = await findFirst(ctx.exchange.listOrders({ from_time: inDoubt.window.from }, limit), (o) => typeof o.client_order_id === 'string' && keys.includes(o.client_order_id));
      return order === undefined ? none() : { kind: 'found', exchangeId: String(order.id) };
    }
    case 'crypto_withdrawal': {
      // Once the window has closed, also what came after it: shown to a person, never adopted.
      const closed = ctx.clock.now() >= inDoubt.settleUntil;
      const items = await collect(ctx.exchange.listCryptoWithdrawals({ from_time: inDoubt.window.from, ...(closed ? {} : { to_time: inDoubt.window.to }) }, limit));
      const owned = await ownedExchangeIds(ctx, request.kind, inDoubt.window.from);
      const mine = items.find((w) => typeof w.request_id === 'string' && keys.includes(w.request_id));
      if (mine !== undefined) return { kind: 'found', exchangeId: mine.id };
      const matching = items.filter((w) => matchesCrypto(w, s) && !owned.has(w.id) && !carriesOtherKey(w.request_id, keys)).map((w) => cryptoCandidate(w, s));
      return candidates(matching, inDoubt);
    }
    case 'fiat_withdrawal': {
      const items = await collect(ctx.exchange.listFiatWithdrawals(limit));
      const owned = await ownedExchangeIds(ctx, request.kind, inDoubt.window.from);
      const mine = items.find((f) => typeof f.request_id === 'string' && keys.includes(f.request_id) && f.id !== undefined);
      if (mine !== undefined) return { kind: 'found', exchangeId: String(mine.id) };
      return candidates(
        items.filter((f) => f.id !== undefined && matchesFiat(f, s, inDoubt) && !owned.has(String(f.id)) && !carriesOtherKey(f.request_id, keys)).map((f) => fiatCandidate(f, s, inDoubt)),
        inDoubt,
      );
    }
    case 'bank_account_removal': {
      const account = await findFirst(ctx.exchange.listBankAccounts(undefined, limit), (b) => b.id === s.bankAccount.id);
      // Absence is the finding here ("removed"); a cut list is caught by the caller.
      return account === undefined ? { kind: 'found', exchangeId: String(s.bankAccount.id) } : none();
    }
  }
}

function none(): Look {
  return { kind: 'candidates', candidates: [] };
}

/** In-window candidates, and those created after the window (a fiat record without a time counts as in it). */
function candidates(list: Candidate[], inDoubt: InDoubt): Look {
  const sorted = list.sort((a, b) => a.createdAt - b.createdAt || a.exchangeId.localeCompare(b.exchangeId));
  const late = sorted.filter((c) => c.createdAt > inDoubt.window.to);
  const inside = sorted.filter((c) => c.createdAt >= inDoubt.window.from && c.createdAt <= inDoubt.window.to);
  return { kind: 'candidates', candidates: inside, ...(late.length > 0 ? { late } : {}) };
}

/** A listed request_id that is none of ours marks a record another sender made. */
function carriesOtherKey(requestId: unknown, keys: string[]): boolean {
  return typeof requestId === 'string' && requestId !== '' && !keys.includes(requestId);
}

function matchesCrypto(w: CryptoWithdrawalListItem, s: CryptoWithdrawalSnapshot): boolean {
  const destination = w.address_book_address?.id === s.destination.id || (w.address !== undefined && w.address === s.destination.address);
  return w.crypto_currency.id === s.cryptoCurrencyId && cmp(w.amount, s.amount) === 0 && destination;
}

function cryptoCandidate(w: CryptoWithdrawalListItem, s: CryptoWithdrawalSnapshot): Candidate {
  return {
    exchangeId: w.id,
    createdAt: w.created_at,
    amount: w.amount,
    status: w.status,
    requestId: typeof w.request_id === 'string' ? w.request_id : null,
    destination: w.address_book_address?.label ?? w.address ?? s.destination.label,
  };
}

function matchesFiat(f: FiatWithdrawalListItem, s: FiatWithdrawalSnapshot, inDoubt: InDoubt): boolean {
  if (f.amount === undefined || !/^-?\d+(\.\d+)?$/.test(f.amount) || cmp(f.amount, s.amount) !== 0) return false;
  if (f.currency !== undefined && f.currency !== s.currency) return false;
  if (typeof f.bank_account_id === 'number' && f.bank_account_id !== s.bankAccount.id) return false;
  const created = createdAtMs(f.created_at);
  // Before the window: not ours. Without a readable time it cannot be ruled out (fiatCandidate puts it in the window).
  return created === undefined || created >= inDoubt.window.from;
}

function fiatCandidate(f: FiatWithdrawalListItem, s: FiatWithdrawalSnapshot, inDoubt: InDoubt): Candidate {
  return {
    exchangeId: String(f.id),
    // Without a readable time: inside any window, so a person sees it rather than nobody.
    createdAt: createdAtMs(f.created_at) ?? inDoubt.window.from,
    amount: f.amount ?? '',
    status: f.status ?? 'unknown',
    requestId: typeof f.request_id === 'string' ? f.request_id : null,
    destination: s.bankAccount.display,
  };
}

function createdAtMs(value: string | number | undefined): number | undefined {
  if (typeof value === 'number') return value;
  if (value === undefined) return undefined;
  const parsed = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}
