/**
 * The engine on in-memory stores against a sandbox, and the desk's plan of requests on the
 * sandbox's seeded account: what the in-process fault trials (exchange faults, late commits) share.
 */
import type { EngineConfigInput } from '../../../src/bot/engine/engine-config.js';
import { createEngine, type Engine } from '../../../src/bot/engine/engine.js';
import { createRandomIds } from '../../../src/bot/engine/ids.js';
import type { Clock } from '../../../src/bot/ports/clock.js';
import type { Logger } from '../../../src/bot/ports/logger.js';
import type { ExchangeApi } from '../../../src/bot/exchange/wire-api.js';
import { createExchangePort } from '../../../src/bot/exchange/adapter/index.js';
import { createPolicy } from '../../../src/bot/domain/policy.js';
import type { RequestRecord } from '../../../src/bot/domain/record.js';
import type { Sandbox } from '../../../src/stand-ins/sandbox/index.js';
import type { MemoryAuditLog, MemoryRepository } from '../../../src/bot/store/memory.js';
import { memoryStores } from '../../support/bot-stores.js';
import { DESK_PEOPLE } from './desk.js';
import { withTag, type PlanItem } from './plan.js';

/** `exchange`: the client; the engine gets the port over it. */
export function memoryEngine(o: { exchange: ExchangeApi; clock: Clock; config: EngineConfigInput; logger?: Logger }): {
  engine: Engine;
  requests: MemoryRepository<RequestRecord>;
  audit: MemoryAuditLog;
} {
  const { requests, kv, audit } = memoryStores(o.clock);
  const engine = createEngine({
    exchange: createExchangePort(o.exchange),
    requests,
    kv,
    audit,
    notifier: { notify: () => {} },
    clock: o.clock,
    ids: createRandomIds(),
    policy: createPolicy({ requesters: [DESK_PEOPLE.requester], approvers: DESK_PEOPLE.approvers }),
    config: o.config,
    logger: o.logger ?? { info: () => {}, warn: () => {}, error: () => {} },
  });
  return { engine, requests, audit };
}

export type PlanKind = 'crypto' | 'fiat' | 'trade' | 'removal';

/** One request of each kind asked for, on the sandbox's seeded account, tagged by kind. */
export function requestPlan(sandbox: Sandbox, kinds: readonly PlanKind[]): PlanItem[] {
  const account = sandbox.state.accounts.get('main')!;
  const address = account.addressBook.find((a) => a.label === 'OTC partner (TRC20)')!;
  const usd = account.bankAccounts.find((b) => b.currency === 'USD')!;
  const unverifiedSgd = account.bankAccounts.find((b) => b.currency === 'SGD' && !b.verified)!;
  const all: Record<PlanKind, PlanItem> = {
    crypto: withTag('crypto', {
      kind: 'crypto_withdrawal',
      cryptoCurrencyId: 104,
      addressBookId: address.id,
      amount: '123.45',
    }),
    fiat: withTag('fiat', { kind: 'fiat_withdrawal', currency: 'USD', bankAccountId: usd.id, amount: '1500.5' }),
    trade: withTag('trade', {
      kind: 'trade',
      symbol: 'BTC-USD',
      side: 'buy',
      quantity: '0.015',
      quantityCurrency: 'BTC',
      paymentMethod: 'user_balance',
      limit: { slippageBps: 1000 },
    }),
    removal: withTag('removal', { kind: 'bank_account_removal', bankAccountId: unverifiedSgd.id }),
  };
  return kinds.map((k) => all[k]);
}
