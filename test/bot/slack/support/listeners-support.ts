/** Fixtures for listeners.int.test.ts: a harness whose exchange knows a few wallets. */
import type { KnownWallet } from '../../../../src/bot/exchange/schemas.js';
import { deferred, fakeExchange, startHarness, type Harness } from './harness.js';

export { deferred } from './harness.js';
export { appHomeOpened } from './signed-requests.js';

const WALLETS: KnownWallet[] = [
  { id: '0f8fad5b-d9cb-469f-a165-70867728950e', type: 'hosted', name: 'Binance', risk_level: 'low' },
  { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', type: 'private', name: 'Bina <Private>' },
];

export function fakeExchangeAndHarness() {
  const wallets: { lastQuery: string | undefined; hold: ReturnType<typeof deferred<KnownWallet[]>> | undefined } = {
    lastQuery: undefined,
    hold: undefined,
  };
  const exchange = fakeExchange({
    listKnownWallets: async (q) => {
      wallets.lastQuery = q?.name;
      if (wallets.hold) return wallets.hold.promise;
      return WALLETS;
    },
  });
  // Wallet search waits at most OPTIONS_DEADLINE_MS of this clock: a fast fake keeps the test short.
  const clock = {
    now: () => Date.now(),
    sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, Math.min(ms, 100))),
  };
  return { wallets, start: (): Promise<Harness> => startHarness({ exchange, clock }) };
}
