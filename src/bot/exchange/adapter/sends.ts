// The calls that move money, in the engine's terms: each carries its idempotency key, and a refusal
// is read here (assumptions.ts) so the engine never parses the exchange's messages.
import { normalize } from '../../domain/money.js';
import type { IndicativeQuote } from '../../domain/request.js';
import type { ExchangePort, QuoteTerms, RemoteView } from '../../ports/exchange-port.js';
import { isExchangeError } from '../../ports/exchange-error.js';
import type { ExchangeApi } from '../wire-api.js';
import {
  DUPLICATE_CLIENT_ORDER_ID_STATUS,
  QUOTE_UNUSABLE_STATUS,
  isDuplicateClientOrderIdMessage,
  isQuoteUnusableMessage,
} from '../assumptions.js';
import type { CreateCryptoWithdrawalBody, CreateFiatWithdrawalBody, CreateQuoteBody } from '../schemas.js';
import { cryptoWithdrawalView, fiatWithdrawalView, orderView } from './remote-views.js';

type Sends = Pick<ExchangePort, 'quote' | 'withdrawCrypto' | 'withdrawFiat' | 'placeOrder' | 'removeBankAccount'>;

export function sends(api: ExchangeApi): Sends {
  return {
    async quote(terms: QuoteTerms): Promise<IndicativeQuote> {
      const body: CreateQuoteBody = {
        symbol: terms.symbol,
        side: terms.side,
        quantity: terms.quantity,
        payment_method: terms.paymentMethod,
      };
      if (terms.quantityCurrency !== null) body.currency = terms.quantityCurrency;
      const quote = await api.createQuote(body);
      return { quoteId: quote.quote_id, price: normalize(quote.locked_price), expiresAt: quote.expires_at };
    },

    async withdrawCrypto(w, requestId): Promise<RemoteView> {
      const body: CreateCryptoWithdrawalBody = {
        crypto_currency_id: w.cryptoCurrencyId,
        amount: w.amount,
        address_book_address_id: w.destinationId,
        request_id: requestId,
      };
      if (w.note !== null) body.note = w.note;
      if (w.purpose !== null) body.transaction_purpose = w.purpose;
      return cryptoWithdrawalView(await api.createCryptoWithdrawal(body));
    },

    async withdrawFiat(w, requestId): Promise<RemoteView> {
      const body: CreateFiatWithdrawalBody = {
        bank_account_id: w.bankAccountId,
        currency: w.currency,
        amount: w.amount,
        request_id: requestId,
      };
      if (w.note !== null) body.note = w.note;
      return fiatWithdrawalView(await api.createFiatWithdrawal(body));
    },

    async placeOrder(quoteId, clientOrderId): Promise<RemoteView> {
      try {
        return orderView(
          await api.createOrder({ execution_type: 'rfq', order_quote_id: quoteId, client_order_id: clientOrderId }),
        );
      } catch (err) {
        if (!isExchangeError(err) || err.outcomeUnknown) throw err;
        const says = (status: number, message: (m: string) => boolean) =>
          (err.status === undefined || err.status === status) && err.messages.some(message);
        // A reused client_order_id is refused because the order exists: never "failed", always "find it".
        if (says(DUPLICATE_CLIENT_ORDER_ID_STATUS, isDuplicateClientOrderIdMessage))
          throw err.as('duplicate_client_order_id');
        if (says(QUOTE_UNUSABLE_STATUS, isQuoteUnusableMessage)) throw err.as('quote_unusable');
        throw err;
      }
    },

    removeBankAccount: (id) => api.deleteBankAccount(String(id)),
  };
}
