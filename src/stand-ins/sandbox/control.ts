// Inspection and control in process (`sandbox.control.advance(60_000)`); control-http.ts serves the same
// under /_sandbox. Nothing here is reachable with an exchange key.
import { add, isDecimal, normalize } from '../../bot/domain/money.js';
import { FIAT_WITHDRAWAL_STATUSES, WITHDRAWAL_STATUSES, type Scope } from '../../bot/exchange/assumptions.js';
import { createCryptoWithdrawalBody, type CreateCryptoWithdrawalBody } from '../../bot/exchange/schemas.js';
import type { NetworkCode } from './catalog.js';
import { makeWithdrawal } from './routes/withdrawals.js';
import type { FaultRule, FaultSet } from './faults.js';
import type { KeyRegistry, RegisteredKey } from './keys.js';
import {
  cancelOrder,
  endWithdrawal,
  holdWithdrawal,
  moveFiatWithdrawal,
  moveOrder,
  moveWithdrawal,
  settle,
  type WithdrawalHold,
} from './lifecycle.js';
import { creditRegular } from './ledger.js';
import {
  presentAddress,
  presentBalance,
  presentDeposit,
  presentFiatWithdrawal,
  presentOrder,
  presentQuote,
  presentWithdrawal,
} from './present.js';
import { midPrice, setPrice } from './prices.js';
import { HttpError } from './router.js';
import { addAccount, chainAddress, DEFAULT_ACCOUNT, seedState, txHash } from './seed.js';
import {
  balanceOf,
  entryById,
  networkByUuid,
  type AccountState,
  type CryptoDepositRecord,
  type SandboxState,
  type WalletIdentityRecord,
} from './state.js';
import type { SandboxClock } from './sandbox-clock.js';
import { DEPOSIT_CONFIRM_MS, FIAT_WITHDRAWAL_TIMELINE, type WITHDRAWAL_TIMELINE } from './timings.js';

export interface AccessLogEntry {
  /** Wall-clock time the request arrived (ms). */
  at: number;
  method: string;
  /** Path without the query string: no cursors, no secrets. */
  path: string;
  /** HTTP status answered; 0 when the connection was dropped or the request hung. */
  status: number;
  durationMs: number;
  fault?: string;
  account?: string;
}

export interface InjectDepositInput {
  /** Crypto currency entry id (default 101, BTC on Bitcoin). */
  currencyId?: number;
  amount: string;
  /** Leaves the deposit pending with travel_rule_status `required` until counterparty info arrives. */
  needsCounterpartyInfo?: boolean;
  /** Completed and credited at once instead of after DEPOSIT_CONFIRM_MS. */
  confirmed?: boolean;
  account?: string;
}

export interface AddressChange {
  status?: string;
  address_tag?: string | null;
  display_status?: string | null;
  withdrawal_cooldown_until?: number | null;
  wallet_identity?: Omit<WalletIdentityRecord, 'id'> | null;
}

export interface ControlDeps {
  getState(): SandboxState;
  setState(state: SandboxState): void;
  clock: SandboxClock;
  /** Called after advance(): late commits that came due are made. */
  afterClockMoved?: () => void;
  faults: FaultSet;
  keys: KeyRegistry;
  seed: string;
  accessLog: AccessLogEntry[];
}

/** A status the control surface may put a crypto withdrawal in: along its timeline, or ended. */
export type WithdrawalControlStatus =
  (typeof WITHDRAWAL_TIMELINE)[number]['status'] | 'failed' | 'rejected' | 'cancelled';

/** A status the control surface may put a fiat withdrawal in. */
export type FiatWithdrawalControlStatus = (typeof FIAT_WITHDRAWAL_STATUSES)[number];

export function createControl(deps: ControlDeps) {
  const state = () => {
    const s = deps.getState();
    settle(s, deps.clock.now());
    return s;
  };
  const account = (name = DEFAULT_ACCOUNT): AccountState => {
    const a = state().accounts.get(name);
    if (!a) throw new HttpError(404, `No sandbox account named ${name}`);
    return a;
  };
  const notFound = (what: string): never => {
    throw new HttpError(404, `${what} not found`);
  };
  /** A lifecycle rule refused the change: a 422 with its reason. */
  const byRule = <T>(change: () => T): T => {
    try {
      return change();
    } catch (e) {
      throw new HttpError(422, (e as Error).message);
    }
  };
  const end = (id: string, status: 'failed' | 'rejected' | 'cancelled', name?: string) => {
    const a = account(name);
    const w = a.withdrawals.find((x) => x.id === id) ?? notFound('Withdrawal');
    byRule(() => endWithdrawal(deps.getState(), a, w, status));
    return presentWithdrawal(deps.getState(), a.addressBook, w);
  };
  const cancel = (id: string, reason = 'Cancelled by the sandbox control surface', name?: string) => {
    const o = account(name).orders.find((x) => x.id === id) ?? notFound('Order');
    byRule(() => cancelOrder(o, deps.clock.now(), reason));
    return presentOrder(o);
  };

  return {
    /** Back to the seeded state at the current sandbox time; faults cleared, keys kept. */
    reset(): void {
      deps.setState(seedState(deps.seed, deps.clock.now(), deps.keys.accounts()));
      deps.faults.clear();
      deps.accessLog.length = 0;
    },
    now: (): number => deps.clock.now(),
    /** Move the sandbox clock forward and apply every transition now due. Returns the new time. */
    advance(ms: number): number {
      deps.clock.advance(ms);
      deps.afterClockMoved?.();
      state();
      return deps.clock.now();
    },
    accounts: (): string[] => [...state().accounts.keys()],

    withdrawals: (name?: string) => {
      const a = account(name);
      // What the exchange stores, request_id included (the API never lists it).
      return a.withdrawals.map((w) => ({
        ...presentWithdrawal(deps.getState(), a.addressBook, w),
        request_id: w.request_id,
        held: w.held,
      }));
    },
    fiatWithdrawals: (name?: string) =>
      account(name).fiatWithdrawals.map((w) => ({
        ...presentFiatWithdrawal(w, 'listed'),
        request_id: w.request_id,
        held: w.held,
      })),
    /** A crypto withdrawal made outside the bot (the exchange's app) by the exchange's rules, at `createdAt` (default now): history and look-alikes for tests. */
    injectWithdrawal(input: { body: CreateCryptoWithdrawalBody; createdAt?: number; account?: string }) {
      const s = state();
      const a = account(input.account);
      const body = createCryptoWithdrawalBody.safeParse(input.body);
      if (!body.success) throw new HttpError(422, `Invalid withdrawal: ${body.error.issues[0]!.message}`);
      const w = makeWithdrawal(s, a, body.data, input.createdAt ?? deps.clock.now(), false);
      // Made in the past, it has moved along its timeline since.
      settle(s, deps.clock.now());
      return presentWithdrawal(s, a.addressBook, w);
    },

    /** A completed fiat withdrawal made outside the bot, to the account's first bank account in that currency: history for tests and demo. */
    injectFiatWithdrawal(input: {
      currency: 'USD' | 'SGD';
      amount: string;
      createdAt: number;
      note?: string | null;
      account?: string;
    }) {
      const s = state();
      const a = account(input.account);
      const bank = a.bankAccounts.find((b) => b.currency === input.currency);
      if (!bank) throw new HttpError(404, `No ${input.currency} bank account`);
      if (!isDecimal(input.amount)) throw new HttpError(400, 'amount must be a decimal string');
      const rule = s.fiatRules.find((r) => r.currency === input.currency)!;
      const id = ++s.counters.fiatWithdrawal;
      const w = {
        id,
        currency: input.currency,
        amount: normalize(input.amount),
        withdrawal_fee: rule.fee,
        status: 'completed',
        bank_reference: `SBX-FW-H${id}`,
        bank_account_id: bank.id,
        created_at: input.createdAt,
        transactionUuid: s.rng.uuid(),
        request_id: null,
        note: input.note ?? null,
        stage: FIAT_WITHDRAWAL_TIMELINE.length - 1,
        held: false,
      };
      a.fiatWithdrawals.push(w);
      return presentFiatWithdrawal(w, 'listed');
    },
    orders: (name?: string) => account(name).orders.map(presentOrder),
    quotes: (name?: string) =>
      account(name).quotes.map((q) => ({
        ...presentQuote(q),
        superseded_by: q.supersededBy,
        used_by_order: q.usedByOrder,
      })),
    counterpartySubmissions: (name?: string) => account(name).counterparty.map((c) => ({ ...c })),
    deposits: (name?: string) => account(name).deposits.map((d) => presentDeposit(deps.getState(), d)),
    addresses: (name?: string) => account(name).addressBook.map((x) => presentAddress(deps.getState(), x)),
    /** Every balance record, zero ones too, plus what live withdrawals hold outside them. */
    balances: (name?: string) => {
      const a = account(name);
      const s = deps.getState();
      return [...a.balances.entries()].map(([symbol, b]) => ({
        ...presentBalance(symbol, b),
        held_by_withdrawals: [
          ...a.withdrawals.filter((w) => w.held && entryById(s, w.entryId)!.assetSymbol === symbol).map((w) => w.total),
          ...a.fiatWithdrawals
            .filter((w) => w.held && w.currency === symbol)
            .map((w) => add(w.amount, w.withdrawal_fee)),
        ],
      }));
    },

    /** Set parts of a balance directly (decimal strings). */
    setBalance(input: {
      currency: string;
      regular?: string;
      orders?: string;
      alternative_products?: string;
      account?: string;
    }) {
      const b = balanceOf(account(input.account), input.currency.toUpperCase());
      for (const part of ['regular', 'orders', 'alternative_products'] as const) {
        const v = input[part];
        if (v === undefined) continue;
        if (!isDecimal(v)) throw new HttpError(422, `${part} must be a non-negative decimal string`);
        b[part] = normalize(v);
      }
      return presentBalance(input.currency.toUpperCase(), b);
    },

    /** A new incoming crypto deposit (a RECEIVE transaction), as the list shows it. */
    injectDeposit(input: InjectDepositInput) {
      const s = state();
      const a = account(input.account);
      const entry = entryById(s, input.currencyId ?? 101);
      if (!entry) throw new HttpError(422, `Unknown crypto currency id ${input.currencyId}`);
      if (!isDecimal(input.amount)) throw new HttpError(422, 'amount must be a non-negative decimal string');
      const code = networkByUuid(s, entry.networkUuid)!.network_code as NetworkCode;
      const now = deps.clock.now();
      const needs = input.needsCounterpartyInfo ?? false;
      const d: CryptoDepositRecord = {
        id: s.rng.uuid(),
        entryId: entry.id,
        to_address: chainAddress(s.rng, code),
        amount: normalize(input.amount),
        created_at: now,
        transaction_hash: txHash(s.rng, code),
        status: 'pending',
        travel_rule_status: needs ? 'required' : 'pending',
        transactionUuid: s.rng.uuid(),
        credited: false,
        completesAt: needs ? null : now + DEPOSIT_CONFIRM_MS,
      };
      if (input.confirmed && !needs) {
        d.status = 'completed';
        d.travel_rule_status = 'approved';
        d.credited = true;
        creditRegular(a, entry.assetSymbol, d.amount);
      }
      a.deposits.push(d);
      return presentDeposit(s, d);
    },

    /** End a live crypto withdrawal off its timeline; the held amount plus fee returns. */
    endWithdrawal: end,

    /** Move a live withdrawal along its own rules to `status` (forward on its timeline and kept there, or ended as endWithdrawal does). */
    setWithdrawalStatus(id: string, status: WithdrawalControlStatus, name?: string) {
      if (status === 'failed' || status === 'rejected' || status === 'cancelled') return end(id, status, name);
      const a = account(name);
      const w = a.withdrawals.find((x) => x.id === id) ?? notFound('Withdrawal');
      byRule(() => moveWithdrawal(deps.getState(), w, status));
      return presentWithdrawal(deps.getState(), a.addressBook, w);
    },

    /**
     * Hold a live withdrawal at a status, Travel Rule status or pending reason the sandbox never gives on
     * its own (held_for_review; approved while still pending), kept until moved on. A status of its
     * timeline goes through setWithdrawalStatus instead.
     */
    holdWithdrawal(id: string, hold: WithdrawalHold, name?: string) {
      if (hold.status !== undefined && (WITHDRAWAL_STATUSES as readonly string[]).includes(hold.status))
        throw new HttpError(
          422,
          `${hold.status} is a status the sandbox gives by its rules: set it with setWithdrawalStatus`,
        );
      for (const value of [hold.status, hold.travel_rule_status, hold.pending_reason])
        if (typeof value === 'string' && !/^[a-z][a-z_]{0,39}$/.test(value))
          throw new HttpError(422, 'a held status, Travel Rule status or reason is lowercase letters and underscores');
      const a = account(name);
      const w = a.withdrawals.find((x) => x.id === id) ?? notFound('Withdrawal');
      byRule(() => holdWithdrawal(w, hold));
      return presentWithdrawal(deps.getState(), a.addressBook, w);
    },

    /** Move a live fiat withdrawal forward along its timeline and keep it there, or reject it (amount plus fee return). */
    setFiatWithdrawalStatus(id: number, status: FiatWithdrawalControlStatus, name?: string) {
      const a = account(name);
      const w = a.fiatWithdrawals.find((x) => x.id === id) ?? notFound('Fiat withdrawal');
      byRule(() => moveFiatWithdrawal(a, w, status));
      return presentFiatWithdrawal(w, 'listed');
    },

    /** The time the exchange records a withdrawal was made (its clock off, or a bad record): lists filter and order by it. */
    redateWithdrawal(id: string, createdAt: number, name?: string) {
      const a = account(name);
      const w = a.withdrawals.find((x) => x.id === id) ?? notFound('Withdrawal');
      if (!Number.isSafeInteger(createdAt) || createdAt < 0)
        throw new HttpError(422, 'created_at must be epoch milliseconds');
      w.created_at = createdAt;
      return presentWithdrawal(deps.getState(), a.addressBook, w);
    },

    /** Move a live order along its own rules to `status` (forward, settled when completed, and kept there; cancelled as cancelOrder does). */
    setOrderStatus(id: string, status: 'pending' | 'open' | 'completed' | 'cancelled', name?: string) {
      if (status === 'cancelled') return cancel(id, undefined, name);
      const a = account(name);
      const o = a.orders.find((x) => x.id === id) ?? notFound('Order');
      byRule(() => moveOrder(a, o, deps.clock.now(), status));
      return presentOrder(o);
    },

    cancelOrder: cancel,

    /** Change a saved address (verify it, end its cooldown, remove its recipient details...). */
    updateAddress(id: string, change: AddressChange, name?: string) {
      const a = account(name);
      const addr = a.addressBook.find((x) => x.id === id) ?? notFound('Address');
      if (change.status !== undefined) addr.status = change.status;
      if (change.address_tag !== undefined) addr.address_tag = change.address_tag;
      if (change.display_status !== undefined) addr.display_status = change.display_status;
      if (change.withdrawal_cooldown_until !== undefined)
        addr.withdrawal_cooldown_until = change.withdrawal_cooldown_until;
      if (change.wallet_identity !== undefined) {
        addr.wallet_identity =
          change.wallet_identity === null ? null : { id: deps.getState().rng.uuid(), ...change.wallet_identity };
      }
      return presentAddress(deps.getState(), addr);
    },

    /** Remove a saved address, as a person would in the exchange's app (withdrawals made to it keep their record). */
    removeAddress(id: string, name?: string): void {
      const a = account(name);
      const at = a.addressBook.findIndex((x) => x.id === id);
      if (at < 0) notFound('Address');
      a.addressBook.splice(at, 1);
    },

    /** Change a crypto currency entry's withdrawal fee or minimum (decimal strings): the exchange's fees move. */
    updateCurrency(id: number, change: { withdrawal_fee?: string; minimum_withdrawal?: string }) {
      const entry = entryById(state(), id) ?? notFound('Crypto currency');
      for (const field of ['withdrawal_fee', 'minimum_withdrawal'] as const) {
        const v = change[field];
        if (v === undefined) continue;
        if (!isDecimal(v)) throw new HttpError(422, `${field} must be a non-negative decimal string`);
        entry[field] = normalize(v);
      }
      return { id: entry.id, withdrawal_fee: entry.withdrawal_fee, minimum_withdrawal: entry.minimum_withdrawal };
    },

    /** Change a fiat currency's withdrawal minimum, maximum or fee (decimal strings). */
    setFiatRule(currency: string, change: { minimum?: string; maximum?: string; fee?: string }) {
      const rules = state().fiatRules;
      const at = rules.findIndex((r) => r.currency === currency);
      if (at < 0) notFound(`Fiat currency ${currency}`);
      // A new object: the seeded rules are shared constants (catalog.ts).
      const rule = { ...rules[at]! };
      for (const field of ['minimum', 'maximum', 'fee'] as const) {
        const v = change[field];
        if (v === undefined) continue;
        if (!isDecimal(v)) throw new HttpError(422, `${field} must be a non-negative decimal string`);
        rule[field] = normalize(v);
      }
      rules[at] = rule;
      return { ...rule };
    },

    /** Change a bank account as the exchange's app would (another number, another currency, verified or not). */
    updateBankAccount(
      id: number,
      change: { account_number?: string; currency?: 'USD' | 'SGD'; verified?: boolean },
      name?: string,
    ) {
      const bank = account(name).bankAccounts.find((b) => b.id === id) ?? notFound('Bank account');
      if (change.account_number !== undefined) {
        if (!/^\d{4,34}$/.test(change.account_number))
          throw new HttpError(422, 'account_number must be 4 to 34 digits');
        bank.account_number = change.account_number;
      }
      if (change.currency !== undefined) bank.currency = change.currency;
      if (change.verified !== undefined) bank.verified = change.verified;
      return { ...bank, bank: { ...bank.bank } };
    },
    /** The account's bank accounts, as stored. */
    bankAccounts: (name?: string) => account(name).bankAccounts.map((b) => ({ ...b, bank: { ...b.bank } })),

    /** Set a pair's mid price now, and/or its drift and volatility (bps per one-second step). */
    setPrice(input: { symbol: string; price?: string; driftBps?: number; volatilityBps?: number }) {
      const s = state();
      if (!s.prices.pairs.has(input.symbol)) throw new HttpError(404, `Unknown pair ${input.symbol}`);
      if (input.price !== undefined && (!isDecimal(input.price) || normalize(input.price) === '0')) {
        throw new HttpError(422, 'price must be a positive decimal string');
      }
      const change = {
        ...(input.price !== undefined ? { price: normalize(input.price) } : {}),
        ...(input.driftBps !== undefined ? { driftBps: input.driftBps } : {}),
        ...(input.volatilityBps !== undefined ? { volatilityBps: input.volatilityBps } : {}),
      };
      setPrice(s.prices, input.symbol, deps.clock.now(), change);
      return { symbol: input.symbol, mid: midPrice(s.prices, input.symbol, deps.clock.now()) };
    },
    prices: () => {
      const s = state();
      return [...s.prices.pairs.keys()].map((symbol) => ({
        symbol,
        mid: midPrice(s.prices, symbol, deps.clock.now()),
      }));
    },
    /** The crypto currency entries deposits can arrive in (id, code, name; USDT is there once per network). */
    cryptoCurrencies: () => state().currencies.map((c) => ({ id: c.id, code: c.code, name: c.name })),
    price: (symbol: string) => {
      const s = state();
      if (!s.prices.pairs.has(symbol)) throw new HttpError(404, `Unknown pair ${symbol}`);
      return { symbol, mid: midPrice(s.prices, symbol, deps.clock.now()) };
    },

    setFaults: (rules: readonly FaultRule[]) => deps.faults.set(rules),
    addFault: (rule: FaultRule) => deps.faults.add(rule),
    clearFaults: () => deps.faults.clear(),
    faults: () => deps.faults.list(),

    /** Register a key (public key hex) with scopes for an account, seeding the account if new. */
    registerKey(input: { publicKeyHex: string; scopes: readonly Scope[]; account?: string }) {
      let key: RegisteredKey;
      try {
        key = deps.keys.register(input);
      } catch (e) {
        throw new HttpError(422, (e as Error).message);
      }
      // A new account gets the same shape of seeded data as the others.
      addAccount(deps.getState(), key.account, deps.clock.now());
      return { api_key: key.id, scopes: [...key.scopes], account: key.account };
    },

    /** The access log (method, path, status), oldest first; bounded. */
    requests: (): AccessLogEntry[] => [...deps.accessLog],
  };
}

export type SandboxControl = ReturnType<typeof createControl>;
