/**
 * The engine's exchange in tests that need one only to answer (a request's destination looked up,
 * its withdrawal sent): the sandbox through the real client (test/support/bot.ts), its clock
 * following the test's FakeClock, and a crypto request to one of its usable seeded destinations.
 */
import type { RequestInput } from '../../../../src/bot/engine/approval/make-request.js';
import { collect } from '../../../../src/bot/engine/bounded-lists.js';
import type { ExchangeApi } from '../../../../src/bot/exchange/wire-api.js';
import type { FakeClock } from '../../../support/fake-clock.js';
import { startTestExchange, type TestExchange } from '../../../support/bot.js';
import { World, type WorldOptions } from './world.js';

export interface SandboxForEngine extends TestExchange {
  /** A crypto withdrawal to a verified destination out of its cooldown, with a note and a purpose. */
  cryptoInput: (amount?: string) => RequestInput;
  /** Requests the sandbox received: reads and creations of crypto withdrawals. */
  withdrawalCalls(): { posts: number; reads: number };
}

export async function sandboxForEngine(seed: string, clock: FakeClock): Promise<SandboxForEngine> {
  const exchange = await startTestExchange({
    seed,
    startMs: clock.now(),
    followRealTime: true,
    wallNow: () => clock.now(),
  });
  const { address, entry } = await usableDestination(exchange.client, clock.now(), 'USDT');
  return {
    ...exchange,
    cryptoInput: (amount = '250.123456') => ({
      kind: 'crypto_withdrawal',
      cryptoCurrencyId: entry.id,
      addressBookId: address.id,
      amount,
      note: 'OTC settlement <!channel>',
      purpose: 'settlement',
    }),
    withdrawalCalls() {
      const calls = exchange.sandbox.control.requests().filter((c) => c.path.includes('/crypto/withdrawals'));
      return {
        posts: calls.filter((c) => c.method === 'POST').length,
        reads: calls.filter((c) => c.method === 'GET').length,
      };
    },
  };
}

/**
 * A saved address that is verified, names its wallet, and is out of its cooldown at `now`, and the
 * currency entry of its network (of `asset` when given).
 */
export async function usableDestination(api: ExchangeApi, now: number, asset?: string) {
  const book = await collect(api.listAddressBook({ pageSize: 100 }));
  const entries = await api.listCryptoCurrencies();
  for (const address of book) {
    if (
      address.status !== 'verified' ||
      !address.wallet_identity ||
      (address.withdrawal_cooldown_until && address.withdrawal_cooldown_until > now)
    )
      continue;
    const entry = entries.find(
      (e) =>
        address.crypto_currency_networks.some((n) => n.uuid === e.network_id) &&
        (asset === undefined || e.asset.symbol === asset),
    );
    if (entry) return { address, entry };
  }
  throw new Error(`fixture: the sandbox has no usable ${asset ?? ''} destination`);
}

/** A World whose engine uses the sandbox through the real client, on the World's clock; close the sandbox after. */
export async function sandboxWorld(
  seed: string,
  options: WorldOptions = {},
): Promise<{ world: World; sandbox: SandboxForEngine }> {
  const world = new World(options);
  const sandbox = await sandboxForEngine(seed, world.clock);
  world.useExchange(sandbox.api);
  return { world, sandbox };
}
