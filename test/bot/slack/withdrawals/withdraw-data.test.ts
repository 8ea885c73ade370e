/** The withdrawal forms' data: the exchange's records mapped to the options the modals show. */
import {
  balance,
  currencyEntry,
  fiatTerms,
  savedAddress,
  savedBankAccount,
} from '../../../../src/bot/exchange/adapter/lookup-records.js';
import { describe, expect, it } from 'vitest';
import type { AddressBookAddress, Balance, CryptoCurrencyEntry } from '../../../../src/bot/exchange/schemas.js';
import { cryptoFormData, fiatFormData } from '../../../../src/bot/slack/withdrawals/withdraw-data.js';

const NOW = Date.UTC(2024, 4, 1, 12);

describe('withdrawal form data', () => {
  const NET_A = '11111111-1111-4111-8111-111111111111';
  const NET_B = '22222222-2222-4222-8222-222222222222';
  const entries: CryptoCurrencyEntry[] = [
    {
      id: 1,
      name: 'Bitcoin',
      code: 'BTC',
      precision: 8,
      network: { uuid: NET_A, name: 'Bitcoin' },
      asset: { symbol: 'BTC' },
      network_id: NET_A,
      withdrawal_fee: '0.0005',
    },
    {
      id: 2,
      name: 'No precision',
      code: 'XYZ',
      network: { uuid: NET_B, name: 'B' },
      asset: {},
      network_id: NET_B,
      withdrawal_fee: '1',
    },
  ];
  const addresses: AddressBookAddress[] = [
    {
      id: 'aaaaaaaa-0000-4000-8000-000000000001',
      label: 'A',
      address: 'addr-a',
      status: 'verified',
      crypto_currency_networks: [{ uuid: NET_A }],
      withdrawal_cooldown_until: NOW,
    },
    {
      id: 'aaaaaaaa-0000-4000-8000-000000000002',
      label: 'B',
      address: 'addr-b',
      status: 'VERIFIED',
      crypto_currency_networks: [{ uuid: NET_B }],
    },
  ];
  const balances: Balance[] = [
    { currency: 'btc', regular: '2', locked: '0', locked_balance: { orders: '1', alternative_products: '0' } },
  ];

  it('keeps entries with a precision, matches destinations by network and takes the available balance', () => {
    const data = cryptoFormData(entries.map(currencyEntry), balances.map(balance), addresses.map(savedAddress));
    expect(data.entries).toEqual([
      { id: 1, asset: 'BTC', network: 'Bitcoin', precision: 8, fee: '0.0005', available: '2' },
    ]);
    expect(data.destinations[1]).toEqual([
      { id: addresses[0]!.id, label: 'A', address: 'addr-a', addressTag: null, verified: true, cooldownUntil: NOW },
    ]);
  });

  it('offers a fiat currency only with both a limit and a fee row', () => {
    const data = fiatFormData(
      fiatTerms(
        [{ currency: 'SGD', fee: '5', asset: { id: 1, name: 'SGD', symbol: 'SGD', asset_type: 'fiat' } }],
        [
          { currency: 'SGD', minimum_withdrawal_amount: '100', maximum_withdrawal_amount: '1000' },
          { currency: 'USD', minimum_withdrawal_amount: '100', maximum_withdrawal_amount: '1000' },
        ],
      ),
      [],
      [
        { id: 1, currency: 'SGD', account_number: '111122223333', beneficiary_name: 'Desk' },
        { id: 2, currency: 'USD', account_number: '999988887777', beneficiary_name: 'Desk' },
      ].map(savedBankAccount),
    );
    expect(data.currencies.map((c) => c.currency)).toEqual(['SGD']);
    expect(data.banks.SGD?.map((b) => b.id)).toEqual([1]);
    expect(data.currencies[0]?.available).toBe('0');
  });
});
