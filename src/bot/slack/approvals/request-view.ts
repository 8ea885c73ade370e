// A request as the Slack layer sees it: plain data shaped like the domain's snapshots, so a snapshot passes
// as it is, while the builders depend only on the fields they show.

interface Notes {
  /** Free text typed by the requester: escaped by the builders. */
  note?: string | null;
  purpose?: string | null;
}

/** What a withdrawal carries to the exchange as its note (the desk reference at its end); absent on requests made before. */
interface ExchangeNote {
  exchangeNote?: string;
}

/** The request's value, priced at request time when the policy needed it (domain/valuation.ts). */
export interface ValuationView {
  currency: string;
  value: string;
  amount: string;
  of: string;
  price: string;
  pair: string | null;
  at: number;
}

interface Valued {
  valuations?: readonly ValuationView[];
}

export interface CryptoWithdrawalView extends Notes, ExchangeNote, Valued {
  kind: 'crypto_withdrawal';
  asset: string;
  network: string;
  /** As typed, within the entry's precision (the domain refuses more decimals, never rounds). */
  amount: string;
  fee: string;
  total: string;
  destination: { label: string; address: string; addressTag?: string | null };
}

/** A bank account as shown, e.g. "DBS USD ••••6789 (ACME PTE LTD)". */
export interface BankAccountView {
  id: number;
  currency?: string | null;
  display: string;
}

export interface FiatWithdrawalView extends Notes, ExchangeNote, Valued {
  kind: 'fiat_withdrawal';
  currency: string;
  amount: string;
  fee: string;
  total: string;
  bankAccount: BankAccountView;
}

export interface TradeView extends Notes, Valued {
  kind: 'trade';
  /** BASE-COUNTER, e.g. BTC-SGD. */
  symbol: string;
  side: 'buy' | 'sell';
  quantity: string;
  /** Null: the exchange's default (counter currency for a buy, base for a sell). */
  quantityCurrency: string | null;
  paymentMethod: string;
  /** Worst acceptable price: a ceiling for a buy, a floor for a sell. */
  limitPrice: string;
  /** When the limit was given as slippage from the indicative price. */
  slippageBps?: number | null;
  /** The indicative quote shown when asking (quotes live seconds; execution re-quotes). */
  quote: { price: string; expiresAt: number };
}

export interface BankRemovalView extends Notes {
  kind: 'bank_account_removal';
  bankAccount: BankAccountView;
}

export type RequestView = CryptoWithdrawalView | FiatWithdrawalView | TradeView | BankRemovalView;
export type RequestKind = RequestView['kind'];

export const KIND_LABEL: Record<RequestKind, string> = {
  crypto_withdrawal: 'Crypto withdrawal',
  fiat_withdrawal: 'Fiat withdrawal',
  trade: 'Trade',
  bank_account_removal: 'Remove bank account',
};

/** The currency a trade's quantity is in, applying the reference's default when none was given. */
export function tradeQuantityCurrency(t: Pick<TradeView, 'symbol' | 'side' | 'quantityCurrency'>): string {
  const [base = t.symbol, counter = ''] = t.symbol.split('-');
  return t.quantityCurrency ?? (t.side === 'buy' ? counter : base);
}

export interface Approval {
  userId: string;
  at: number;
}

/** How a request was decided; undefined while it still waits for approvals. */
export type Verdict =
  | { outcome: 'approved'; at: number }
  | { outcome: 'rejected'; by: string; at: number; reason: string }
  | { outcome: 'cancelled'; by: string; at: number }
  | { outcome: 'expired'; at: number };

/** The execution status line under a decided request; it follows the thread. */
export interface StatusLine {
  /** Plain words; escaped by the builders. */
  text: string;
  tone: 'progress' | 'success' | 'failure' | 'warning';
  at: number;
  link?: { url: string; label: string };
}
