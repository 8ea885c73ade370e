// Withdrawals are matched on their terms, so same-terms requests could be mistaken: at most one per terms
// is in doubt at a time (a terms claim in the shared store), and an owned exchange id is never taken again.
// The rules: docs/execution.md "Requests that look alike".
import { normalize } from '../../domain/money.js';
import { isFinalState } from '../../domain/state-machine.js';
import type { RequestRecord } from '../../domain/record.js';
import type { EngineContext } from '../context.js';

/** What the exchange would show of this request, as a lock key. Trades match on their own key: no look-alikes. */
export function termsKey(request: RequestRecord): string {
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

/** Holds the request's terms lock until the returned release is called (not re-entrant: never hold it twice). */
export function holdTerms(ctx: EngineContext, request: RequestRecord): Promise<() => void> {
  return ctx.termsLocks.acquire(termsKey(request));
}

/** Another live request with the same terms whose outcome is in doubt, if any. */
export async function inDoubtLookAlike(ctx: EngineContext, request: RequestRecord): Promise<RequestRecord | undefined> {
  const key = termsKey(request);
  return (await ctx.requests.listLive()).find(
    (r) => r.id !== request.id && (r.state === 'executing' || r.state === 'unknown') && termsKey(r) === key,
  );
}

/** Withdrawals are matched on their terms by a look: the ones that take the terms claim. */
function claimsTerms(request: RequestRecord): boolean {
  return request.kind === 'crypto_withdrawal' || request.kind === 'fiat_withdrawal';
}

/** KV key of the claim naming the one request of these terms that may be in doubt. */
export function termsClaimKey(request: RequestRecord): string {
  return `terms-claim:${termsKey(request)}`;
}

/** Tries to take a stale claim away; more than this many turns means real contention: wait. */
const CLAIM_TURNS = 3;

/** Held already on a resend; otherwise the holder's id. A claim whose holder is past doubt for good or gone is removed first. */
export async function claimTerms(
  ctx: EngineContext,
  request: RequestRecord,
): Promise<{ held: true } | { held: false; by: string }> {
  if (!claimsTerms(request)) return { held: true };
  const key = termsClaimKey(request);
  let holder: string | undefined;
  for (let turn = 0; turn < CLAIM_TURNS; turn++) {
    if (await ctx.kv.setIfAbsent(key, request.id)) return { held: true };
    holder = await ctx.kv.get<string>(key);
    if (holder === request.id) return { held: true };
    if (holder !== undefined && !(await clearIfStale(ctx, key, holder))) return { held: false, by: holder };
  }
  return { held: false, by: holder ?? 'unknown' };
}

/** Releases the request's terms claim if it still holds it (never a claim another took since). */
export async function releaseTerms(ctx: EngineContext, request: RequestRecord): Promise<void> {
  if (claimsTerms(request)) await ctx.kv.deleteIf(termsClaimKey(request), request.id);
}

/** Past doubt for good: it can never be `executing` or `unknown` again. */
export function pastDoubt(request: Pick<RequestRecord, 'state'>): boolean {
  return request.state === 'submitted' || isFinalState(request.state);
}

/** Removes the claim if its holder is past doubt for good or gone; true when it was stale. */
async function clearIfStale(ctx: EngineContext, key: string, holder: string): Promise<boolean> {
  const record = await ctx.requests.get(holder);
  if (record !== undefined && !pastDoubt(record)) return false;
  if (await ctx.kv.deleteIf(key, holder))
    ctx.logger.warn('removed a stale terms claim (its request is past doubt or gone; the release was lost)', {
      key,
      holder,
      state: record?.state ?? null,
    });
  return true;
}

const FIRST_HISTORY_PAGE = 200;
const MAX_HISTORY_SCAN = 200_000;

/** History is read back to requests finished before `sinceMs`: a record created in the window belongs to one finished after it opened. */
export async function ownedExchangeIds(
  ctx: EngineContext,
  kind: RequestRecord['kind'],
  sinceMs: number,
): Promise<Set<string>> {
  const owned = new Set<string>();
  const add = (records: RequestRecord[]) => {
    for (const r of records) if (r.kind === kind && r.execution?.exchangeId) owned.add(r.execution.exchangeId);
  };
  add(await ctx.requests.listLive());
  for (let limit = FIRST_HISTORY_PAGE; ; limit *= 10) {
    const recent = await ctx.requests.recentHistory(limit);
    add(recent);
    const oldest = recent.at(-1);
    if (recent.length < limit || oldest === undefined || oldest.updatedAt < sinceMs || limit >= MAX_HISTORY_SCAN)
      return owned;
  }
}
