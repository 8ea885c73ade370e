// Request snapshots: exactly what will be executed, frozen at request time, and the hash approvals
// bind to. Builders return a snapshot or a field error for the field at fault.
import type { z } from 'zod';
import { checkAmount, FIAT_PRECISION, PRICE_DECIMALS, TRADE_QUANTITY_PRECISION, type AmountCheck } from './amount.js';
import { canonicalJson, sha256Hex } from './canonical.js';
import type {
  bankAccountRefSchema,
  bankRemovalSnapshotSchema,
  cryptoWithdrawalSnapshotSchema,
  fiatWithdrawalSnapshotSchema,
  indicativeQuoteSchema,
  snapshotSchema,
  tradeSnapshotSchema,
  valuationSchema,
} from './record-schema.js';
import { REQUEST_KINDS } from './record-schema.js';
import { destinationBar, destinationBarText } from './destination-readiness.js';
import { applyBps, gt, gte, mul, normalize, roundDown } from './money.js';

/** Defined with the record's schema (record-schema.ts), so that file need not import this one. */
export { REQUEST_KINDS };
export type RequestKind = (typeof REQUEST_KINDS)[number];

/** Free text a person typed (note, purpose): stored raw here, escaped by whoever displays it. */
export const MAX_NOTE_LENGTH = 1000;

/** The snapshots, each inferred from its schema (record-schema.ts, where the fields are described). */
export type CryptoWithdrawalSnapshot = z.infer<typeof cryptoWithdrawalSnapshotSchema>;
export type FiatWithdrawalSnapshot = z.infer<typeof fiatWithdrawalSnapshotSchema>;
export type TradeSnapshot = z.infer<typeof tradeSnapshotSchema>;
export type TradeSide = TradeSnapshot['side'];
export type IndicativeQuote = z.infer<typeof indicativeQuoteSchema>;
export type BankAccountRef = z.infer<typeof bankAccountRefSchema>;
export type BankRemovalSnapshot = z.infer<typeof bankRemovalSnapshotSchema>;
export type Snapshot = z.infer<typeof snapshotSchema>;
export type Valuation = z.infer<typeof valuationSchema>;

export type BuildResult<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

const fieldError = (field: string, message: string): { ok: false; field: string; message: string } => ({
  ok: false,
  field,
  message,
});

/** Includes the request id and requester, so an approval never carries over to another request or changed terms. */
export function snapshotHash(requestId: string, requester: string, snapshot: Snapshot): string {
  return sha256Hex(canonicalJson({ v: 1, requestId, requester, snapshot }));
}

/** What the builder needs to know about the currency entry (from the exchange's entry list). */
export interface CurrencyEntryFacts {
  id: number;
  asset: string;
  network: string;
  /** Network UUID of the entry, to check that the destination is on it. */
  networkId: string | null;
  precision: number;
  withdrawalFee: string;
  minimumWithdrawal: string | null;
}

/** What the builder needs to know about a saved destination (from the address book). */
/** Blank and absent tags are the same: no tag. */
export function sameTag(a: string | null | undefined, b: string | null | undefined): boolean {
  const norm = (t: string | null | undefined) => (t === null || t === undefined || t.trim() === '' ? null : t.trim());
  return norm(a) === norm(b);
}

export interface DestinationFacts {
  id: string;
  label: string;
  address: string;
  addressTag: string | null;
  verified: boolean;
  /** Network UUIDs the address is saved for. */
  networkIds: string[];
}

export interface CryptoWithdrawalFields {
  amount: string;
  note?: string | null;
  purpose?: string | null;
}

/** What a crypto withdrawal's amount rule reads from the currency entry. */
export type CryptoAmountFacts = Pick<CurrencyEntryFacts, 'asset' | 'precision' | 'withdrawalFee' | 'minimumWithdrawal'>;

/** Precision (refused with the rounded-down value, never rounded), minimum, fee, total; with `available`, the total must fit. */
export function cryptoWithdrawalAmount(
  entry: CryptoAmountFacts,
  text: string | null | undefined,
  available?: string,
): AmountCheck {
  return checkAmount(text, {
    currency: entry.asset,
    precision: entry.precision,
    fee: entry.withdrawalFee,
    ...(entry.minimumWithdrawal !== null ? { minimum: entry.minimumWithdrawal } : {}),
    ...(available !== undefined ? { available } : {}),
  });
}

/** Crypto withdrawal snapshot; the amount is checked by cryptoWithdrawalAmount: never rounded. */
export function buildCryptoWithdrawal(
  entry: CurrencyEntryFacts,
  destination: DestinationFacts,
  fields: CryptoWithdrawalFields,
): BuildResult<CryptoWithdrawalSnapshot> {
  const text = checkNotes(fields.note, fields.purpose);
  if (!text.ok) return text;
  const checked = cryptoWithdrawalAmount(entry, fields.amount);
  if (!checked.ok) return fieldError('amount', checked.error);
  const { amount, fee, total } = checked;
  // Only verification bars a request: a cooldown makes its execution wait (the engine's checks), not refuse it.
  const bar = destinationBar({ verified: destination.verified }, 0);
  if (bar) return fieldError('destination', destinationBarText(bar, 'This destination'));
  if (
    entry.networkId !== null &&
    destination.networkIds.length > 0 &&
    !destination.networkIds.includes(entry.networkId)
  ) {
    return fieldError('destination', `This destination is not saved for the ${entry.network} network.`);
  }
  return {
    ok: true,
    value: {
      kind: 'crypto_withdrawal',
      cryptoCurrencyId: entry.id,
      asset: entry.asset,
      network: entry.network,
      precision: entry.precision,
      amount,
      fee,
      total,
      destination: {
        id: destination.id,
        label: destination.label,
        address: destination.address,
        addressTag: destination.addressTag,
      },
      note: text.note,
      purpose: text.purpose,
    },
  };
}

export interface FiatFacts {
  currency: string;
  fee: string;
  minimum: string;
  maximum: string;
  bankAccount: BankAccountRef;
}

/** What a fiat withdrawal's amount rule reads from the currency's terms. */
export type FiatAmountFacts = Pick<FiatFacts, 'currency' | 'fee' | 'minimum' | 'maximum'>;

/** Two decimals (refused, never rounded), minimum and maximum, fee, total; with `available`, the total must fit. */
export function fiatWithdrawalAmount(
  facts: FiatAmountFacts,
  text: string | null | undefined,
  available?: string,
): AmountCheck {
  return checkAmount(text, {
    currency: facts.currency,
    precision: FIAT_PRECISION,
    fee: facts.fee,
    minimum: facts.minimum,
    maximum: facts.maximum,
    ...(available !== undefined ? { available } : {}),
  });
}

/** Fiat withdrawal snapshot; the amount is checked by fiatWithdrawalAmount: within the limits, never rounded. */
export function buildFiatWithdrawal(
  facts: FiatFacts,
  fields: { amount: string; note?: string | null },
): BuildResult<FiatWithdrawalSnapshot> {
  const text = checkNotes(fields.note, null);
  if (!text.ok) return text;
  const checked = fiatWithdrawalAmount(facts, fields.amount);
  if (!checked.ok) return fieldError('amount', checked.error);
  const { amount, fee, total } = checked;
  if (facts.bankAccount.currency !== null && facts.bankAccount.currency !== facts.currency) {
    return fieldError('bank_account', `This bank account holds ${facts.bankAccount.currency}, not ${facts.currency}.`);
  }
  return {
    ok: true,
    value: {
      kind: 'fiat_withdrawal',
      currency: facts.currency,
      bankAccount: facts.bankAccount,
      amount,
      fee,
      total,
      note: text.note,
    },
  };
}

/** The worst price, given directly or as a slippage in basis points from the indicative price. */
export type LimitInput = { price: string } | { slippageBps: number };

export interface TradeFields {
  symbol: string;
  side: TradeSide;
  quantity: string;
  quantityCurrency?: string | null;
  paymentMethod: string;
  limit: LimitInput;
  note?: string | null;
}

export const MAX_SLIPPAGE_BPS = 5000;
const SYMBOL = /^[A-Z0-9]+-[A-Z0-9]+$/;

/** A trade's quantity: more than zero, at most TRADE_QUANTITY_PRECISION decimals (refused, never rounded). */
export function checkTradeQuantity(
  text: string | null | undefined,
  quantityCurrency: string | null | undefined,
): AmountCheck {
  return checkAmount(text, {
    currency: quantityCurrency || 'The quantity',
    precision: TRADE_QUANTITY_PRECISION,
    what: 'quantity',
  });
}

/** A worst price given directly, in the pair's counter currency. */
export function checkLimitPrice(text: string | null | undefined, counter: string): AmountCheck {
  return checkAmount(text, { currency: counter, precision: PRICE_DECIMALS, what: 'price' });
}

/** Before a quote is taken (a bad request costs no quote); answers quantity and price as normalized, which the quote and snapshot use. */
export function checkTradeFields(fields: TradeFields): BuildResult<TradeFields> {
  const text = checkNotes(fields.note, null);
  if (!text.ok) return text;
  if (!SYMBOL.test(fields.symbol)) return fieldError('symbol', 'Pair must look like BTC-USD.');
  if (fields.side !== 'buy' && fields.side !== 'sell') return fieldError('side', 'Side must be buy or sell.');
  const quantity = checkTradeQuantity(fields.quantity, fields.quantityCurrency);
  if (!quantity.ok) return fieldError('quantity', quantity.error);
  if (fields.paymentMethod.trim() === '') return fieldError('payment_method', 'Payment method is required.');
  let limit: LimitInput = fields.limit;
  if ('price' in fields.limit) {
    const price = checkLimitPrice(fields.limit.price, fields.symbol.split('-')[1] ?? '');
    if (!price.ok) return fieldError('limit', price.error);
    limit = { price: price.amount };
  } else if (
    !Number.isInteger(fields.limit.slippageBps) ||
    fields.limit.slippageBps < 0 ||
    fields.limit.slippageBps > MAX_SLIPPAGE_BPS
  ) {
    return fieldError('limit', `Slippage must be a whole number of basis points from 0 to ${MAX_SLIPPAGE_BPS}.`);
  }
  return { ok: true, value: { ...fields, quantity: quantity.amount, limit } };
}

/** Trade snapshot from checked fields and the indicative quote taken for the approvers. */
export function buildTrade(input: TradeFields, quote: IndicativeQuote): BuildResult<TradeSnapshot> {
  const checked = checkTradeFields(input);
  if (!checked.ok) return checked;
  const fields = checked.value;
  const text = checkNotes(fields.note, null);
  if (!text.ok) return text;
  const slippageBps = 'slippageBps' in fields.limit ? fields.limit.slippageBps : null;
  const limitPrice =
    'price' in fields.limit
      ? fields.limit.price
      : limitFromSlippage(fields.side, quote.price, fields.limit.slippageBps);
  return {
    ok: true,
    value: {
      kind: 'trade',
      symbol: fields.symbol,
      side: fields.side,
      quantity: fields.quantity,
      quantityCurrency: fields.quantityCurrency ?? null,
      paymentMethod: fields.paymentMethod,
      limitPrice,
      slippageBps,
      quote: { ...quote, price: normalize(quote.price) },
      note: text.note,
    },
  };
}

/** Buy: a ceiling above the price; sell: a floor below it. */
export function limitFromSlippage(side: TradeSide, price: string, bps: number): string {
  return applyBps(price, side === 'buy' ? bps : -bps);
}

/** True when `price` is no worse than `limit` for this side. */
export function withinLimit(side: TradeSide, price: string, limit: string): boolean {
  return side === 'buy' ? !gt(price, limit) : gte(price, limit);
}

/**
 * Quotes that can kill each other. Reference: a newer quote "for the same account, amount, pair and
 * payment method" can void the older; side is not in that list, so not in the key (coarser is safer).
 */
export function quoteKey(s: Pick<TradeSnapshot, 'symbol' | 'quantity' | 'paymentMethod'>): string {
  return [s.symbol, normalize(s.quantity), s.paymentMethod].join('|');
}

export function buildBankRemoval(
  bankAccount: BankAccountRef,
  fields: { note?: string | null },
): BuildResult<BankRemovalSnapshot> {
  const text = checkNotes(fields.note, null);
  if (!text.ok) return text;
  return { ok: true, value: { kind: 'bank_account_removal', bankAccount, note: text.note } };
}

/** "DBS USD ••••6789 (ACME PTE LTD)": enough to recognise an account without its full number. */
export function bankAccountDisplay(account: {
  bankName: string | null;
  currency: string | null;
  accountNumber: string;
  beneficiary: string;
}): string {
  const last4 = account.accountNumber.slice(-4);
  const parts = [account.bankName ?? 'Bank', account.currency ?? '', `••••${last4}`].filter((p) => p !== '');
  return `${parts.join(' ')} (${account.beneficiary})`;
}

/** The sums of money a request moves, by currency (a trade counts both legs where known). */
export function amountsMoved(snapshot: Snapshot): { currency: string; amount: string }[] {
  switch (snapshot.kind) {
    case 'crypto_withdrawal':
      return [{ currency: snapshot.asset, amount: snapshot.total }];
    case 'fiat_withdrawal':
      return [{ currency: snapshot.currency, amount: snapshot.total }];
    case 'trade':
      return tradeAmounts(snapshot);
    case 'bank_account_removal':
      return [];
  }
}

/** The currency a trade's quantity is in: as given, else the exchange's default (counter for a buy, base for a sell). */
export function quantityCurrencyOf(t: Pick<TradeSnapshot, 'symbol' | 'side' | 'quantityCurrency'>): string {
  const [base, counter] = t.symbol.split('-') as [string, string];
  return t.quantityCurrency ?? (t.side === 'buy' ? counter : base);
}

function tradeAmounts(t: TradeSnapshot): { currency: string; amount: string }[] {
  const [base, counter] = t.symbol.split('-') as [string, string];
  const inCurrency = quantityCurrencyOf(t);
  if (inCurrency !== base) return [{ currency: inCurrency, amount: t.quantity }];
  // Quantity in base: the counter leg is at most quantity × limit for a buy (at least, for a sell).
  return [
    { currency: base, amount: t.quantity },
    { currency: counter, amount: roundDown(mul(t.quantity, t.limitPrice), 8) },
  ];
}

type NotesResult =
  { ok: true; note: string | null; purpose: string | null } | { ok: false; field: string; message: string };

function checkNotes(note: string | null | undefined, purpose: string | null | undefined): NotesResult {
  const n = emptyToNull(note);
  const p = emptyToNull(purpose);
  if (n !== null && n.length > MAX_NOTE_LENGTH)
    return fieldError('note', `Note is longer than ${MAX_NOTE_LENGTH} characters.`);
  if (p !== null && p.length > MAX_NOTE_LENGTH)
    return fieldError('purpose', `Purpose is longer than ${MAX_NOTE_LENGTH} characters.`);
  return { ok: true, note: n, purpose: p };
}

function emptyToNull(text: string | null | undefined): string | null {
  return text === undefined || text === null || text.trim() === '' ? null : text;
}
