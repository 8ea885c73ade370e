/**
 * The compliance use cases on real pieces: the sandbox exchange over HTTP on loopback with the real
 * client (test/support/bot.ts; manual clock: only advance() moves it, so injected deposits can share
 * a millisecond), and the file stores in a temporary folder that can be closed and reopened (a restart).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../../../../src/bot/ports/clock.js';
import type { Logger } from '../../../../../src/bot/ports/logger.js';
import type {
  ComplianceEvent,
  DeclarationDone,
  DepositChanges,
  OutboxEvent,
} from '../../../../../src/bot/ports/events.js';
import type { ComplianceNotices, ComplianceNotifier, Notifier } from '../../../../../src/bot/ports/notifier.js';
import type { Outbox } from '../../../../../src/bot/ports/store.js';
import { NoticeQueue } from '../../../../../src/bot/engine/notices/notice-queue.js';
import { LeadershipState } from '../../../../../src/bot/ports/leadership.js';
import { memoryRepository } from '../../../../../src/bot/store/memory.js';
import { isFinishedRequest } from '../../../../../src/bot/domain/record.js';
import type { RequestRecord } from '../../../../../src/bot/domain/record.js';
import { createPolicy, type Policy } from '../../../../../src/bot/domain/policy.js';
import type { ExchangeClient } from '../../../../../src/bot/exchange/client.js';
import type { Deposit, ExchangePort } from '../../../../../src/bot/ports/exchange-port.js';
import type { Sandbox } from '../../../../../src/stand-ins/sandbox/index.js';
import { AUDIT_FILE_NAME, openAuditLog, type DurableAuditLog } from '../../../../../src/bot/store/audit-log.js';
import { openKeyValueStore, type DurableKeyValueStore } from '../../../../../src/bot/store/kv.js';
import { startTestExchange } from '../../../../support/bot.js';

/** A fixed exchange start time, so seeded deposit times are the same on every run. */
export const T0 = Date.UTC(2025, 2, 3, 9, 0, 0);

export const USERS = {
  compliance: 'U0CMP0001',
  compliance2: 'U0CMP0002',
  approver1: 'U0APP0001',
  approver2: 'U0APP0002',
  outsider: 'U0OUT0001',
} as const;

export function testPolicy(): Policy {
  return createPolicy({
    requesters: ['U0REQ0001'],
    approvers: [USERS.approver1, USERS.approver2],
    compliance: [USERS.compliance, USERS.compliance2],
  });
}

export type NotifierCall =
  | { kind: 'seen'; deposit: Deposit }
  | { kind: 'changed'; deposit: Deposit; changes: DepositChanges }
  | { kind: 'declared'; done: DeclarationDone };

/** Records every call; `failNext(n)` makes the next n calls throw (Slack down). */
export class RecordingNotifier implements ComplianceNotifier {
  readonly calls: NotifierCall[] = [];
  #failures = 0;

  failNext(n: number): void {
    this.#failures = n;
  }

  #maybeFail(): void {
    if (this.#failures > 0) {
      this.#failures--;
      throw new Error('notifier unavailable');
    }
  }

  notify(event: ComplianceEvent): void {
    this.#maybeFail();
    if (event.type === 'deposit.seen') this.calls.push({ kind: 'seen', deposit: event.deposit });
    else if (event.type === 'deposit.changed')
      this.calls.push({ kind: 'changed', deposit: event.deposit, changes: event.changes });
    else this.calls.push({ kind: 'declared', done: event.done });
  }

  seen(): Deposit[] {
    return this.calls.flatMap((c) => (c.kind === 'seen' ? [c.deposit] : []));
  }

  changed(): Extract<NotifierCall, { kind: 'changed' }>[] {
    return this.calls.filter((c): c is Extract<NotifierCall, { kind: 'changed' }> => c.kind === 'changed');
  }

  declared(): DeclarationDone[] {
    return this.calls.flatMap((c) => (c.kind === 'declared' ? [c.done] : []));
  }
}

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  message: string;
  data?: Record<string, unknown>;
}

export function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const log = (level: LogLine['level']) => (message: string, data?: Record<string, unknown>) =>
    void lines.push({ level, message, ...(data ? { data } : {}) });
  return { lines, info: log('info'), warn: log('warn'), error: log('error') };
}

export interface AuditLine {
  seq: number;
  type: string;
  actor: string;
  data?: Record<string, any>;
}

export interface World {
  sandbox: Sandbox;
  /** The engine's port over `api`. */
  exchange: ExchangePort;
  /** The client itself. */
  api: ExchangeClient;
  /** The exchange's clock, which the use cases read too. */
  clock: Clock;
  dir: string;
  kv: DurableKeyValueStore;
  audit: DurableAuditLog;
  logger: ReturnType<typeof recordingLogger>;
  /** Close and reopen both stores on the same files (what a restart does). */
  restart(): Promise<void>;
  auditLines(): AuditLine[];
  /** POSTs to the counterparty operation the sandbox received, any status. */
  counterpartyPosts(): number;
  close(): Promise<void>;
}

export async function startWorld(seed = 'compliance'): Promise<World> {
  const {
    sandbox,
    client: api,
    exchange,
  } = await startTestExchange({ seed, startMs: T0, client: { timeoutMs: 2_000 } });
  const clock: Clock = { now: () => sandbox.clock.now(), sleep: async () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'compliance-'));
  const open = async () => ({
    kv: await openKeyValueStore({ dir }),
    audit: await openAuditLog({ file: join(dir, AUDIT_FILE_NAME), clock }),
  });
  const stores = await open();
  const world: World = {
    sandbox,
    exchange,
    api,
    clock,
    dir,
    kv: stores.kv,
    audit: stores.audit,
    logger: recordingLogger(),
    async restart() {
      await world.kv.close();
      await world.audit.close();
      const again = await open();
      world.kv = again.kv;
      world.audit = again.audit;
    },
    auditLines() {
      return readFileSync(join(dir, AUDIT_FILE_NAME), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as AuditLine);
    },
    counterpartyPosts() {
      return sandbox.control.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/counterparty_info'))
        .length;
    },
    async close() {
      await world.kv.close();
      await world.audit.close();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return world;
}

/** The desk's outbox (in memory: it outlives world.restart()), delivered to `notifier` by the engine's notice queue. */
export interface DeskOutbox {
  notices: ComplianceNotices;
  outbox: Outbox;
  /** Resolves once what was handed over had its delivery pass. */
  delivered(): Promise<void>;
  /** A new process's queue over the same outbox: it tries everything waiting at once. */
  restart(): Promise<void>;
}

export function deskOutbox(world: World, notifier: Notifier<OutboxEvent>): DeskOutbox {
  const { outbox } = memoryRepository<RequestRecord>(isFinishedRequest);
  const queue = () => new NoticeQueue(outbox, notifier, world.clock, world.logger, new LeadershipState('leader'));
  let current = queue();
  return {
    notices: { append: (events) => current.append(events) },
    outbox,
    delivered: () => current.drained(),
    async restart() {
      current = queue();
      await current.delivery.resume();
    },
  };
}
