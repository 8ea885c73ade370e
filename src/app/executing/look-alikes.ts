/**
 * Telling apart requests that look alike on the exchange. A crypto or fiat withdrawal found by a
 * reconcile is matched on its terms (entry, amount, destination, time), so two requests with the
 * same terms could be mistaken for each other. Two rules prevent it:
 *   - at most one request per terms is in doubt (`executing` or `unknown`) at a time: sends and
 *     reconciles of the same terms run under one lock, and a send waits while a twin is in doubt;
 *   - a record already owned by a request (its persisted exchangeId) is never taken again.
 * (One process per store: the store's file lock sees to that.)
 */
import { normalize } from '../../domain/money.js';
import type { DeskRequest } from '../../domain/record.js';
import type { EngineContext } from '../context.js';

/** What the exchange would show of this request, as a lock key. Trades match on their own key: no twins. */
export function termsKey(request: DeskRequest): string {
  const s = request.snapshot;
  switch (s.kind) {
    case 'crypto_withdrawal':
      return `crypto:${s.cryptoCurrencyId}:${normalize(s.amount)}:${s.destination.id}`;
    case 'fiat_withdrawal':
      return `fiat:${s.currency}:${normalize(s.amount)}:${s.bankAccount.id}`;
    case 'bank_account_removal':
      return `bank:${s.bankAccount.id}`;
    case 'trade':
      return `trade:${request.id}`;
  }
}

/** Runs `fn` holding the request's terms lock (not re-entrant: never nest two calls). */
export function withTerms<T>(ctx: EngineContext, request: DeskRequest, fn: () => Promise<T>): Promise<T> {
  return ctx.termsLocks.run(termsKey(request), fn);
}

/** Another live request with the same terms whose outcome is in doubt, if any. */
export async function inDoubtTwin(ctx: EngineContext, request: DeskRequest): Promise<DeskRequest | undefined> {
  const key = termsKey(request);
  return (await ctx.requests.listLive()).find((r) => r.id !== request.id && (r.state === 'executing' || r.state === 'unknown') && termsKey(r) === key);
}

const FIRST_HISTORY_PAGE = 200;
const MAX_HISTORY_SCAN = 200_000;

/**
 * Exchange ids of `kind` that requests own. History is read back until requests that finished
 * before `sinceMs`: a record the exchange created in the search window belongs to a request that
 * finished after the window opened.
 */
export async function ownedExchangeIds(ctx: EngineContext, kind: DeskRequest['kind'], sinceMs: number): Promise<Set<string>> {
  const owned = new Set<string>();
  const add = (records: DeskRequest[]) => {
    for (const r of records) if (r.kind === kind && r.execution?.exchangeId) owned.add(r.execution.exchangeId);
  };
  add(await ctx.requests.listLive());
  for (let limit = FIRST_HISTORY_PAGE; ; limit *= 10) {
    const recent = await ctx.requests.recentHistory(limit);
    add(recent);
    const oldest = recent.at(-1);
    if (recent.length < limit || oldest === undefined || oldest.updatedAt < sinceMs || limit >= MAX_HISTORY_SCAN) return owned;
  }
}
