// Being retired: the exchange's rules live in the sandbox; a test that needs them runs there (sandboxWorld in sandbox-requests.ts). Add no rule here.
/**
 * An in-memory exchange implementing the wire API (ExchangeApi; the engine gets it through the real port), for engine tests: the reference's rules that
 * matter to the engine (quote usability, unique client_order_id, balance plus fee, saved and
 * verified destinations, cooldown), plus faults on demand: a definitive refusal, a 5xx, a timeout
 * or a dropped connection, each either before the exchange acts or after it committed.
 */
import type { Clock } from '../../../../src/bot/ports/clock.js';
import type { ListOptions } from '../../../../src/bot/ports/list-options.js';
import type { ExchangeApi } from '../../../../src/bot/exchange/wire-api.js';
import { add, cmp, lt, sub } from '../../../../src/bot/domain/money.js';
import { QUOTE_UNUSABLE_MESSAGES, QUOTE_UNUSABLE_STATUS } from '../../../../src/bot/exchange/assumptions.js';
import { ExchangeError } from '../../../../src/bot/ports/exchange-error.js';
import type {
  AddressBookAddress,
  Balance,
  BankAccount,
  CreateCryptoWithdrawalBody,
  CreateFiatWithdrawalBody,
  CreateOrderBody,
  CreateQuoteBody,
  CryptoCurrencyEntry,
  CryptoWithdrawal,
  CryptoWithdrawalListItem,
  FiatWithdrawal,
  FiatWithdrawalFee,
  FiatWithdrawalLimit,
  Order,
  Quote,
  SpotPrice,
} from '../../../../src/bot/exchange/schemas.js';

export type FaultError = 'timeout' | 'network' | 'server' | { status: number; message: string };
/** `before`: nothing happened on the exchange; `after`: it committed, then the answer was lost. */
export interface Fault {
  when: 'before' | 'after';
  error: FaultError;
}

export type WriteOp =
  'createCryptoWithdrawal' | 'createFiatWithdrawal' | 'createOrder' | 'deleteBankAccount' | 'createQuote';
export type Op = WriteOp | 'read';

export interface Commit {
  op: Exclude<WriteOp, 'createQuote'>;
  at: number;
  /** request_id / client_order_id / bank account id. */
  key: string;
  exchangeId: string;
  body: unknown;
}

export const NET_TRON = '11111111-1111-4111-8111-111111111111';
export const NET_BTC = '22222222-2222-4222-8222-222222222222';
export const ADDR_OK = 'aaaaaaaa-0000-4000-8000-000000000001';
export const ADDR_UNVERIFIED = 'aaaaaaaa-0000-4000-8000-000000000002';
export const ADDR_COOLDOWN = 'aaaaaaaa-0000-4000-8000-000000000003';

export class FakeExchange implements ExchangeApi {
  balances = new Map<string, string>([
    ['USDT', '100000'],
    ['BTC', '10'],
    ['USD', '1000000'],
    ['SGD', '100000'],
  ]);
  entries: CryptoCurrencyEntry[] = [
    entry(1, 'USDT', 'Tron (TRC20)', NET_TRON, 6, '1', '10'),
    entry(2, 'BTC', 'Bitcoin', NET_BTC, 8, '0.0005', '0.001'),
  ];
  addresses: AddressBookAddress[] = [
    address(ADDR_OK, 'Cold wallet', 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', 'verified', NET_TRON, null),
    address(ADDR_UNVERIFIED, 'New wallet', 'TXYZunverified', 'pending', NET_TRON, null),
    address(ADDR_COOLDOWN, 'Fresh wallet', 'TCooldownAddr', 'verified', NET_TRON, null),
  ];
  bankAccounts: BankAccount[] = [
    {
      id: 101,
      currency: 'USD',
      account_number: '0012345678',
      beneficiary_name: 'ACME PTE LTD',
      verified: true,
      bank: { name: 'DBS' },
    },
    {
      id: 102,
      currency: 'SGD',
      account_number: '9988776655',
      beneficiary_name: 'ACME PTE LTD',
      verified: false,
      bank: { name: 'OCBC' },
    },
  ];
  fiatFees: FiatWithdrawalFee[] = [
    { currency: 'USD', fee: '20', asset: { id: 9, name: 'US Dollar', symbol: 'USD', asset_type: 'fiat' } },
  ];
  fiatLimits: FiatWithdrawalLimit[] = [
    { currency: 'USD', minimum_withdrawal_amount: '100', maximum_withdrawal_amount: '50000' },
  ];
  prices = new Map<string, string>([['BTC-USD', '60000']]);
  quoteLifetimeMs = 2_500;

  readonly quotes = new Map<string, { body: CreateQuoteBody; price: string; expiresAt: number; used: boolean }>();
  readonly newestQuote = new Map<string, string>();
  readonly orders: Order[] = [];
  readonly withdrawals: (CryptoWithdrawal & { request_id?: string })[] = [];
  /** Items per page the lists really serve, when fewer than asked for. */
  servePageSize: number | undefined;
  /** Whether withdrawal lists carry the request_id the creator sent (the reference does not list it). */
  listRequestIds = false;
  /** Whether withdrawals keep the note they were sent with (false: an exchange that drops it). */
  keepNotes = true;
  /** What the exchange's Date header would say of its clock, minus ours (undefined: never measured). */
  measuredOffsetMs: number | undefined;
  readonly fiatWithdrawals: (FiatWithdrawal & { request_id?: string; bank_account_id: number })[] = [];
  readonly commits: Commit[] = [];
  readonly calls: { op: string; at: number }[] = [];
  /** Pages served by list operations (a polling cycle's cost). */
  pages = 0;
  /** Faults queued per operation, used first. */
  readonly queued = new Map<Op, Fault[]>();
  /** Faults decided by the test for every call not covered by the queue. */
  faultPolicy: ((op: Op) => Fault | undefined) | undefined;
  /** Called on every commit, synchronously, before the answer leaves (invariant checks). */
  onCommit: ((commit: Commit) => void) | undefined;
  /** Called when a write arrives, before anything else (latency measurement). */
  onWrite: ((op: WriteOp, at: number) => void) | undefined;
  #seq = 0;

  constructor(readonly clock: Clock) {}

  /** Queues a fault for the next call(s) of `op`. */
  fail(op: Op, ...faults: Fault[]): void {
    this.queued.set(op, [...(this.queued.get(op) ?? []), ...faults]);
  }

  setWithdrawal(id: string, patch: Partial<CryptoWithdrawal>): void {
    const w = this.withdrawals.find((x) => x.id === id);
    if (!w) throw new Error(`no withdrawal ${id}`);
    Object.assign(w, patch);
  }

  setOrderStatus(id: string, status: string, extra: Partial<Order> = {}): void {
    const o = this.orders.find((x) => String(x.id) === id);
    if (!o) throw new Error(`no order ${id}`);
    Object.assign(o, { status, ...extra });
  }

  setFiatStatus(id: string, status: string): void {
    const f = this.fiatWithdrawals.find((x) => String(x.id) === id);
    if (!f) throw new Error(`no fiat withdrawal ${id}`);
    f.status = status;
  }

  // ---- reads ----------------------------------------------------------------------------------

  async listBalances(query?: { currency?: string }): Promise<Balance[]> {
    this.#read('listBalances');
    return [...this.balances]
      .filter(([c, v]) => (!query?.currency || c === query.currency) && cmp(v, '0') !== 0)
      .map(([currency, regular]) => ({
        currency,
        regular,
        locked: '0',
        locked_balance: { orders: '0', alternative_products: '0' },
      }));
  }

  listBankAccounts(query?: { currency?: string }, opts?: ListOptions): AsyncIterable<BankAccount> {
    this.#read('listBankAccounts');
    return this.#pages(
      () => this.bankAccounts.filter((b) => !query?.currency || b.currency === query.currency).map(clone),
      opts,
    );
  }

  listCryptoDeposits(): AsyncIterable<never> {
    return this.#pages(() => [], undefined);
  }

  listCryptoWithdrawals(
    query?: { from_time?: number; to_time?: number },
    opts?: ListOptions,
  ): AsyncIterable<CryptoWithdrawalListItem> {
    this.#read('listCryptoWithdrawals');
    return this.#pages(
      () =>
        this.withdrawals
          .filter(
            (w) =>
              (query?.from_time === undefined || w.created_at >= query.from_time) &&
              (query?.to_time === undefined || w.created_at <= query.to_time),
          )
          .map(
            ({ request_id, ...w }) =>
              clone(
                this.listRequestIds && request_id !== undefined ? { ...w, request_id } : w,
              ) as CryptoWithdrawalListItem,
          )
          .reverse(),
      opts,
    );
  }

  clockOffsetMs(): number | undefined {
    return this.measuredOffsetMs;
  }

  async getCryptoWithdrawal(id: string): Promise<CryptoWithdrawal> {
    this.#read('getCryptoWithdrawal');
    const w = this.withdrawals.find((x) => x.id === id);
    if (!w) throw refusal('getCryptoWithdrawal', 404, 'Not found');
    const { request_id: _r, ...rest } = w;
    return clone(rest);
  }

  async listKnownWallets(): Promise<never[]> {
    return [];
  }

  listFiatDeposits(): AsyncIterable<never> {
    return this.#pages(() => [], undefined);
  }

  async listFiatWithdrawalFees(): Promise<FiatWithdrawalFee[]> {
    this.#read('listFiatWithdrawalFees');
    return this.fiatFees.map(clone);
  }

  async listFiatWithdrawalLimits(): Promise<FiatWithdrawalLimit[]> {
    this.#read('listFiatWithdrawalLimits');
    return this.fiatLimits.map(clone);
  }

  listFiatWithdrawals(opts?: ListOptions): AsyncIterable<FiatWithdrawal> {
    this.#read('listFiatWithdrawals');
    // Like the reference shows nothing of the item fields: no request_id, no bank account id.
    return this.#pages(
      () => this.fiatWithdrawals.map(({ request_id: _r, bank_account_id: _b, ...f }) => clone(f)).reverse(),
      opts,
    );
  }

  async submitCounterpartyInfo(): Promise<Record<string, unknown>> {
    return {};
  }

  async listNetworks(): Promise<never[]> {
    return [];
  }

  async listCryptoCurrencies(): Promise<CryptoCurrencyEntry[]> {
    this.#read('listCryptoCurrencies');
    return this.entries.map(clone);
  }

  listAddressBook(opts?: ListOptions): AsyncIterable<AddressBookAddress> {
    this.#read('listAddressBook');
    return this.#pages(() => this.addresses.map(clone), opts);
  }

  /** Both sides at the one price the fake keeps per pair. */
  async getSpotPrice(base: string, counter: string): Promise<SpotPrice> {
    this.#read('getSpotPrice');
    const symbol = `${base}-${counter}`;
    const price = this.prices.get(symbol);
    if (price === undefined) throw refusal('getSpotPrice', 404, `No price for ${symbol}`);
    return { symbol, buy_price: price, sell_price: price };
  }

  async getOrder(id: string): Promise<Order> {
    this.#read('getOrder');
    const o = this.orders.find((x) => String(x.id) === id);
    if (!o) throw refusal('getOrder', 404, 'Not found');
    return clone(o);
  }

  listOrders(query?: { from_time?: number; to_time?: number }, opts?: ListOptions): AsyncIterable<Order> {
    this.#read('listOrders');
    const inWindow = (o: Order) =>
      (query?.from_time === undefined || (o.created_at ?? 0) >= query.from_time) &&
      (query?.to_time === undefined || (o.created_at ?? 0) <= query.to_time);
    return this.#pages(() => this.orders.filter(inWindow).map(clone).reverse(), opts);
  }

  // ---- writes ---------------------------------------------------------------------------------

  async createQuote(body: CreateQuoteBody): Promise<Quote> {
    return this.#write('createQuote', body.symbol, () => {
      const price = this.prices.get(body.symbol);
      if (price === undefined) throw refusal('createQuote', 422, `Unknown pair ${body.symbol}`);
      const quoteId = `q-${++this.#seq}`;
      const expiresAt = this.clock.now() + this.quoteLifetimeMs;
      this.quotes.set(quoteId, { body, price, expiresAt, used: false });
      this.newestQuote.set(supersedeKey(body), quoteId);
      return { result: { quote_id: quoteId, locked_price: price, expires_at: expiresAt } };
    });
  }

  async createOrder(body: CreateOrderBody): Promise<Order> {
    return this.#write('createOrder', body.client_order_id ?? '', () => {
      const q = this.quotes.get(body.order_quote_id);
      const unusable = (m: string) => refusal('createOrder', QUOTE_UNUSABLE_STATUS, m);
      if (!q) throw unusable(QUOTE_UNUSABLE_MESSAGES.foreign);
      if (q.used) throw unusable(QUOTE_UNUSABLE_MESSAGES.used);
      if (this.clock.now() > q.expiresAt) throw unusable(QUOTE_UNUSABLE_MESSAGES.expired);
      if (this.newestQuote.get(supersedeKey(q.body)) !== body.order_quote_id)
        throw unusable(QUOTE_UNUSABLE_MESSAGES.superseded);
      if (body.client_order_id && this.orders.some((o) => o.client_order_id === body.client_order_id))
        throw refusal('createOrder', 422, 'client_order_id has already been used');
      q.used = true;
      const order: Order = {
        id: `o-${++this.#seq}`,
        status: 'Pending',
        client_order_id: body.client_order_id ?? null,
        price: q.price,
        execution_type: 'rfq',
        created_at: this.clock.now(),
      };
      this.orders.push(order);
      return {
        result: clone(order),
        commit: { op: 'createOrder', key: body.client_order_id ?? '', exchangeId: String(order.id), body },
      };
    });
  }

  async createCryptoWithdrawal(body: CreateCryptoWithdrawalBody): Promise<CryptoWithdrawal> {
    return this.#write('createCryptoWithdrawal', body.request_id ?? '', () => {
      const e = this.entries.find((x) => x.id === body.crypto_currency_id);
      const a = this.addresses.find((x) => x.id === body.address_book_address_id);
      if (!e) throw refusal('createCryptoWithdrawal', 422, 'Unknown crypto currency');
      if (!a) throw refusal('createCryptoWithdrawal', 404, 'Address not found');
      if ((a.withdrawal_cooldown_until ?? 0) > this.clock.now())
        throw refusal('createCryptoWithdrawal', 422, 'Address is in its withdrawal cooldown');
      const asset = e.asset.symbol!;
      const total = add(body.amount, e.withdrawal_fee);
      if (lt(this.balances.get(asset) ?? '0', total))
        throw refusal('createCryptoWithdrawal', 422, 'Insufficient balance');
      this.balances.set(asset, sub(this.balances.get(asset)!, total));
      const w: CryptoWithdrawal & { request_id?: string } = {
        id: uuidOf(++this.#seq),
        address: a.address,
        amount: body.amount,
        total_amount: total,
        created_at: this.clock.now(),
        fee: e.withdrawal_fee,
        status: 'pending',
        travel_rule_status: 'pending',
        pending_reason: 'travel_rule_check',
        transaction_hash: null,
        link_explorer: null,
        crypto_currency: e,
        address_book_address: { id: a.id, label: a.label, address: a.address },
        invoice_downloadable: false,
        transaction: { uuid: uuidOf(++this.#seq) },
        note: this.keepNotes ? (body.note ?? null) : null,
        ...(body.request_id === undefined ? {} : { request_id: body.request_id }),
      };
      this.withdrawals.push(w);
      const { request_id: _r, ...answer } = w;
      return {
        result: clone(answer),
        commit: { op: 'createCryptoWithdrawal', key: body.request_id ?? '', exchangeId: w.id, body },
      };
    });
  }

  async createFiatWithdrawal(body: CreateFiatWithdrawalBody): Promise<FiatWithdrawal> {
    return this.#write('createFiatWithdrawal', body.request_id ?? '', () => {
      const fee = this.fiatFees.find((f) => f.currency === body.currency)?.fee ?? '0';
      const total = add(body.amount, fee);
      if (lt(this.balances.get(body.currency) ?? '0', total))
        throw refusal('createFiatWithdrawal', 422, 'Insufficient balance');
      this.balances.set(body.currency, sub(this.balances.get(body.currency)!, total));
      const note = this.keepNotes ? (body.note ?? null) : null;
      const f = {
        id: 5000 + ++this.#seq,
        currency: body.currency,
        amount: body.amount,
        status: 'pending',
        withdrawal_fee: fee,
        created_at: this.clock.now(),
        bank_account_id: body.bank_account_id,
        request_id: body.request_id,
        note,
      };
      this.fiatWithdrawals.push(f);
      // The create answer shows no note (the reference's fiat withdrawal has none); the list does, as the sandbox's.
      const { request_id: _r, bank_account_id: _b, note: _n, ...answer } = f;
      return {
        result: clone(answer),
        commit: { op: 'createFiatWithdrawal', key: body.request_id ?? '', exchangeId: String(f.id), body },
      };
    });
  }

  async deleteBankAccount(id: string): Promise<void> {
    return this.#write('deleteBankAccount', id, () => {
      const index = this.bankAccounts.findIndex((b) => String(b.id) === id);
      if (index < 0) throw new ExchangeError({ kind: 'not_found', operation: 'deleteBankAccount', status: 404 });
      this.bankAccounts.splice(index, 1);
      return { result: undefined, commit: { op: 'deleteBankAccount', key: id, exchangeId: id, body: { id } } };
    });
  }

  // ---- machinery ------------------------------------------------------------------------------

  #nextFault(op: Op): Fault | undefined {
    const queue = this.queued.get(op);
    if (queue && queue.length > 0) return queue.shift();
    return this.faultPolicy?.(op);
  }

  #read(op: string): void {
    this.calls.push({ op, at: this.clock.now() });
    const fault = this.#nextFault('read');
    if (fault) throw toError(op, fault.error);
  }

  async #write<T>(op: WriteOp, _key: string, act: () => { result: T; commit?: Omit<Commit, 'at'> }): Promise<T> {
    this.onWrite?.(op, this.clock.now());
    this.calls.push({ op, at: this.clock.now() });
    await Promise.resolve();
    const fault = this.#nextFault(op);
    if (fault?.when === 'before') throw toError(op, fault.error);
    const { result, commit } = act();
    if (commit) {
      const full = { ...commit, at: this.clock.now() };
      this.commits.push(full);
      this.onCommit?.(full);
    }
    if (fault?.when === 'after') throw toError(op, fault.error);
    return result;
  }

  #pages<T>(items: () => T[], opts: ListOptions | undefined): AsyncIterable<T> {
    // A server may serve fewer than asked (servePageSize): short pages before the last.
    const size = Math.min(opts?.pageSize ?? 2, this.servePageSize ?? Number.POSITIVE_INFINITY);
    const maxPages = opts?.maxPages ?? Number.POSITIVE_INFINITY;
    const maxItems = opts?.maxItems ?? Number.POSITIVE_INFINITY;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- an async generator cannot be an arrow function
    const self = this;
    return {
      async *[Symbol.asyncIterator]() {
        let all = items();
        let served = 0;
        let page = 0;
        for (; page * size < Math.max(all.length, 1) && page < maxPages; page++) {
          // Each page is read afresh, as from the real exchange (a walk may pause between pages).
          if (page > 0) all = items();
          self.pages++;
          opts?.onPage?.();
          for (const item of all.slice(page * size, page * size + size)) {
            // The port's contract (ListOptions.onTruncated): a bound that stops a list going on says so.
            if (served++ >= maxItems) return opts?.onTruncated?.();
            yield item;
          }
        }
        if (page * size < all.length) opts?.onTruncated?.();
      },
    };
  }
}

function supersedeKey(body: CreateQuoteBody): string {
  // The reference: same account, amount, pair and payment method.
  return [body.symbol, body.quantity, body.payment_method].join('|');
}

function toError(operation: string, error: FaultError): ExchangeError {
  if (error === 'timeout') return new ExchangeError({ kind: 'timeout', operation });
  if (error === 'network') return new ExchangeError({ kind: 'network', operation });
  if (error === 'server')
    return new ExchangeError({ kind: 'server', operation, status: 502, messages: ['Bad gateway'] });
  return refusal(operation, error.status, error.message);
}

export function refusal(operation: string, status: number, message: string): ExchangeError {
  return new ExchangeError({
    kind:
      status === 404 ? 'not_found' : status === 401 ? 'unauthorized' : status === 403 ? 'forbidden' : 'unprocessable',
    operation,
    status,
    messages: [message],
  });
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

function uuidOf(n: number): string {
  return `eeeeeeee-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

function entry(
  id: number,
  symbol: string,
  network: string,
  networkUuid: string,
  precision: number,
  fee: string,
  min: string,
): CryptoCurrencyEntry {
  return {
    id,
    name: symbol,
    code: symbol,
    precision,
    network_id: networkUuid,
    withdrawal_fee: fee,
    minimum_withdrawal: min,
    network: { uuid: networkUuid, name: network, network_code: network },
    asset: { id, name: symbol, symbol, asset_type: 'crypto' },
  };
}

function address(
  id: string,
  label: string,
  addr: string,
  status: string,
  network: string,
  cooldown: number | null,
): AddressBookAddress {
  return {
    id,
    label,
    address: addr,
    address_tag: null,
    status,
    crypto_currency_networks: [{ uuid: network }],
    withdrawal_cooldown_until: cooldown,
    wallet_identity: null,
  };
}
