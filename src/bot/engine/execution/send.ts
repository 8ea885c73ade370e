// The money-moving calls, each with its idempotency key, answers returned as they came. Nothing is
// persisted here: the caller persisted the attempt before and persists the outcome after.
import { exchangeNoteOf } from '../../domain/desk-reference.js';
import type { RequestRecord } from '../../domain/record.js';
import type { IndicativeQuote } from '../../domain/request.js';
import { isExchangeError } from '../../ports/exchange-error.js';
import type { EngineContext } from '../context.js';
import { failureOf, type Answer } from './observations.js';

/** Sends the request's money-moving call with `key`; exchange errors become answers, anything else throws. */
export async function send(
  ctx: EngineContext,
  request: RequestRecord,
  key: string,
  quote: IndicativeQuote | null,
): Promise<Answer> {
  try {
    return await call(ctx, request, key, quote);
  } catch (err) {
    if (isExchangeError(err)) return { kind: 'error', failure: failureOf(err) };
    throw err;
  }
}

async function call(
  ctx: EngineContext,
  request: RequestRecord,
  key: string,
  quote: IndicativeQuote | null,
): Promise<Answer> {
  const s = request.snapshot;
  switch (s.kind) {
    case 'crypto_withdrawal': {
      const view = await ctx.exchange.withdrawCrypto(
        {
          cryptoCurrencyId: s.cryptoCurrencyId,
          amount: s.amount,
          destinationId: s.destination.id,
          note: noteOfThisAttempt(request),
          purpose: s.purpose,
        },
        key,
      );
      return { kind: 'submitted', exchangeId: view.exchangeId, view };
    }
    case 'fiat_withdrawal': {
      const view = await ctx.exchange.withdrawFiat(
        { bankAccountId: s.bankAccount.id, currency: s.currency, amount: s.amount, note: noteOfThisAttempt(request) },
        key,
      );
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
function noteOfThisAttempt(request: RequestRecord): string | null {
  return exchangeNoteOf(request.snapshot, request.execution?.attempts.length ?? 1);
}
