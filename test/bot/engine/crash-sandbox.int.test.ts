/**
 * Crash tests on the real pieces: the engine on the durable store (files in a temporary folder),
 * the exchange client over real HTTP, and the sandbox with its "commit, then drop the connection"
 * fault on every money-moving call. For each persisted step k (request writes and KV writes), a
 * fresh request is driven until the engine is stopped right after its k-th write; the stores are
 * closed and reopened on the same files, a new engine starts (recovery) and ticks until the request
 * settles. Every time: the sandbox executed it exactly once, and the record tracks that execution.
 */
import type { ExchangeApi } from '../../../src/bot/exchange/wire-api.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/bot/engine/engine.js';
import type { Clock } from '../../../src/bot/ports/clock.js';
import type { ExchangePort } from '../../../src/bot/ports/exchange-port.js';
import type { KeyValueStore } from '../../../src/bot/ports/store.js';
import type { RequestInput } from '../../../src/bot/engine/approval/make-request.js';
import { SequentialIds } from '../../support/sequential-ids.js';
import { createPolicy } from '../../../src/bot/domain/policy.js';
import type { RequestRecord } from '../../../src/bot/domain/record.js';
import type { Sandbox } from '../../../src/stand-ins/sandbox/server.js';
import { createLogger } from '../../../src/bot/runtime/logger.js';
import { openStores, type Stores } from '../../../src/bot/runtime/stores.js';
import { startTestExchange } from '../../support/bot.js';
import { collect } from '../../../src/bot/engine/bounded-lists.js';
import { Crashed, crashingRepository, guard } from './support/world.js';

let sandbox: Sandbox;
let exchange: ExchangePort;
let api: ExchangeApi;
let clock: Clock;
let dir: string;
const ids = new SequentialIds('C');
const policy = createPolicy({ requesters: ['U_REQ'], approvers: ['U_A1', 'U_A2'] });

beforeAll(async () => {
  ({ sandbox, exchange, api, clock } = await startTestExchange({ seed: 'engine-crash' }));
  dir = mkdtempSync(join(tmpdir(), 'engine-crash-'));
});
afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** One process's life: the stores opened on the files, an engine, and a kill switch counting persisted writes. */
class Process {
  dead = false;
  engine!: Engine;
  #stores!: Stores;

  constructor(public writesLeft = Number.POSITIVE_INFINITY) {}

  async start(): Promise<this> {
    // Opened as the running bot opens them (src/bot/runtime/stores.ts).
    this.#stores = await openStores(dir, clock, [], createLogger({ level: 'error', secrets: [] }));
    const alive = () => {
      if (this.dead) throw new Crashed();
    };
    this.engine = createEngine({
      exchange: guard(exchange, alive),
      requests: crashingRepository(this.#stores.requests, this),
      kv: this.#killableKv(this.#stores.kv),
      audit: guard(this.#stores.audit, alive),
      notifier: { notify: () => {} },
      clock,
      ids,
      policy,
      // Each life is a new process with a new replica id: the one after a crash waits for the dead
      // one's lease to run out (4 s here, two of settle()'s ticks), then takes it over by looking.
      config: {
        firstLookAfterMs: 2_000,
        unknownSettleWindowMs: 10_000,
        leaseTtlMs: 4_000,
        leaseRenewMs: 2_000,
        poll: { intervalMs: 1_000 },
      },
      logger: { info: () => {}, warn: () => {}, error: () => {} },
    });
    await this.engine.start();
    return this;
  }

  /** Waits for what the dead (or live) engine still had under way, then releases the files. */
  async stop(): Promise<void> {
    await this.engine.idle().catch(() => undefined);
    await this.#stores.close();
  }

  #step(): void {
    if (--this.writesLeft <= 0) {
      this.dead = true;
      throw new Crashed();
    }
  }

  #killableKv(inner: KeyValueStore): KeyValueStore {
    return {
      get: async (key) => {
        if (this.dead) throw new Crashed();
        return inner.get(key);
      },
      set: async (key, value) => {
        if (this.dead) throw new Crashed();
        await inner.set(key, value);
        this.#step();
      },
      setIfAbsent: async (key, value) => {
        if (this.dead) throw new Crashed();
        const stored = await inner.setIfAbsent(key, value);
        this.#step();
        return stored;
      },
      deleteIf: async (key, expected) => {
        if (this.dead) throw new Crashed();
        const deleted = await inner.deleteIf(key, expected);
        this.#step();
        return deleted;
      },
    };
  }
}

/** Request, two approvals, a few ticks: whatever the process manages before it dies. */
async function drive(process: Process, input: RequestInput): Promise<string | undefined> {
  let id: string | undefined;
  try {
    const created = await process.engine.request('U_REQ', input);
    if (!created.ok) throw new Error(`request refused: ${created.message}`);
    id = created.request.id;
    await process.engine.approve(id, 'U_A1', created.request.snapshotHash);
    const last = await process.engine.approve(id, 'U_A2', created.request.snapshotHash);
    if (last.ok) await last.execution;
    await settle(process, id);
  } catch (err) {
    if (!(err instanceof Crashed)) throw err;
  }
  return id;
}

/**
 * Ticks with the exchange's time moving until the request has left the in-doubt states: long
 * enough for a dead life's lease to run out and, when the approvers' quote died meanwhile and
 * every order's answer is dropped, for the order to be proven absent (its quote dead past the
 * clock skew allowed, 60 s) and placed again on a new quote.
 */
async function settle(process: Process, id: string): Promise<RequestRecord | undefined> {
  for (let i = 0; i < 45; i++) {
    sandbox.control.advance(2_000);
    await process.engine.tick();
    await process.engine.idle();
    const r = await process.engine.get(id);
    if (r && !['approved', 'executing', 'unknown'].includes(r.state)) return r;
  }
  return process.engine.get(id);
}

async function crashTrials(
  kind: string,
  input: (trial: number) => RequestInput,
  executions: (trialInput: RequestInput, record: RequestRecord) => string[],
) {
  const outcomes: string[] = [];
  for (let k = 1; ; k++) {
    const trialInput = input(k);
    const before = await new Process(k).start();
    const idBefore = await drive(before, trialInput);
    const crashed = before.dead;
    await before.stop();
    const after = await new Process().start();
    // A crash before the request was even stored: nothing to find, nothing executed.
    const id = idBefore ?? (await after.engine.listLive()).find((r) => r.state === 'pending')?.id;
    let record: RequestRecord | undefined;
    if (id !== undefined) {
      record = await after.engine.get(id);
      if (record && ['pending'].includes(record.state)) {
        await after.engine.approve(id, 'U_A1', record.snapshotHash);
        const last = await after.engine.approve(id, 'U_A2', record.snapshotHash);
        if (last.ok) await last.execution;
      }
      record = await settle(after, id);
      // A withdrawal that never reached the exchange is not sent again on the bot's own: a person decides.
      if (record?.state === 'unknown' && record.execution?.inDoubt?.question?.kind === 'not_found') {
        const decided = await after.engine.settle(id, 'U_A1', {
          action: 'send_again',
          checked: 'Not in the exchange history.',
        });
        expect(decided.ok).toBe(true);
        await after.engine.idle();
        record = await settle(after, id);
      }
    }
    await after.stop();
    const found = record ? executions(trialInput, record) : [];
    outcomes.push(
      `${kind} crash after write ${k}: ${crashed ? 'crashed' : 'ran through'}, ${record?.state}, executed ${found.length}x`,
    );
    if (process.env.CRASH_TRIALS_VERBOSE) console.log(outcomes.at(-1));
    expect(found, `${kind} crash after write ${k}`).toHaveLength(record ? 1 : 0);
    if (record) {
      expect(['submitted', 'completed'], `${kind} crash after write ${k}`).toContain(record.state);
      expect(record.execution?.exchangeId).toBe(found[0]);
    }
    if (!crashed) break;
  }
  return outcomes;
}

describe('crash at every persisted step, against the sandbox dropping the connection after commit', () => {
  it('crypto withdrawal: executed exactly once whatever the step the process died at', async () => {
    const book = await collect(api.listAddressBook({ pageSize: 100 }));
    const entries = await api.listCryptoCurrencies();
    const target = book.find(
      (a) =>
        a.status === 'verified' &&
        a.wallet_identity &&
        !(a.withdrawal_cooldown_until && a.withdrawal_cooldown_until > sandbox.clock.now()),
    )!;
    const entry = entries.find(
      (e) => target.crypto_currency_networks.some((n) => n.uuid === e.network_id) && e.precision !== undefined,
    )!;
    sandbox.control.setFaults([{ kind: 'drop_after_commit', method: 'POST', path: '/crypto/withdrawals' }]);
    const amount = (k: number) => `0.00${100 + k}`;
    const outcomes = await crashTrials(
      'withdrawal',
      (k) => ({ kind: 'crypto_withdrawal', cryptoCurrencyId: entry.id, addressBookId: target.id, amount: amount(k) }),
      (_input, record) =>
        sandbox.control
          .withdrawals()
          .filter((w) => record.snapshot.kind === 'crypto_withdrawal' && w.amount === record.snapshot.amount)
          .map((w) => w.id),
    );
    expect(outcomes.length).toBeGreaterThanOrEqual(6);
    sandbox.control.clearFaults();
  });

  it('trade: one order per request whatever the step the process died at', async () => {
    sandbox.control.setFaults([{ kind: 'drop_after_commit', method: 'POST', path: '/orders' }]);
    const quantity = (k: number) => `0.00${100 + k}`;
    const outcomes = await crashTrials(
      'trade',
      (k) => ({
        kind: 'trade',
        symbol: 'BTC-USD',
        side: 'buy',
        quantity: quantity(k),
        quantityCurrency: 'BTC',
        paymentMethod: 'user_balance',
        limit: { slippageBps: 500 },
      }),
      (_input, record) => {
        const keys = new Set(record.execution?.attempts.map((a) => a.key));
        return sandbox.control
          .orders()
          .filter((o) => o.client_order_id && keys.has(o.client_order_id))
          .map((o) => String(o.id));
      },
    );
    expect(outcomes.length).toBeGreaterThanOrEqual(6);
    sandbox.control.clearFaults();
  });
});
