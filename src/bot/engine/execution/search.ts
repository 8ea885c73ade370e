// One look for a request in doubt, as the reference advises ("recent withdrawals are listed before
// resending"): orders by client_order_id, withdrawals on their terms, removals by absence. A list cut
// short or an exchange error proves nothing; the fiat list (no time filter) is read newest first.
import { cmp } from '../../domain/money.js';
import { attemptKeys, type Candidate, type RequestRecord, type InDoubt } from '../../domain/record.js';
import type { CryptoWithdrawalSnapshot, FiatWithdrawalSnapshot } from '../../domain/request.js';
import { isExchangeError } from '../../ports/exchange-error.js';
import type { ListedCryptoWithdrawal, ListedFiatWithdrawal } from '../../ports/exchange-port.js';
import { collect, findFirst, untilOlderThan } from '../bounded-lists.js';
import { attribute, type Attribution } from './attribution.js';
import { ownedExchangeIds } from './look-alikes.js';
import type { EngineContext } from '../context.js';
import type { ListOptions } from '../../ports/list-options.js';
import type { Look } from './in-doubt.js';

/** How far a search reads: a window holding more than this cannot prove absence. */
export const SEARCH_LIMIT = { pageSize: 100, maxItems: 2_000, maxPages: 40 };

export async function lookOnExchange(ctx: EngineContext, request: RequestRecord, inDoubt: InDoubt): Promise<Look> {
  let cut = false;
  const limit: ListOptions = { ...SEARCH_LIMIT, onTruncated: () => void (cut = true) };
  try {
    const look = await search(ctx, request, inDoubt, limit);
    // A cut list still proves what it found, never what it did not.
    if (cut && !(look.kind === 'found' && request.kind !== 'bank_account_removal')) {
      return {
        kind: 'inconclusive',
        cut: true,
        message: `The exchange lists more than ${SEARCH_LIMIT.maxItems.toLocaleString('en')} records in the search window, too many to prove which are there; a person should check on the exchange.`,
      };
    }
    return look;
  } catch (err) {
    if (!isExchangeError(err)) throw err;
    return { kind: 'inconclusive', cut: false, message: err.userMessage };
  }
}

async function search(ctx: EngineContext, request: RequestRecord, inDoubt: InDoubt, limit: ListOptions): Promise<Look> {
  const keys = attemptKeys(request);
  const s = request.snapshot;
  switch (s.kind) {
    case 'trade': {
      const order = await findFirst(
        ctx.exchange.orders({ from: inDoubt.window.from }, limit),
        (o) => o.clientOrderId !== null && keys.includes(o.clientOrderId),
      );
      return order === undefined ? none() : { kind: 'found', exchangeId: order.exchangeId };
    }
    case 'crypto_withdrawal': {
      // Once the window has closed, also what came after it: shown to a person, never adopted.
      const closed = ctx.clock.now() >= inDoubt.settleUntil;
      const items = await collect(
        ctx.exchange.cryptoWithdrawals(
          { from: inDoubt.window.from, ...(closed ? {} : { to: inDoubt.window.to }) },
          limit,
        ),
      );
      const owned = await ownedExchangeIds(ctx, request.kind, inDoubt.window.from);
      return marked(
        request,
        ctx,
        inDoubt,
        items.filter((w) => matchesCrypto(w, s) && !owned.has(w.exchangeId)),
        (w) => cryptoCandidate(w, s),
      );
    }
    case 'fiat_withdrawal': {
      const items = await collect(
        untilOlderThan(ctx.exchange.fiatWithdrawals(limit), inDoubt.window.from, (f) => f.createdAt),
      );
      const owned = await ownedExchangeIds(ctx, request.kind, inDoubt.window.from);
      return marked(
        request,
        ctx,
        inDoubt,
        items.filter((f) => matchesFiat(f, s, inDoubt) && !owned.has(f.exchangeId)),
        (f) => fiatCandidate(f, s, inDoubt),
      );
    }
    case 'bank_account_removal': {
      const account = await findFirst(ctx.exchange.bankAccounts(undefined, limit), (b) => b.id === s.bankAccount.id);
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

/** Ours (reference or key) is found; two of ours (a late first attempt: paid twice) go to a person; else terms-only candidates. */
function marked<T extends ListedCryptoWithdrawal | ListedFiatWithdrawal>(
  request: RequestRecord,
  ctx: EngineContext,
  inDoubt: InDoubt,
  items: T[],
  candidate: (item: T) => Candidate,
): Look {
  const whose = (item: T): Attribution => attribute(request, item, ctx.config);
  const ours = items.filter((item) => whose(item) === 'ours');
  if (ours.length > 1) {
    ctx.logger.error("more than one withdrawal on the exchange carries this request's mark: a person must look", {
      requestId: request.id,
      exchangeIds: ours.map((o) => o.exchangeId),
    });
    return { kind: 'candidates', candidates: ours.map(candidate) };
  }
  const mine = ours[0];
  if (mine !== undefined)
    return { kind: 'found', exchangeId: mine.exchangeId, by: mine.requestId !== null ? 'key' : 'reference' };
  return candidates(items.filter((item) => whose(item) === 'by_terms').map(candidate), inDoubt);
}

function matchesCrypto(w: ListedCryptoWithdrawal, s: CryptoWithdrawalSnapshot): boolean {
  const destination =
    w.destinationId === s.destination.id || (w.address !== null && w.address === s.destination.address);
  return w.cryptoCurrencyId === s.cryptoCurrencyId && cmp(w.amount, s.amount) === 0 && destination;
}

function cryptoCandidate(w: ListedCryptoWithdrawal, s: CryptoWithdrawalSnapshot): Candidate {
  return {
    exchangeId: w.exchangeId,
    createdAt: w.createdAt,
    amount: w.amount,
    status: w.status ?? 'unknown',
    requestId: w.requestId,
    destination: w.destinationLabel ?? w.address ?? s.destination.label,
  };
}

/** A record without an amount that is a decimal cannot be ours; one without a readable time cannot be ruled out. */
function matchesFiat(f: ListedFiatWithdrawal, s: FiatWithdrawalSnapshot, inDoubt: InDoubt): boolean {
  if (f.amount === null || cmp(f.amount, s.amount) !== 0) return false;
  if (f.currency !== null && f.currency !== s.currency) return false;
  if (f.bankAccountId !== null && f.bankAccountId !== s.bankAccount.id) return false;
  // Before the window: not ours (fiatCandidate puts a record without a time in the window).
  return f.createdAt === null || f.createdAt >= inDoubt.window.from;
}

function fiatCandidate(f: ListedFiatWithdrawal, s: FiatWithdrawalSnapshot, inDoubt: InDoubt): Candidate {
  return {
    exchangeId: f.exchangeId,
    // Without a readable time: inside any window, so a person sees it rather than nobody.
    createdAt: f.createdAt ?? inDoubt.window.from,
    amount: f.amount ?? '',
    status: f.status ?? 'unknown',
    requestId: f.requestId,
    destination: s.bankAccount.display,
  };
}
