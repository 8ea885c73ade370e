/**
 * The bot's core as a fault test runs it, in this process or in a child: the approval engine over
 * the durable file stores in a data folder, and the real exchange client signed with a private key
 * against a sandbox URL, both built by test/support/bot.ts. What the test wants to watch or break is
 * injected (loggers, port wrappers).
 */
import type { EngineConfigInput } from '../../../src/bot/engine/engine-config.js';
import { createEngine, type Engine } from '../../../src/bot/engine/engine.js';
import { createRandomIds } from '../../../src/bot/engine/ids.js';
import type { AuditLog, KeyValueStore, Repository } from '../../../src/bot/ports/store.js';
import type { Clock } from '../../../src/bot/ports/clock.js';
import type { Logger } from '../../../src/bot/ports/logger.js';
import type { Notifier } from '../../../src/bot/ports/notifier.js';
import type { ExchangeApi } from '../../../src/bot/exchange/wire-api.js';
import { createExchangePort } from '../../../src/bot/exchange/adapter/index.js';
import { createPolicy } from '../../../src/bot/domain/policy.js';
import type { RequestRecord } from '../../../src/bot/domain/record.js';
import { systemClock, type ExchangeClientOptions } from '../../../src/bot/exchange/client.js';
import type { DurableAuditLog } from '../../../src/bot/store/audit-log.js';
import type { DurableKeyValueStore } from '../../../src/bot/store/kv.js';
import type { DurableRepository } from '../../../src/bot/store/repository.js';
import { testClient } from '../../support/bot-exchange.js';
import { fileStores } from '../../support/bot-stores.js';

export const DESK_PEOPLE = { requester: 'U0REQ0001', approvers: ['U0APP0001', 'U0APP0002', 'U0APP0003'] } as const;

export interface FaultBotOptions {
  dataDir: string;
  sandboxUrl: string;
  /** Hex or PEM, as DESK_PRIVATE_KEY would hold it. */
  privateKey: string;
  clock?: Clock;
  engineConfig?: EngineConfigInput;
  client?: Pick<ExchangeClientOptions, 'timeoutMs' | 'retry' | 'rateLimit' | 'logger' | 'fetch'>;
  logger?: Logger;
  /** Store recoveries (lock takeovers, torn lines). */
  warn?: (message: string) => void;
  notifier?: Notifier;
  /** Secrets the audit log must redact wherever they appear. */
  redact?: string[];
  /** Wrap a port before the engine gets it (kill switches, counters). */
  wrap?: {
    exchange?: (api: ExchangeApi) => ExchangeApi;
    requests?: (port: Repository<RequestRecord>) => Repository<RequestRecord>;
    kv?: (port: KeyValueStore) => KeyValueStore;
    audit?: (port: AuditLog) => AuditLog;
  };
}

export interface FaultBot {
  engine: Engine;
  /** The client (the engine gets the port over it, wrapped as asked). */
  exchange: ExchangeApi;
  requests: DurableRepository<RequestRecord>;
  kv: DurableKeyValueStore;
  audit: DurableAuditLog;
  /** Waits for what the engine has under way, then closes the stores (releasing their locks). */
  close(): Promise<void>;
}

/** Opens the stores in `dataDir`, builds the client and the engine, and runs recovery (engine.start). */
export async function openFaultBot(o: FaultBotOptions): Promise<FaultBot> {
  const clock = o.clock ?? systemClock;
  const stores = await fileStores(clock, {
    dir: o.dataDir,
    warn: o.warn ?? (() => {}),
    ...(o.redact ? { redact: o.redact } : {}),
  });
  const { requests, kv, audit } = stores;
  const exchange = testClient(o.sandboxUrl, o.privateKey, {
    clock,
    retry: { baseDelayMs: 5, maxDelayMs: 50 },
    timeoutMs: 3_000,
    ...o.client,
  });
  const w = o.wrap ?? {};
  const engine = createEngine({
    exchange: createExchangePort(w.exchange ? w.exchange(exchange) : exchange),
    requests: w.requests ? w.requests(requests) : requests,
    kv: w.kv ? w.kv(kv) : kv,
    audit: w.audit ? w.audit(audit) : audit,
    notifier: o.notifier ?? { notify: () => {} },
    clock,
    ids: createRandomIds(),
    policy: createPolicy({ requesters: [DESK_PEOPLE.requester], approvers: DESK_PEOPLE.approvers }),
    ...(o.engineConfig ? { config: o.engineConfig } : {}),
    ...(o.logger ? { logger: o.logger } : {}),
  });
  await engine.start();
  return {
    engine,
    exchange,
    requests,
    kv,
    audit,
    async close() {
      await engine.idle().catch(() => undefined);
      await stores.close();
    },
  };
}
