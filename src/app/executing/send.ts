/**
 * The money-moving calls, one per kind, each carrying its idempotency key, and the reading of
 * their answer into a settled outcome. Nothing is persisted here: the caller persisted the
 * attempt before and persists the outcome after.
 */
import type { DeskRequest } from '../../domain/record.js';
import type { IndicativeQuote } from '../../domain/request.js';
import { DUPLICATE_CLIENT_ORDER_ID_STATUS, QUOTE_UNUSABLE_STATUS, isDuplicateClientOrderIdMessage, isQuoteUnusableMessage } from '../../exchange/assumptions.js';
import { isExchangeError, type ExchangeError } from '../../exchange/errors.js';
import type { CreateCryptoWithdrawalBody, CreateFiatWithdrawalBody } from '../../exchange/schemas.js';
import type { EngineContext } from '../context.js';
import { fromCryptoWithdrawal, fromFiatWithdrawal, fromOrder, type RemoteView } from '../following/remote-view.js';

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
    if (isExchangeError(err)) return outcomeOf(request, err);
    throw err;
  }
}

async function call(ctx: EngineContext, request: DeskRequest, key: string, quote: IndicativeQuote | null): Promise<SendOutcome> {
  const s = request.snapshot;
  switch (s.kind) {
    case 'crypto_withdrawal': {
      const body: CreateCryptoWithdrawalBody = { crypto_currency_id: s.cryptoCurrencyId, amount: s.amount, address_book_address_id: s.destination.id, request_id: key };
      if (s.note !== null) body.note = s.note;
      if (s.purpose !== null) body.transaction_purpose = s.purpose;
      const w = await ctx.exchange.createCryptoWithdrawal(body);
      return { kind: 'submitted', exchangeId: w.id, view: fromCryptoWithdrawal(w) };
    }
    case 'fiat_withdrawal': {
      const body: CreateFiatWithdrawalBody = { bank_account_id: s.bankAccount.id, currency: s.currency, amount: s.amount, request_id: key };
      const f = await ctx.exchange.createFiatWithdrawal(body);
      return { kind: 'submitted', exchangeId: String(f.id), view: fromFiatWithdrawal(f) };
    }
    case 'trade': {
      if (quote === null) throw new Error(`trade ${request.id}: no quote to order on`);
      const order = await ctx.exchange.createOrder({ execution_type: 'rfq', order_quote_id: quote.quoteId, client_order_id: key });
      return { kind: 'submitted', exchangeId: String(order.id), view: fromOrder(order) };
    }
    case 'bank_account_removal':
      await ctx.exchange.deleteBankAccount(String(s.bankAccount.id));
      return { kind: 'completed' };
  }
}

/**
 * Timeouts, dropped connections and 5xx leave the outcome unknown. So do a 2xx we could not
 * read (the exchange acted) and a 429 (safer to look before sending again). Other 4xx settle it.
 */
function outcomeOf(request: DeskRequest, err: ExchangeError): SendOutcome {
  if (err.outcomeUnknown || err.kind === 'invalid_response' || err.kind === 'rate_limited') return { kind: 'unknown', message: err.userMessage, duplicate: false };
  // A reused client_order_id is refused because the order exists: never "failed", always "find it".
  if (request.kind === 'trade' && (err.status === undefined || err.status === DUPLICATE_CLIENT_ORDER_ID_STATUS) && err.messages.some(isDuplicateClientOrderIdMessage)) {
    return { kind: 'unknown', message: `The exchange already has an order with this client order id (${err.userMessage}); looking for it.`, duplicate: true };
  }
  return {
    kind: 'refused',
    status: err.status,
    message: err.userMessage,
    quoteUnusable: (err.status === undefined || err.status === QUOTE_UNUSABLE_STATUS) && err.messages.some(isQuoteUnusableMessage),
    notFound: err.kind === 'not_found',
  };
}
