// The control surface over HTTP under CONTROL_PREFIX, for other processes. A request carrying X-API-KEY
// is refused: exchange keys never reach this surface.
import { z } from 'zod';
import { FIAT_WITHDRAWAL_STATUSES, SCOPES, WITHDRAWAL_STATUSES } from '../../bot/exchange/assumptions.js';
import type { SandboxControl } from './control.js';
import { faultRule } from './faults.js';
import { created, fail, noContent, ok, validate, type SandboxResponse } from './router.js';

export const CONTROL_PREFIX = '/_sandbox';

const accountQuery = (q: URLSearchParams) => q.get('account') ?? undefined;

const advanceBody = z.strictObject({ ms: z.number().int().min(0) });
const depositBody = z.strictObject({
  currency_id: z.number().int().optional(),
  amount: z.string(),
  needs_counterparty_info: z.boolean().optional(),
  confirmed: z.boolean().optional(),
  account: z.string().optional(),
});
const balanceBody = z.strictObject({
  currency: z.string(),
  regular: z.string().optional(),
  orders: z.string().optional(),
  alternative_products: z.string().optional(),
  account: z.string().optional(),
});
const priceBody = z.strictObject({
  symbol: z.string(),
  price: z.string().optional(),
  drift_bps: z.number().int().optional(),
  volatility_bps: z.number().int().min(0).optional(),
});
const endBody = z.strictObject({ status: z.enum(['failed', 'rejected', 'cancelled']), account: z.string().optional() });
const withdrawalStatusBody = z.strictObject({ status: z.enum(WITHDRAWAL_STATUSES), account: z.string().optional() });
const holdBody = z.strictObject({
  status: z.string().optional(),
  travel_rule_status: z.string().optional(),
  pending_reason: z.string().nullable().optional(),
  account: z.string().optional(),
});
const fiatStatusBody = z.strictObject({ status: z.enum(FIAT_WITHDRAWAL_STATUSES), account: z.string().optional() });
const injectWithdrawalBody = z.strictObject({
  crypto_currency_id: z.number().int(),
  amount: z.string(),
  address_book_address_id: z.string(),
  request_id: z.string().optional(),
  note: z.string().optional(),
  transaction_purpose: z.string().optional(),
  created_at: z.number().int().min(0).optional(),
  account: z.string().optional(),
});
const currencyBody = z.strictObject({
  withdrawal_fee: z.string().optional(),
  minimum_withdrawal: z.string().optional(),
});
const fiatRuleBody = z.strictObject({
  currency: z.string(),
  minimum: z.string().optional(),
  maximum: z.string().optional(),
  fee: z.string().optional(),
});
const bankAccountBody = z.strictObject({
  account_number: z.string().optional(),
  currency: z.enum(['USD', 'SGD']).optional(),
  verified: z.boolean().optional(),
  account: z.string().optional(),
});
const redateBody = z.strictObject({ created_at: z.number().int().min(0), account: z.string().optional() });
const orderStatusBody = z.strictObject({
  status: z.enum(['pending', 'open', 'completed', 'cancelled']),
  account: z.string().optional(),
});
const cancelBody = z.strictObject({ reason: z.string().optional(), account: z.string().optional() });
const faultsBody = z.strictObject({ faults: z.array(faultRule) });
const keyBody = z.strictObject({
  public_key: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  account: z.string().optional(),
});
const addressBody = z.strictObject({
  status: z.string().optional(),
  address_tag: z.string().nullable().optional(),
  display_status: z.string().nullable().optional(),
  withdrawal_cooldown_until: z.number().int().nullable().optional(),
  wallet_identity: z
    .strictObject({
      entity_name: z.string(),
      entity_type: z.enum(['individual', 'entity']),
      ownership: z.enum(['first_party', 'third_party']),
      additional_info_provided: z.boolean(),
    })
    .nullable()
    .optional(),
  account: z.string().optional(),
});

/** Serve one control request; `path` is below CONTROL_PREFIX (e.g. `/clock/advance`). */
export function handleControl(
  control: SandboxControl,
  method: string,
  path: string,
  query: URLSearchParams,
  body: unknown,
): SandboxResponse {
  const acct = accountQuery(query);
  const seg = path.split('/').filter(Boolean);
  // The second segment of these collections is a record id: /withdrawals/{id}/end and so on.
  let id = '';
  if (
    seg.length >= 2 &&
    ['withdrawals', 'fiat-withdrawals', 'orders', 'addresses', 'currencies', 'bank-accounts'].includes(seg[0]!)
  ) {
    id = decodeURIComponent(seg[1]!);
    seg[1] = ':id';
  }
  const route = `${method} /${seg.join('/')}`;
  switch (route) {
    case 'GET /state':
      return ok({ now: control.now(), accounts: control.accounts(), faults: control.faults() });
    case 'POST /reset':
      control.reset();
      return ok({ now: control.now() });
    case 'GET /clock':
      return ok({ now: control.now() });
    case 'POST /clock/advance':
      return ok({ now: control.advance(validate(advanceBody, body).ms) });
    case 'GET /withdrawals':
      return ok(control.withdrawals(acct));
    case 'POST /withdrawals': {
      const { created_at, account, ...withdrawal } = validate(injectWithdrawalBody, body);
      return created(
        control.injectWithdrawal({
          body: withdrawal,
          ...(created_at === undefined ? {} : { createdAt: created_at }),
          ...((account ?? acct) ? { account: (account ?? acct)! } : {}),
        }),
      );
    }
    case 'POST /withdrawals/:id/end': {
      const b = validate(endBody, body);
      return ok(control.endWithdrawal(id, b.status, b.account ?? acct));
    }
    case 'POST /withdrawals/:id/status': {
      const b = validate(withdrawalStatusBody, body);
      return ok(control.setWithdrawalStatus(id, b.status, b.account ?? acct));
    }
    case 'POST /withdrawals/:id/hold': {
      const { account, ...hold } = validate(holdBody, body);
      return ok(control.holdWithdrawal(id, hold, account ?? acct));
    }
    case 'POST /fiat-withdrawals/:id/status': {
      const b = validate(fiatStatusBody, body);
      if (!/^\d{1,15}$/.test(id)) fail(404, 'Fiat withdrawal not found');
      return ok(control.setFiatWithdrawalStatus(Number(id), b.status, b.account ?? acct));
    }
    case 'PATCH /withdrawals/:id': {
      const b = validate(redateBody, body);
      return ok(control.redateWithdrawal(id, b.created_at, b.account ?? acct));
    }
    case 'GET /fiat-withdrawals':
      return ok(control.fiatWithdrawals(acct));
    case 'GET /orders':
      return ok(control.orders(acct));
    case 'POST /orders/:id/cancel': {
      const b = validate(cancelBody, body ?? {});
      return ok(control.cancelOrder(id, b.reason, b.account ?? acct));
    }
    case 'POST /orders/:id/status': {
      const b = validate(orderStatusBody, body);
      return ok(control.setOrderStatus(id, b.status, b.account ?? acct));
    }
    case 'GET /quotes':
      return ok(control.quotes(acct));
    case 'GET /counterparty-submissions':
      return ok(control.counterpartySubmissions(acct));
    case 'GET /deposits':
      return ok(control.deposits(acct));
    case 'POST /deposits': {
      const b = validate(depositBody, body);
      return created(
        control.injectDeposit({
          amount: b.amount,
          ...(b.currency_id !== undefined ? { currencyId: b.currency_id } : {}),
          ...(b.needs_counterparty_info !== undefined ? { needsCounterpartyInfo: b.needs_counterparty_info } : {}),
          ...(b.confirmed !== undefined ? { confirmed: b.confirmed } : {}),
          ...((b.account ?? acct) ? { account: (b.account ?? acct)! } : {}),
        }),
      );
    }
    case 'GET /addresses':
      return ok(control.addresses(acct));
    case 'PATCH /addresses/:id': {
      const { account, ...change } = validate(addressBody, body);
      return ok(control.updateAddress(id, change, account ?? acct));
    }
    case 'DELETE /addresses/:id':
      control.removeAddress(id, acct);
      return noContent();
    case 'PATCH /currencies/:id': {
      if (!/^\d{1,9}$/.test(id)) fail(404, 'Crypto currency not found');
      return ok(control.updateCurrency(Number(id), validate(currencyBody, body)));
    }
    case 'PUT /fiat-rules': {
      const { currency, ...change } = validate(fiatRuleBody, body);
      return ok(control.setFiatRule(currency, change));
    }
    case 'GET /bank-accounts':
      return ok(control.bankAccounts(acct));
    case 'PATCH /bank-accounts/:id': {
      if (!/^\d{1,15}$/.test(id)) fail(404, 'Bank account not found');
      const { account, ...change } = validate(bankAccountBody, body);
      return ok(control.updateBankAccount(Number(id), change, account ?? acct));
    }
    case 'GET /balances':
      return ok(control.balances(acct));
    case 'PUT /balances': {
      const b = validate(balanceBody, body);
      return ok(control.setBalance({ ...b, ...((b.account ?? acct) ? { account: (b.account ?? acct)! } : {}) }));
    }
    case 'PUT /prices': {
      const b = validate(priceBody, body);
      return ok(
        control.setPrice({
          symbol: b.symbol,
          ...(b.price !== undefined ? { price: b.price } : {}),
          ...(b.drift_bps !== undefined ? { driftBps: b.drift_bps } : {}),
          ...(b.volatility_bps !== undefined ? { volatilityBps: b.volatility_bps } : {}),
        }),
      );
    }
    case 'GET /faults':
      return ok(control.faults());
    case 'PUT /faults':
      control.setFaults(validate(faultsBody, body).faults);
      return ok(control.faults());
    case 'POST /faults':
      control.addFault(validate(faultRule, body));
      return created(control.faults());
    case 'DELETE /faults':
      control.clearFaults();
      return noContent();
    case 'POST /keys': {
      const b = validate(keyBody, body);
      return created(
        control.registerKey({
          publicKeyHex: b.public_key,
          scopes: b.scopes,
          ...(b.account ? { account: b.account } : {}),
        }),
      );
    }
    case 'GET /requests':
      return ok(control.requests());
    default:
      fail(404, `No sandbox control operation ${method} ${CONTROL_PREFIX}${path}`);
  }
}
