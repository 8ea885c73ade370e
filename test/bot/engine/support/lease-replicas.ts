/**
 * Several replicas of the engine over one set of stores and one sandbox exchange on loopback (the
 * real client, real HTTP), each with its own identity, leadership, locks and clock, for the tests
 * of the execution lease. Time is one FakeClock that the sandbox's clock follows; a replica given
 * `frozen` has a clock stopped at its start whose timers never fire (a process stopped dead: it
 * renews nothing, and whatever comes back to it later it sees at that time).
 * A replica's sends can be held after the exchange committed them (`holdSends`): the answer is on
 * its way back, and the test decides when (or whether) it arrives.
 */
import { createEngine, type Engine } from '../../../../src/bot/engine/engine.js';
import type { EngineConfigInput } from '../../../../src/bot/engine/engine-config.js';
import { LeadershipState } from '../../../../src/bot/ports/leadership.js';
import type { AuditLog, KeyValueStore, Repository } from '../../../../src/bot/ports/store.js';
import type { Clock } from '../../../../src/bot/ports/clock.js';
import type { ExchangePort } from '../../../../src/bot/ports/exchange-port.js';
import type { Logger } from '../../../../src/bot/ports/logger.js';
import { FakeClock } from '../../../support/fake-clock.js';
import { SequentialIds } from '../../../support/sequential-ids.js';
import type { RequestInput } from '../../../../src/bot/engine/approval/make-request.js';
import { createPolicy, type Policy } from '../../../../src/bot/domain/policy.js';
import type { RequestRecord } from '../../../../src/bot/domain/record.js';
import type { Sandbox } from '../../../../src/stand-ins/sandbox/server.js';
import { startTestExchange } from '../../../support/bot.js';
import { usableDestination } from './sandbox-requests.js';
import { T0 } from '../../../stand-ins/sandbox/support/sandbox.js';

export interface LeaseStores {
  requests: Repository<RequestRecord>;
  kv: KeyValueStore;
  audit: AuditLog;
}

export interface ReplicaOptions {
  role?: 'leader' | 'follower';
  /** Its clock stands still from its start and its timers never fire: no lease renewal, no run loop (a process stopped dead). */
  frozen?: boolean;
  exchange?: (port: ExchangePort) => ExchangePort;
  requests?: (inner: Repository<RequestRecord>) => Repository<RequestRecord>;
  /** Its own stores (another pool on the same database); default: the world's. */
  stores?: LeaseStores;
}

export interface LeaseReplica {
  name: string;
  engine: Engine;
  leadership: LeadershipState;
  logs: { level: string; message: string; data?: Record<string, unknown> }[];
}

export interface LeaseWorld {
  clock: FakeClock;
  sandbox: Sandbox;
  port: ExchangePort;
  replica(name: string, options?: ReplicaOptions): LeaseReplica;
  /** A crypto withdrawal of `amount` to the seeded verified destination. */
  withdrawal(amount: string): RequestInput;
  /** Made and approved on `on` (a follower leaves it `approved` for the leader); the last approval's execution is not awaited. */
  approve(on: LeaseReplica, amount: string): Promise<RequestRecord>;
  /** Moves time (the engines' and the exchange's) and lets the woken timers run. */
  advance(ms: number): Promise<void>;
  /** The sandbox's POSTs of crypto withdrawals and its reads of them (lists and single ones) so far. */
  withdrawalCalls(): { posts: number; reads: number };
  close(): Promise<void>;
}

export const POLICY = createPolicy({ requesters: ['U_REQ'], approvers: ['U_A1', 'U_A2'] });

export async function startLeaseWorld(o: {
  seed: string;
  stores: LeaseStores;
  config?: EngineConfigInput;
  /** Default POLICY. */
  policy?: Policy;
}): Promise<LeaseWorld> {
  const clock = new FakeClock(T0);
  const {
    sandbox,
    client: api,
    exchange: port,
  } = await startTestExchange({ seed: o.seed, startMs: clock.now(), followRealTime: true, wallNow: () => clock.now() });
  const { address: destination, entry } = await usableDestination(api, clock.now());
  const ids = new SequentialIds('L');
  const withdrawal = (amount: string): RequestInput => ({
    kind: 'crypto_withdrawal',
    cryptoCurrencyId: entry.id,
    addressBookId: destination.id,
    amount,
  });

  const replica = (name: string, r: ReplicaOptions = {}): LeaseReplica => {
    const logs: LeaseReplica['logs'] = [];
    const log =
      (level: string) =>
      (message: string, data?: Record<string, unknown>): void =>
        void logs.push({ level, message, ...(data ? { data } : {}) });
    const logger: Logger = { info: log('info'), warn: log('warn'), error: log('error') };
    const stores = r.stores ?? o.stores;
    const leadership = new LeadershipState(r.role ?? 'leader');
    const engine = createEngine({
      exchange: r.exchange ? r.exchange(port) : port,
      requests: r.requests ? r.requests(stores.requests) : stores.requests,
      kv: stores.kv,
      audit: stores.audit,
      notifier: { notify: () => {} },
      clock: r.frozen ? frozenAt(clock.now()) : clock,
      ids,
      policy: o.policy ?? POLICY,
      config: o.config ?? {},
      logger,
      leadership,
      replica: name,
    });
    return { name, engine, leadership, logs };
  };

  return {
    clock,
    sandbox,
    port,
    replica,
    withdrawal,
    async approve(on, amount) {
      const made = await on.engine.request('U_REQ', withdrawal(amount));
      if (!made.ok) throw new Error(`refused: ${made.message}`);
      await on.engine.approve(made.request.id, 'U_A1', made.request.snapshotHash);
      const last = await on.engine.approve(made.request.id, 'U_A2', made.request.snapshotHash);
      if (!last.ok) throw new Error(`refused: ${last.message}`);
      void last.execution?.catch(() => undefined);
      return last.request;
    },
    async advance(ms) {
      clock.advance(ms);
      await new Promise((resolve) => setTimeout(resolve, 20));
    },
    withdrawalCalls() {
      const calls = sandbox.control.requests().filter((c) => c.path.includes('/crypto/withdrawals'));
      return {
        posts: calls.filter((c) => c.method === 'POST').length,
        reads: calls.filter((c) => c.method === 'GET').length,
      };
    },
    close: () => sandbox.close(),
  };
}

/**
 * The port with its crypto withdrawals held after the exchange answered: `committed` resolves once
 * an answer is in hand, `release()` lets it (and every later one) through.
 */
export function holdSends(port: ExchangePort): { port: ExchangePort; committed: Promise<void>; release(): void } {
  let answered!: () => void;
  const committed = new Promise<void>((resolve) => (answered = resolve));
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    port: {
      ...port,
      withdrawCrypto: async (w, requestId) => {
        const view = await port.withdrawCrypto(w, requestId);
        answered();
        await gate;
        return view;
      },
    },
    committed,
    release,
  };
}

/** A clock stopped at `at`: its sleeps never end. */
function frozenAt(at: number): Clock {
  return { now: () => at, sleep: () => new Promise<void>(() => {}) };
}
