// The seeded starting state: every account the same shape (so the README can describe it), ids and hashes
// from the seed and account name, times relative to the clock at seeding.
import { add } from '../../bot/domain/money.js';
import { ADDRESS_VERIFIED_STATUS } from '../../bot/exchange/assumptions.js';
import { ASSETS, FIAT_RULES, makeCurrencies, makeNetworks, makeWallets, PAIRS, type NetworkCode } from './catalog.js';
import { createPriceBook } from './prices.js';
import { ALPHABET, createRng, type Rng } from './prng.js';
import { WITHDRAWAL_TIMELINE } from './timings.js';
import type {
  AccountState,
  AddressRecord,
  BalanceRecord,
  CryptoDepositRecord,
  CryptoWithdrawalRecord,
  NetworkRecord,
  SandboxState,
  WalletIdentityRecord,
} from './state.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The account every key belongs to unless registered to another one. */
export const DEFAULT_ACCOUNT = 'main';

/** Build the whole state for `seed` at sandbox time `now`, with one account per name. */
export function seedState(seed: string, now: number, accountNames: readonly string[]): SandboxState {
  const root = createRng(seed);
  const networks = makeNetworks(root.fork('networks'));
  const state: SandboxState = {
    seed,
    rng: root.fork('runtime'),
    assets: [...ASSETS],
    networks,
    currencies: makeCurrencies(networks),
    wallets: makeWallets(root.fork('wallets')),
    fiatRules: [...FIAT_RULES],
    prices: createPriceBook(seed, PAIRS, now),
    accounts: new Map(),
    counters: { bankAccount: 1000, fiatWithdrawal: 7000, fiatDeposit: 5000, order: 900000 },
  };
  for (const name of new Set([DEFAULT_ACCOUNT, ...accountNames])) addAccount(state, name, now);
  return state;
}

/** Add a freshly seeded account (no-op when it exists). */
export function addAccount(state: SandboxState, name: string, now: number): AccountState {
  const existing = state.accounts.get(name);
  if (existing) return existing;
  const rng = createRng(`${state.seed}/account/${name}`);
  const net = (code: NetworkCode): NetworkRecord => state.networks.find((n) => n.network_code === code)!;
  const wallet = (name: string) => {
    const w = state.wallets.find((x) => x.name === name)!;
    return { id: w.id, name: w.name, type: w.type };
  };
  const identity = (
    entity_name: string,
    entity_type: 'individual' | 'entity',
    ownership: 'first_party' | 'third_party',
  ): WalletIdentityRecord => ({
    id: rng.uuid(),
    entity_name,
    entity_type,
    ownership,
    additional_info_provided: true,
  });
  const address = (
    label: string,
    code: NetworkCode,
    opts: Partial<AddressRecord> & Pick<AddressRecord, 'crypto_wallet' | 'wallet_identity'>,
  ): AddressRecord => ({
    id: rng.uuid(),
    label,
    created_at: now - 30 * DAY,
    address: chainAddress(rng, code),
    address_tag: null,
    status: ADDRESS_VERIFIED_STATUS,
    display_status: 'Verified',
    networkUuids: [net(code).uuid],
    withdrawal_cooldown_until: null,
    ...opts,
  });

  const addressBook: AddressRecord[] = [
    address('Treasury cold storage', 'bitcoin', {
      crypto_wallet: wallet('Ledger'),
      wallet_identity: identity('Sandbox Trading Pte. Ltd.', 'entity', 'first_party'),
      withdrawal_cooldown_until: now - 20 * DAY,
    }),
    address('OTC partner (ERC20)', 'ethereum', {
      crypto_wallet: wallet('Coinbase'),
      wallet_identity: identity('Northwind Capital Ltd', 'entity', 'third_party'),
    }),
    address('OTC partner (TRC20)', 'tron', {
      crypto_wallet: wallet('Binance'),
      wallet_identity: identity('Northwind Capital Ltd', 'entity', 'third_party'),
    }),
    address('New exchange account', 'ethereum', {
      created_at: now - 2 * HOUR,
      crypto_wallet: wallet('Kraken'),
      wallet_identity: identity('Sandbox Trading Pte. Ltd.', 'entity', 'first_party'),
      display_status: 'Cooling down',
      withdrawal_cooldown_until: now + 22 * HOUR,
    }),
    address('Personal wallet (unverified)', 'bitcoin', {
      created_at: now - DAY,
      status: 'pending',
      display_status: 'Pending verification',
      crypto_wallet: wallet('MetaMask'),
      wallet_identity: identity('Alex Tan', 'individual', 'first_party'),
    }),
    address('Vendor without recipient details', 'ethereum', {
      crypto_wallet: null,
      wallet_identity: null,
      display_status: 'Recipient details missing',
    }),
  ];

  const balances = new Map<string, BalanceRecord>([
    ['BTC', { regular: '3.5', orders: '0.1', alternative_products: '0.05' }],
    ['ETH', { regular: '45', orders: '0', alternative_products: '1.5' }],
    ['USDT', { regular: '250000', orders: '5000', alternative_products: '0' }],
    // Zero everywhere: present in the ledger, absent from the balance listing.
    ['USDC', { regular: '0', orders: '0', alternative_products: '0' }],
    ['USD', { regular: '1000000', orders: '0', alternative_products: '0' }],
    ['SGD', { regular: '500000', orders: '0', alternative_products: '0' }],
  ]);

  const ourAddress = (code: NetworkCode) => chainAddress(rng, code);
  const deposit = (entryId: number, amount: string, ago: number, pendingTravelRule: boolean): CryptoDepositRecord => {
    const entry = state.currencies.find((c) => c.id === entryId)!;
    const code = state.networks.find((n) => n.uuid === entry.networkUuid)!.network_code as NetworkCode;
    return {
      id: rng.uuid(),
      entryId,
      to_address: ourAddress(code),
      amount,
      created_at: now - ago,
      transaction_hash: txHash(rng, code),
      status: pendingTravelRule ? 'pending' : 'completed',
      travel_rule_status: pendingTravelRule ? 'required' : 'approved',
      transactionUuid: rng.uuid(),
      credited: !pendingTravelRule,
      completesAt: null,
    };
  };
  const deposits = [
    deposit(101, '0.5', 10 * DAY, false),
    deposit(102, '12', 7 * DAY, false),
    deposit(104, '25000', 3 * DAY, false),
    deposit(103, '15000', 2 * HOUR, true),
    deposit(101, '0.25', 30 * MINUTE, true),
  ];

  const finalStage = WITHDRAWAL_TIMELINE.length - 1;
  const pastWithdrawal = (
    entryId: number,
    addr: AddressRecord,
    amount: string,
    ago: number,
  ): CryptoWithdrawalRecord => {
    const entry = state.currencies.find((c) => c.id === entryId)!;
    const network = state.networks.find((n) => n.uuid === entry.networkUuid)!;
    const hash = txHash(rng, network.network_code as NetworkCode);
    const last = WITHDRAWAL_TIMELINE[finalStage]!;
    return {
      id: rng.uuid(),
      entryId,
      addressId: addr.id,
      address: addr.address,
      address_tag: addr.address_tag,
      amount,
      fee: entry.withdrawal_fee,
      total: add(amount, entry.withdrawal_fee),
      created_at: now - ago,
      status: last.status,
      travel_rule_status: last.travel_rule_status,
      pending_reason: last.pending_reason,
      transaction_hash: hash,
      link_explorer: network.explorer + hash,
      note: null,
      request_id: null,
      transaction_purpose: null,
      transactionUuid: rng.uuid(),
      stage: finalStage,
      held: false,
    };
  };
  const withdrawals = [
    pastWithdrawal(101, addressBook[0]!, '0.1', 9 * DAY),
    pastWithdrawal(104, addressBook[2]!, '5000', 4 * DAY),
    pastWithdrawal(102, addressBook[1]!, '2', DAY),
  ];

  const c = state.counters;
  const account: AccountState = {
    name,
    balances,
    addressBook,
    bankAccounts: [
      {
        id: ++c.bankAccount,
        currency: 'USD',
        account_number: `0721${rng.chars(ALPHABET.digits, 6)}`,
        beneficiary_name: 'Sandbox Trading Pte. Ltd.',
        last_used_at: now - 5 * DAY,
        verified: true,
        bank: {
          name: 'DBS Bank Ltd',
          swift_code: 'DBSSSGSG',
          bic_code: 'DBSSSGSGXXX',
          branch_name: 'Marina Bay',
          branch_code: '001',
          address: '12 Marina Boulevard, Singapore',
        },
      },
      {
        id: ++c.bankAccount,
        currency: 'SGD',
        account_number: `5013${rng.chars(ALPHABET.digits, 6)}`,
        beneficiary_name: 'Sandbox Trading Pte. Ltd.',
        last_used_at: null,
        verified: false,
        bank: {
          name: 'OCBC Bank',
          swift_code: 'OCBCSGSG',
          bic_code: null,
          branch_name: null,
          branch_code: null,
          address: null,
        },
      },
      {
        id: ++c.bankAccount,
        currency: 'SGD',
        account_number: `3390${rng.chars(ALPHABET.digits, 6)}`,
        beneficiary_name: 'Sandbox Trading Pte. Ltd.',
        last_used_at: now - 2 * DAY,
        verified: true,
        bank: {
          name: 'United Overseas Bank',
          swift_code: 'UOVBSGSG',
          bic_code: 'UOVBSGSGXXX',
          branch_name: 'Raffles Place',
          branch_code: '030',
          address: '80 Raffles Place, Singapore',
        },
      },
    ],
    deposits,
    withdrawals,
    fiatDeposits: [
      {
        id: ++c.fiatDeposit,
        currency: 'USD',
        amount: '250000',
        status: 'completed',
        created_at: now - 20 * DAY,
        bank_reference: `SBX-FD-${rng.chars(ALPHABET.upper, 6)}`,
      },
      {
        id: ++c.fiatDeposit,
        currency: 'SGD',
        amount: '100000',
        status: 'completed',
        created_at: now - 15 * DAY,
        bank_reference: `SBX-FD-${rng.chars(ALPHABET.upper, 6)}`,
      },
      {
        id: ++c.fiatDeposit,
        currency: 'USD',
        amount: '50000',
        status: 'completed',
        created_at: now - DAY,
        bank_reference: `SBX-FD-${rng.chars(ALPHABET.upper, 6)}`,
      },
    ],
    fiatWithdrawals: [],
    quotes: [],
    orders: [],
    counterparty: [],
  };
  account.fiatWithdrawals.push(
    {
      id: ++c.fiatWithdrawal,
      currency: 'USD',
      amount: '10000',
      withdrawal_fee: '25',
      status: 'completed',
      bank_reference: `SBX-FW-${rng.chars(ALPHABET.upper, 6)}`,
      bank_account_id: account.bankAccounts[0]!.id,
      created_at: now - 5 * DAY,
      transactionUuid: rng.uuid(),
      request_id: null,
      note: null,
      stage: 2,
      held: false,
    },
    {
      id: ++c.fiatWithdrawal,
      currency: 'SGD',
      amount: '2500',
      withdrawal_fee: '5',
      status: 'completed',
      bank_reference: `SBX-FW-${rng.chars(ALPHABET.upper, 6)}`,
      bank_account_id: account.bankAccounts[2]!.id,
      created_at: now - 2 * DAY,
      transactionUuid: rng.uuid(),
      request_id: null,
      note: null,
      stage: 2,
      held: false,
    },
  );
  state.accounts.set(name, account);
  return account;
}

/** A plausible-looking address on a network (not a valid one: nothing here touches a chain). */
export function chainAddress(rng: Rng, code: NetworkCode): string {
  switch (code) {
    case 'bitcoin':
      return `bc1q${rng.chars(ALPHABET.bech32, 38)}`;
    case 'ethereum':
      return `0x${rng.chars(ALPHABET.hex, 40)}`;
    case 'tron':
      return `T${rng.chars(ALPHABET.base58, 33)}`;
  }
}

export function txHash(rng: Rng, code: NetworkCode): string {
  return code === 'ethereum' ? `0x${rng.chars(ALPHABET.hex, 64)}` : rng.chars(ALPHABET.hex, 64);
}
