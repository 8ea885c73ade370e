// Orders from a quote (rfq), get, list. Create refuses in order: a client_order_id already used (never a
// replay of the first answer), an unusable quote (QUOTE_UNUSABLE_MESSAGES), insufficient balance.
import { gt, mul, roundDown, sub } from '../../../bot/domain/money.js';
import {
  DUPLICATE_CLIENT_ORDER_ID_MESSAGE,
  DUPLICATE_CLIENT_ORDER_ID_STATUS,
  QUOTE_UNUSABLE_MESSAGES,
  QUOTE_UNUSABLE_STATUS,
} from '../../../bot/exchange/assumptions.js';
import { normalizeStatus } from '../../../bot/domain/status.js';
import { createOrderBody } from '../../../bot/exchange/schemas.js';
import { available, lockForOrder } from '../ledger.js';
import { newestFirst, numberedPage, timeParam } from '../pagination.js';
import { presentOrder } from '../present.js';
import { ALPHABET } from '../prng.js';
import { created, fail, ok, validate, type Route } from '../router.js';
import { assetBySymbol, type OrderRecord, type QuoteRecord } from '../state.js';

/** Fee the sandbox desk takes from what the order receives: 10 bps. */
const FEE_RATE = '0.001';

/** Why a quote cannot be executed now, or undefined when it can (reference "Quote usability"). */
export function quoteUnusable(q: QuoteRecord | undefined, now: number): string | undefined {
  if (!q) return QUOTE_UNUSABLE_MESSAGES.foreign;
  if (q.usedByOrder !== null) return QUOTE_UNUSABLE_MESSAGES.used;
  if (now > q.expires_at) return QUOTE_UNUSABLE_MESSAGES.expired;
  if (q.supersededBy !== null) return QUOTE_UNUSABLE_MESSAGES.superseded;
  return undefined;
}

export const orderRoutes: Route[] = [
  {
    method: 'POST',
    path: '/orders',
    auth: 'key',
    scope: 'trade',
    handler: ({ state, account, body, now, receivedAt }) => {
      const req = validate(createOrderBody, body);
      const pendingLate =
        receivedAt === undefined &&
        req.client_order_id !== undefined &&
        (account.lateClientOrderIds ?? []).includes(req.client_order_id);
      if (
        req.client_order_id !== undefined &&
        (pendingLate || account.orders.some((o) => o.client_order_id === req.client_order_id))
      ) {
        fail(DUPLICATE_CLIENT_ORDER_ID_STATUS, DUPLICATE_CLIENT_ORDER_ID_MESSAGE);
      }
      // Quotes of other accounts are invisible: "not found for this account".
      const q = account.quotes.find((x) => x.quote_id === req.order_quote_id);
      // A late commit: the exchange checked the quote when it took the order.
      const why = quoteUnusable(q, receivedAt ?? now);
      if (why || !q) fail(QUOTE_UNUSABLE_STATUS, why ?? QUOTE_UNUSABLE_MESSAGES.foreign);
      const buy = q.side === 'buy';
      const paidCurrency = buy ? q.counter : q.base;
      const paidAmount = buy ? q.counterAmount : q.baseAmount;
      const receivedCurrency = buy ? q.base : q.counter;
      const receivedAmount = buy ? q.baseAmount : q.counterAmount;
      const free = available(account, paidCurrency);
      if (gt(paidAmount, free)) {
        fail(
          422,
          `Insufficient balance: the order needs ${paidAmount} ${paidCurrency} but only ${free} ${paidCurrency} is available`,
        );
      }
      const fee = roundDown(mul(receivedAmount, FEE_RATE), assetBySymbol(state, receivedCurrency)!.precision);
      const seq = ++state.counters.order;
      const o: OrderRecord = {
        id: state.rng.uuid(),
        order_receipt_id: `SBX${seq}${state.rng.chars(ALPHABET.upper, 3)}`,
        quote_id: q.quote_id,
        client_order_id: req.client_order_id ?? null,
        symbol: q.symbol,
        base: q.base,
        counter: q.counter,
        side: q.side,
        quantity: q.quantity,
        currency: q.currency,
        price: q.locked_price,
        paidCurrency,
        paidAmount,
        receivedCurrency,
        receivedAmount,
        fee,
        net_amount: sub(receivedAmount, fee),
        created_at: now,
        expires_at: q.expires_at,
        status: 'pending',
        statusSince: now,
        cancel_reason: null,
        caseSeed: seq,
      };
      lockForOrder(account, paidCurrency, paidAmount);
      q.usedByOrder = o.id;
      account.orders.push(o);
      return created(presentOrder(o));
    },
  },
  {
    method: 'GET',
    path: '/orders/:order_id',
    auth: 'key',
    scope: 'trade',
    handler: ({ account, params }) => {
      const o = account.orders.find((x) => x.id === params.order_id);
      if (!o) fail(404, 'Order not found');
      return ok(presentOrder(o));
    },
  },
  {
    method: 'GET',
    path: '/orders',
    auth: 'key',
    scope: 'trade',
    handler: ({ account, query }) => {
      const from = timeParam(query, 'from_time');
      const to = timeParam(query, 'to_time');
      const base = query.get('base_currency')?.toUpperCase();
      const counter = query.get('counter_currency')?.toUpperCase();
      const statuses = query.getAll('status[]').map(normalizeStatus);
      const items = newestFirst(account.orders, (o) => o.id).filter(
        (o) =>
          (from === undefined || o.created_at >= from) &&
          (to === undefined || o.created_at <= to) &&
          (base === undefined || o.base === base) &&
          (counter === undefined || o.counter === counter) &&
          (statuses.length === 0 || statuses.includes(o.status)),
      );
      return ok(numberedPage(items, query).map(presentOrder));
    },
  },
];
