// Exchange-wide reference data (assets, networks, currency entries, pairs, wallets, fiat rules). Numbers the
// README quotes are fixed here; uuids come from the seed.
import type { Rng } from './prng.js';
import type { PairSpec } from './prices.js';
import type { Asset, CurrencyEntry, FiatRule, KnownWalletRecord, NetworkRecord } from './state.js';

export const ASSETS: readonly Asset[] = [
  {
    id: 1,
    name: 'Bitcoin',
    symbol: 'BTC',
    icon_url: 'https://sandbox.invalid/icons/btc.svg',
    asset_type: 'crypto',
    precision: 8,
  },
  {
    id: 2,
    name: 'Ethereum',
    symbol: 'ETH',
    icon_url: 'https://sandbox.invalid/icons/eth.svg',
    asset_type: 'crypto',
    precision: 8,
  },
  {
    id: 3,
    name: 'Tether',
    symbol: 'USDT',
    icon_url: 'https://sandbox.invalid/icons/usdt.svg',
    asset_type: 'crypto',
    precision: 6,
  },
  { id: 4, name: 'USD Coin', symbol: 'USDC', icon_url: null, asset_type: 'crypto', precision: 6 },
  { id: 10, name: 'US Dollar', symbol: 'USD', icon_url: null, asset_type: 'fiat', precision: 2 },
  { id: 11, name: 'Singapore Dollar', symbol: 'SGD', icon_url: null, asset_type: 'fiat', precision: 2 },
];

const NETWORK_DEFS = [
  { name: 'Bitcoin', network_code: 'bitcoin', explorer: 'https://mempool.space/tx/' },
  { name: 'Ethereum (ERC20)', network_code: 'ethereum', explorer: 'https://etherscan.io/tx/' },
  { name: 'Tron (TRC20)', network_code: 'tron', explorer: 'https://tronscan.org/#/transaction/' },
] as const;
export type NetworkCode = (typeof NETWORK_DEFS)[number]['network_code'];

export function makeNetworks(rng: Rng): NetworkRecord[] {
  return NETWORK_DEFS.map((n) => ({ uuid: rng.uuid(), ...n }));
}

/** USDT exists twice (ERC20, TRC20) with its own ids, fees and precisions, as the reference warns: the id names the network. */
interface EntryDef {
  id: number;
  name: string;
  code: string;
  asset: string;
  network: NetworkCode;
  precision: number;
  fee: string;
  min: string;
  minSell: string;
}

const ENTRY_DEFS: readonly EntryDef[] = [
  {
    id: 101,
    name: 'Bitcoin',
    code: 'BTC',
    asset: 'BTC',
    network: 'bitcoin',
    precision: 8,
    fee: '0.0002',
    min: '0.0005',
    minSell: '0.00001',
  },
  {
    id: 102,
    name: 'Ethereum',
    code: 'ETH',
    asset: 'ETH',
    network: 'ethereum',
    precision: 8,
    fee: '0.003',
    min: '0.01',
    minSell: '0.0001',
  },
  {
    id: 103,
    name: 'Tether (ERC20)',
    code: 'USDT',
    asset: 'USDT',
    network: 'ethereum',
    precision: 6,
    fee: '6',
    min: '20',
    minSell: '1',
  },
  {
    id: 104,
    name: 'Tether (TRC20)',
    code: 'USDT',
    asset: 'USDT',
    network: 'tron',
    precision: 2,
    fee: '1',
    min: '10',
    minSell: '1',
  },
  {
    id: 105,
    name: 'USD Coin (ERC20)',
    code: 'USDC',
    asset: 'USDC',
    network: 'ethereum',
    precision: 6,
    fee: '5',
    min: '20',
    minSell: '1',
  },
];

export function makeCurrencies(networks: readonly NetworkRecord[]): CurrencyEntry[] {
  return ENTRY_DEFS.map((e) => {
    const net = networks.find((n) => n.network_code === e.network)!;
    return {
      id: e.id,
      name: e.name,
      code: e.code,
      assetSymbol: e.asset,
      networkUuid: net.uuid,
      precision: e.precision,
      withdrawal_fee: e.fee,
      minimum_withdrawal: e.min,
      minimum_sell: e.minSell,
      has_address_tag: false,
    };
  });
}

export const PAIRS: readonly PairSpec[] = [
  {
    symbol: 'BTC-USD',
    base: 'BTC',
    counter: 'USD',
    start: '65000',
    pricePrecision: 2,
    volatilityBps: 5,
    spreadBps: 10,
  },
  { symbol: 'ETH-USD', base: 'ETH', counter: 'USD', start: '3200', pricePrecision: 2, volatilityBps: 6, spreadBps: 10 },
  {
    symbol: 'BTC-SGD',
    base: 'BTC',
    counter: 'SGD',
    start: '88000',
    pricePrecision: 2,
    volatilityBps: 5,
    spreadBps: 12,
  },
  { symbol: 'ETH-SGD', base: 'ETH', counter: 'SGD', start: '4300', pricePrecision: 2, volatilityBps: 6, spreadBps: 12 },
  { symbol: 'USDT-USD', base: 'USDT', counter: 'USD', start: '1', pricePrecision: 4, volatilityBps: 1, spreadBps: 5 },
  {
    symbol: 'USDT-SGD',
    base: 'USDT',
    counter: 'SGD',
    start: '1.35',
    pricePrecision: 4,
    volatilityBps: 2,
    spreadBps: 8,
  },
  { symbol: 'USDC-USD', base: 'USDC', counter: 'USD', start: '1', pricePrecision: 4, volatilityBps: 1, spreadBps: 5 },
  {
    symbol: 'BTC-USDT',
    base: 'BTC',
    counter: 'USDT',
    start: '65000',
    pricePrecision: 2,
    volatilityBps: 5,
    spreadBps: 8,
  },
  {
    symbol: 'ETH-USDT',
    base: 'ETH',
    counter: 'USDT',
    start: '3200',
    pricePrecision: 2,
    volatilityBps: 6,
    spreadBps: 8,
  },
];

const WALLET_DEFS: readonly Omit<KnownWalletRecord, 'id'>[] = [
  { type: 'hosted', name: 'Binance', risk_level: 'low' },
  { type: 'hosted', name: 'Coinbase', risk_level: 'low' },
  { type: 'hosted', name: 'Kraken', risk_level: 'low' },
  { type: 'hosted', name: 'Gemini', risk_level: 'low' },
  { type: 'hosted', name: 'OKX', risk_level: 'medium' },
  { type: 'hosted', name: 'Bybit', risk_level: 'medium' },
  { type: 'hosted', name: 'KuCoin', risk_level: 'medium' },
  { type: 'hosted', name: 'Bitfinex', risk_level: 'medium' },
  { type: 'hosted', name: 'HTX (Huobi)', risk_level: 'high' },
  { type: 'private', name: 'Ledger', risk_level: 'low' },
  { type: 'private', name: 'MetaMask', risk_level: 'medium' },
  { type: 'private', name: 'Trust Wallet' },
];

export function makeWallets(rng: Rng): KnownWalletRecord[] {
  return WALLET_DEFS.map((w) => ({ id: rng.uuid(), ...w }));
}

/** Fiat withdrawal limits and fees, one row per enabled currency. */
export const FIAT_RULES: readonly FiatRule[] = [
  { currency: 'USD', minimum: '50', maximum: '250000', fee: '25' },
  { currency: 'SGD', minimum: '50', maximum: '300000', fee: '5' },
];
