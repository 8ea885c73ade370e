/** Valid response items, field by field from api-reference.md; tests break them one field at a time. */

export const balanceBTC = {
  currency: 'BTC',
  regular: '1.50000000',
  locked: '0.25',
  locked_balance: { orders: '0.20', alternative_products: '0.05' },
};

export const bankAccountItem = {
  id: 17,
  currency: 'SGD',
  account_number: '123-456-789',
  beneficiary_name: 'Desk Pte Ltd',
  last_used_at: 1_699_000_000_000,
  verified: true,
  bank: { name: 'DBS', swift_code: 'DBSSSGSG', bic_code: null, branch_name: null, branch_code: null, address: null },
};

const cryptoCurrency = {
  id: 42,
  name: 'Bitcoin',
  code: 'BTC',
  precision: 8,
  network: { uuid: '0b7e9a52-8a3c-4b8e-9d51-0e4f1c2b3a4d', name: 'Bitcoin', network_code: 'BTC' },
  asset: { id: 1, name: 'Bitcoin', symbol: 'BTC', icon_url: null, asset_type: 'crypto' },
  some_future_field: 'kept',
};

const addressBookRef = {
  id: '5d0c6a1e-1f2b-4c3d-8e9f-0a1b2c3d4e5f',
  label: 'Cold wallet',
  address: 'bc1qexampleaddress',
  status: 'verified',
  crypto_currency_networks: [{ uuid: '0b7e9a52-8a3c-4b8e-9d51-0e4f1c2b3a4d', name: 'Bitcoin', network_code: 'BTC' }],
};

export const withdrawalId = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

/** Create/get form: address, total_amount, fee, transaction_hash required. */
export const cryptoWithdrawalFull = {
  id: withdrawalId,
  address: 'bc1qexampleaddress',
  amount: '0.10000000',
  total_amount: '0.10010000',
  created_at: 1_700_000_000_000,
  fee: '0.0001',
  status: 'pending',
  transaction_hash: null,
  crypto_currency: cryptoCurrency,
  address_book_address: addressBookRef,
  invoice_downloadable: false,
  transaction: { uuid: '1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5' },
};

/** List form: only the list's required fields. */
export const cryptoWithdrawalItem = {
  id: withdrawalId,
  amount: '0.10000000',
  created_at: 1_700_000_000_000,
  status: 'completed',
  crypto_currency: cryptoCurrency,
  address_book_address: addressBookRef,
  invoice_downloadable: true,
  transaction: { uuid: '1c2d3e4f-5a6b-4c7d-8e9f-a0b1c2d3e4f5' },
};

export const cryptoDepositItem = {
  id: '2b3c4d5e-6f70-4182-93a4-b5c6d7e8f901',
  created_at: 1_700_000_000_000,
  status: 'completed',
  amount: '2.5',
  invoice_downloadable: false,
  transaction: { uuid: '3c4d5e6f-7081-4293-a4b5-c6d7e8f90112' },
  crypto_currency: { id: 42, name: 'Bitcoin', code: 'BTC' },
};

export const knownWalletItem = {
  id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
  type: 'hosted',
  name: 'Binance',
  risk_level: 'low',
};

export const fiatFeeItem = {
  currency: 'SGD',
  fee: '5.00',
  asset: { id: 9, name: 'Singapore Dollar', symbol: 'SGD', asset_type: 'fiat' },
};
export const fiatLimitItem = { currency: 'SGD', minimum_withdrawal_amount: '50', maximum_withdrawal_amount: '200000' };

export const fiatWithdrawalCreated = {
  id: 501,
  currency: 'SGD',
  amount: '1000.00',
  status: 'pending',
  bank_reference: null,
  withdrawal_fee: '5.00',
  created_at: 1_700_000_000_000,
  invoice_downloadable: false,
  transaction: null,
};

export const fiatDepositItem = {
  id: 77,
  currency: 'SGD',
  amount: '2500.00',
  status: 'completed',
  created_at: '2024-01-02T03:04:05Z',
};

export const networkItem = { uuid: '0b7e9a52-8a3c-4b8e-9d51-0e4f1c2b3a4d', name: 'Bitcoin', network_code: 'BTC' };

export const cryptoCurrencyEntryItem = {
  ...cryptoCurrency,
  network_id: '0b7e9a52-8a3c-4b8e-9d51-0e4f1c2b3a4d',
  withdrawal_fee: '0.0001',
};

export const addressBookItem = { ...addressBookRef, withdrawal_cooldown_until: null, wallet_identity: null };

export const quoteCreated = { quote_id: 'q-123', locked_price: '64000.12', expires_at: 1_700_000_002_500 };

export const orderItem = {
  id: 'o-1',
  status: 'Completed',
  client_order_id: 'c0ffee00-0000-4000-8000-000000000001',
  price: '64000.12',
  execution_type: 'rfq',
  created_at: 1_700_000_000_100,
};

/** `n` distinct copies of an item, ids made unique by `idOf`. */
export function many<T extends object>(item: T, n: number, idOf: (i: number) => Partial<T>): T[] {
  return Array.from({ length: n }, (_, i) => ({ ...item, ...idOf(i) }));
}
