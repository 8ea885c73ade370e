/**
 * The money-moving calls, one per kind, each carrying its idempotency key, and the reading of
 * their answer into a settled outcome. Nothing is persisted here: the caller persisted the
 * attempt before and persists the outcome after.
 */
import { exchangeNoteOf } from '../../domain/desk-reference.js';
import type { DeskRequest } from '../../domain/record.js';
import type { IndicativeQuote } from '../../domain/request.js';
import type { RemoteView } from '../../ports/exchange-port.js';
import { isExchangeError, type ExchangeError } from '../../ports/exchange-error.js';
import type { EngineContext } from '../context.js';

export type SendOutcome =
  | { kind: 'submitted'; exchangeId: string; view: RemoteView | undefined }
  /** A bank account removal is done on its 204. */
  | { kind: 'completed' }
  | { kind: 'refused'; status: number | undefined; message: string; quoteUnusable: boolean; notFound: boolean }
  /** `duplicate`: the exchange says an order with this client_order_id exists: it was placed, find it. */
  | { kind: 'unknown'; message: string; duplicate: boolean };

/** Sends the request's money-moving call with `key`; exchange errors become outcomes, anything else throws. */
export async function send(ctx: EngineContext, request: DeskRequest, key: string, quote: IndicativeQuote | null): Promise<SendOutcome> {
  try {
    return await call(ctx, request, key, quote);
  } catch (err) {
    if (isExchangeError(err)) return outcomeOf(err);
    throw err;
  }
}

async function call(ctx: EngineContext, request: DeskRequest, key: string, quote: IndicativeQuote | null): Promise<SendOutcome> {
  const s = request.snapshot;
  switch (s.kind) {
    case 'crypto_withdrawal': {
      const view = await ctx.exchange.withdrawCrypto({ cryptoCurrencyId: s.cryptoCurrencyId, amount: s.amount, destinationId: s.destination.id, note: noteOfThisAttempt(request), purpose: s.purpose }, key);
      return { kind: 'submitted', exchangeId: view.exchangeId, view };
    }
    case 'fiat_withdrawal': {
      const view = await ctx.exchange.withdrawFiat({ bankAccountId: s.bankAccount.id, currency: s.currency, amount: s.amount, note: noteOfThisAttempt(request) }, key);
      return { kind: 'submitted', exchangeId: view.exchangeId, view };
    }
    case 'trade': {
      if (quote === null) throw new Error(`trade ${request.id}: no quote to order on`);
      const view = await ctx.exchange.placeOrder(quote.quoteId, key);
      return { kind: 'submitted', exchangeId: view.exchangeId, view };
    }
    case 'bank_account_removal':
      await ctx.exchange.removeBankAccount(s.bankAccount.id);
      return { kind: 'completed' };
  }
}

/** The attempt being sent is the last one, persisted before the call. */
function noteOfThisAttempt(request: DeskRequest): string | null {
  return exchangeNoteOf(request.snapshot, request.execution?.attempts.length ?? 1);
}

/**
 * Timeouts, dropped connections and 5xx leave the outcome unknown. So do a 2xx we could not
 * read (the exchange acted) and a 429 (safer to look before sending again). Other 4xx settle it.
 */
function outcomeOf(err: ExchangeError): SendOutcome {
  if (err.outcomeUnknown || err.kind === 'invalid_response' || err.kind === 'rate_limited') return { kind: 'unknown', message: err.userMessage, duplicate: false };
  // A reused client_order_id is refused because the order exists: never "failed", always "find it".
  if (err.refusal === 'duplicate_client_order_id') {
    return { kind: 'unknown', message: `The exchange already has an order with this client order id (${err.userMessage}); looking for it.`, duplicate: true };
  }
  return {
    kind: 'refused',
    status: err.status,
    message: err.userMessage,
    quoteUnusable: err.refusal === 'quote_unusable',
    notFound: err.kind === 'not_found',
  };
}
