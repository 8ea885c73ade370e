/** A client wired for nock tests: fixed key, fake clock, pinned jitter, no rate cap unless asked. */
import nock from 'nock';
import { afterEach, beforeAll } from 'vitest';
import { createExchangeClient, type ExchangeClientOptions } from '../../../../src/bot/exchange/client.js';
import { parsePrivateKey, createSigner } from '../../../../src/bot/exchange/signer.js';
import { fakeClock, type FakeClock } from './clock.js';
import { expectedApiKey, nodePublicKey, TEST_PRIVATE_KEY_HEX } from './keys.js';
import { createRecorder, ORIGIN, type Recorder } from './signed-mock.js';

export { API, DROP, ORIGIN } from './signed-mock.js';

export const TEST_API_KEY = expectedApiKey(TEST_PRIVATE_KEY_HEX);

export interface Harness {
  client: ReturnType<typeof createExchangeClient>;
  clock: FakeClock;
  rec: Recorder;
  scope: nock.Scope;
}

/** A fresh client, recorder and nock scope for ORIGIN. */
export function harness(overrides: Partial<ExchangeClientOptions> = {}): Harness {
  const clock = fakeClock();
  const signer = createSigner(parsePrivateKey(TEST_PRIVATE_KEY_HEX));
  const client = createExchangeClient({
    baseUrl: ORIGIN,
    signer,
    clock,
    rateLimit: false,
    retry: { random: () => 0.5 },
    ...overrides,
  });
  const rec = createRecorder(nodePublicKey(TEST_PRIVATE_KEY_HEX), TEST_API_KEY);
  const scope = nock(ORIGIN);
  rec.watch(scope);
  return { client, clock, rec, scope };
}

/** No real network in these tests, and no interceptor left over between them. */
export function useNock(): void {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    if (pending.length > 0) throw new Error(`nock interceptors not used: ${pending.join(', ')}`);
  });
}
