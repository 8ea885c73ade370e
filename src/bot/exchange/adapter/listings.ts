/** The `/desk` listings' port (ports/exchange-listings.ts) over the wire API: the records renamed, not interpreted. */
import type {
  BankListing,
  ExchangeListings,
  FiatRecordListing,
  OrderListing,
  WithdrawalListing,
} from '../../ports/exchange-listings.js';
import type { ExchangeApi } from '../wire-api.js';
import type * as Wire from '../schemas.js';
import { deposit } from './deposit-records.js';
import { mapped } from './mapped.js';

export function createExchangeListings(api: ExchangeApi): ExchangeListings {
  return {
    withdrawals: (opts) => mapped(api.listCryptoWithdrawals(undefined, opts), withdrawalListing),
    deposits: (opts) => mapped(api.listCryptoDeposits(undefined, opts), deposit),
    orders: (opts) => mapped(api.listOrders(undefined, opts), orderListing),
    bankAccounts: (query, opts) => mapped(api.listBankAccounts(query, opts), bankListing),
    fiatDeposits: (opts) => mapped(api.listFiatDeposits(opts), fiatRecordListing),
    fiatWithdrawals: (opts) => mapped(api.listFiatWithdrawals(opts), fiatRecordListing),
    fiatFees: async () => (await api.listFiatWithdrawalFees()).map((f) => ({ currency: f.currency, fee: f.fee })),
    fiatLimits: async () =>
      (await api.listFiatWithdrawalLimits()).map((l) => ({
        currency: l.currency,
        minimum: l.minimum_withdrawal_amount,
        maximum: l.maximum_withdrawal_amount,
      })),
  };
}

function withdrawalListing(w: Wire.CryptoWithdrawalListItem): WithdrawalListing {
  return {
    id: w.id,
    createdAt: w.created_at,
    status: w.status,
    amount: w.amount,
    asset: w.crypto_currency.code,
    address: w.address ?? w.address_book_address?.address ?? null,
    label: w.address_book_address?.label ?? null,
    linkExplorer: w.link_explorer || null,
    travelRuleStatus: w.travel_rule_status || null,
  };
}

function orderListing(o: Wire.Order): OrderListing {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    id: String(o.id),
    createdAt: o.created_at ?? null,
    status: o.status,
    price: o.price ?? null,
    netAmount: o.net_amount ?? null,
    receivedCurrency: o.received_currency ?? null,
    fee: o.fee ?? null,
    feeCurrency: o.fee_currency ?? null,
    side: text(o.side),
    symbol: text(o.symbol),
  };
}

function bankListing(b: Wire.BankAccount): BankListing {
  return {
    id: b.id,
    currency: b.currency ?? null,
    bankName: b.bank?.name ?? null,
    accountNumber: b.account_number,
    beneficiary: b.beneficiary_name,
    verified: b.verified ?? null,
    lastUsedAt: b.last_used_at ?? null,
  };
}

function fiatRecordListing(r: Wire.FiatDeposit | Wire.FiatWithdrawalListItem): FiatRecordListing {
  const f = r as Wire.FiatWithdrawalListItem;
  return {
    id: f.id === undefined ? null : String(f.id),
    currency: f.currency ?? null,
    amount: f.amount ?? null,
    status: f.status ?? null,
    createdAt: f.created_at ?? null,
    withdrawalFee: f.withdrawal_fee ?? null,
    bankReference: f.bank_reference ?? null,
  };
}
