/**
 * An engine over in-memory ports and the fake exchange, with what a test needs around it: the
 * events it emitted, a restart on the same stores, and a crash switch that stops the "process"
 * right after its n-th persisted write (every port call after that throws, as if it had died).
 */
import { createEngine, type Engine } from '../../../../src/bot/engine/engine.js';
import type { EngineConfigInput } from '../../../../src/bot/engine/engine-config.js';
import type { RequestEvent } from '../../../../src/bot/ports/events.js';
import type { Logger } from '../../../../src/bot/ports/logger.js';
import type { Repository } from '../../../../src/bot/ports/store.js';
import { createExchangePort } from '../../../../src/bot/exchange/adapter/index.js';
import type { ExchangeApi } from '../../../../src/bot/exchange/wire-api.js';
import { FakeClock } from '../../../support/fake-clock.js';
import { SequentialIds } from '../../../support/sequential-ids.js';
import { createPolicy, type Policy, type PolicyInput } from '../../../../src/bot/domain/policy.js';
import { isFinishedRequest, type RequestRecord } from '../../../../src/bot/domain/record.js';
import {
  memoryAuditLog,
  memoryKv,
  memoryRepository,
  type MemoryAuditLog,
  type MemoryKeyValueStore,
  type MemoryRepository,
} from '../../../../src/bot/store/memory.js';
import { FakeExchange } from './fake-exchange.js';

export const REQUESTER = 'U_REQ';
export const APPROVERS = ['U_A1', 'U_A2', 'U_A3'] as const;
export const OUTSIDER = 'U_OUT';

export class Crashed extends Error {
  override name = 'Crashed';
}

export interface WorldOptions {
  config?: EngineConfigInput;
  policy?: Partial<PolicyInput>;
}

export class World {
  readonly clock = new FakeClock();
  readonly ids = new SequentialIds();
  readonly exchange = new FakeExchange(this.clock);
  readonly requests: MemoryRepository<RequestRecord> = memoryRepository<RequestRecord>(isFinishedRequest);
  readonly kv: MemoryKeyValueStore = memoryKv();
  readonly audit: MemoryAuditLog = memoryAuditLog({ clock: this.clock });
  readonly events: (RequestEvent & { generation: number })[] = [];
  /**
   * Every generation is this one replica restarted in place: the dead generation's port calls all
   * throw, so its lease stands for nothing and the next one resumes at once. (A real restart gets a
   * new identity and waits for the dead one's lease to run out: test/bot/engine/execution-lease.int.test.ts.)
   */
  readonly replica = 'world-replica';
  readonly logs: { level: string; message: string; data?: Record<string, unknown> }[] = [];
  policy: Policy;
  engine: Engine;
  generation = 0;
  #life = { dead: false, writesLeft: Number.POSITIVE_INFINITY };
  #api: ExchangeApi | undefined;

  constructor(private readonly options: WorldOptions = {}) {
    this.policy = createPolicy({
      requesters: [REQUESTER, 'U_A1'],
      approvers: APPROVERS,
      compliance: ['U_C'],
      ...options.policy,
    });
    this.engine = this.#build();
  }

  /** The engine's exchange from now on (the sandbox's client: sandbox-requests.ts), in place of the FakeExchange; a new engine, not started. */
  useExchange(api: ExchangeApi): Engine {
    this.#api = api;
    this.engine = this.#build();
    return this.engine;
  }

  /** A new engine on the same stores and exchange, as after a process restart; runs recovery. */
  async restart(policy?: Partial<PolicyInput>): Promise<Engine> {
    if (policy)
      this.policy = createPolicy({
        requesters: [REQUESTER, 'U_A1'],
        approvers: APPROVERS,
        compliance: ['U_C'],
        ...this.options.policy,
        ...policy,
      });
    this.#life.dead = true;
    this.generation++;
    this.#life = { dead: false, writesLeft: Number.POSITIVE_INFINITY };
    this.engine = this.#build();
    await this.engine.start();
    return this.engine;
  }

  /** The current engine dies right after its `n`-th persisted write from now (n >= 1). */
  crashAfterWrites(n: number): void {
    this.#life.writesLeft = n;
  }

  get crashed(): boolean {
    return this.#life.dead;
  }

  eventsOf(type: RequestEvent['type'], requestId?: string): RequestEvent[] {
    return this.events.filter((e) => e.type === type && (requestId === undefined || e.requestId === requestId));
  }

  auditOf(type: string, requestId?: string) {
    return this.audit.entries.filter((e) => e.type === type && (requestId === undefined || e.requestId === requestId));
  }

  async record(id: string): Promise<RequestRecord> {
    const r = await this.requests.get(id);
    if (!r) throw new Error(`no request ${id}`);
    return r;
  }

  /** Moves the clock, ticks, and waits for what the tick started. */
  async advanceAndTick(ms: number): Promise<void> {
    this.clock.advance(ms);
    await this.engine.tick();
    await this.engine.idle();
  }

  #build(): Engine {
    const life = this.#life;
    const generation = this.generation;
    const alive = () => {
      if (life.dead) throw new Crashed('process is dead');
    };
    const logger: Logger = {
      info: (message, data) => this.logs.push({ level: 'info', message, ...(data ? { data } : {}) }),
      warn: (message, data) => this.logs.push({ level: 'warn', message, ...(data ? { data } : {}) }),
      error: (message, data) => this.logs.push({ level: 'error', message, ...(data ? { data } : {}) }),
    };
    return createEngine({
      exchange: createExchangePort(guard(this.#api ?? this.exchange, alive)),
      requests: crashingRepository(this.requests, life),
      kv: guard(this.kv, alive),
      audit: guard(this.audit, alive),
      notifier: { notify: (event: RequestEvent) => void (!life.dead && this.events.push({ ...event, generation })) },
      clock: this.clock,
      ids: this.ids,
      policy: this.policy,
      config: this.options.config,
      logger,
      replica: this.replica,
    });
  }
}

/** `target` with every method refusing once the process is dead (`alive` throws). */
export function guard<T extends object>(target: T, alive: () => void): T {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        alive();
        return (value as (...a: unknown[]) => unknown).apply(obj, args);
      };
    },
  });
}

/** A repository that kills the process (`life.dead`) right after its `writesLeft`-th persisted write. */
export function crashingRepository(
  inner: Repository<RequestRecord>,
  life: { dead: boolean; writesLeft: number },
): Repository<RequestRecord> {
  const alive = () => {
    if (life.dead) throw new Crashed('process is dead');
  };
  return {
    get: async (id) => (alive(), inner.get(id)),
    listLive: async () => (alive(), inner.listLive()),
    recentHistory: async (n) => (alive(), inner.recentHistory(n)),
    // Outbox changes are writes too, but the crash points count the records' writes (events ride on those).
    outbox: guard(inner.outbox, alive),
    mutateInScope: (scope, id, fn) =>
      countWrites(life, alive, (counted) => inner.mutateInScope(scope, id, (c, others) => counted(fn(c, others)))),
    mutate: (id, fn) => countWrites(life, alive, (counted) => inner.mutate(id, (current) => counted(fn(current)))),
  };
}

/** Runs a write, then kills the process if it was the `writesLeft`-th persisted one. */
async function countWrites<T>(
  life: { dead: boolean; writesLeft: number },
  alive: () => void,
  write: (counted: <M extends { next?: unknown }>(m: M) => M) => Promise<T>,
): Promise<T> {
  alive();
  let wrote = false;
  const result = await write((m) => {
    wrote = m.next !== undefined;
    return m;
  });
  if (wrote && --life.writesLeft <= 0) {
    life.dead = true;
    throw new Crashed('crashed right after a persisted write');
  }
  alive();
  return result;
}
