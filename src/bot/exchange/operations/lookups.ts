/** Lookups named by the workflow guides, plus the unauthenticated spot price. */
import { z } from 'zod';
import { pagedList, type CursorListOptions } from '../pagination.js';
import {
  addressBookAddress,
  cryptoCurrencyEntry,
  network,
  spotPrice,
  type AddressBookAddress,
  type CryptoCurrencyEntry,
  type Network,
  type SpotPrice,
} from '../schemas.js';
import type { Call } from '../transport.js';

const networks = z.array(network);
const currencies = z.array(cryptoCurrencyEntry);
const addresses = z.array(addressBookAddress);

/** Lookups and the public spot price, over one bound transport. */
export function lookupOperations(call: Call) {
  return {
    /** GET /crypto_currency_networks. */
    async listNetworks(): Promise<Network[]> {
      return (
        await call({ operation: 'listNetworks', method: 'GET', path: '/crypto_currency_networks', response: networks })
      ).data;
    },

    /** GET /crypto_currencies: one entry per asset and network, with the numeric id withdrawals need. */
    async listCryptoCurrencies(): Promise<CryptoCurrencyEntry[]> {
      return (
        await call({
          operation: 'listCryptoCurrencies',
          method: 'GET',
          path: '/crypto_currencies',
          response: currencies,
        })
      ).data;
    },

    /** GET /address_book/addresses, cursor-paged through X-Next-Page. */
    listAddressBook(opts?: CursorListOptions): AsyncGenerator<AddressBookAddress, void, undefined> {
      return pagedList(
        call,
        { operation: 'listAddressBook', path: '/address_book/addresses', response: addresses, paging: 'cursor' },
        opts,
      );
    },

    /** GET /price/spots without any authentication headers (api-facts.md "Paths"). */
    async getSpotPrice(base: string, counter: string): Promise<SpotPrice> {
      const res = await call({
        operation: 'getSpotPrice',
        method: 'GET',
        path: '/price/spots',
        query: { base_currency: base, counter_currency: counter },
        response: spotPrice,
        auth: false,
      });
      return res.data;
    },
  };
}
