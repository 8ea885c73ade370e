/**
 * Exchange faults on every route the engine uses: 5xx, 429 with Retry-After, hangs (the client's
 * timeout, short here), truncated JSON and answers that break the schema. For each route and each
 * fault, four requests (crypto withdrawal, fiat withdrawal, trade, bank account removal) go
 * through the real engine and the real client against the sandbox while the fault is on all the
 * time; then the fault is lifted and the engine carries on.
 *
 * Expected: nothing throws out of the engine; while the fault lasts every request ends in a state
 * that says what happened (submitted or completed, failed with a plain reason, unknown with the
 * error that made it so, or never created and the requester told why); once the exchange is well
 * again every request still open is executed, each at most once on the exchange, and none is lost.
 *
 * The routes come from a clean run of the same requests (the access log), so a route the engine
 * starts using later is covered without editing this file.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineConfigInput } from '../../src/bot/engine/engine-config.js';
import type { Engine } from '../../src/bot/engine/engine.js';
import { REQUEST_RECORD_SCHEMA } from '../../src/bot/domain/record-schema.js';
import { cmp } from '../../src/bot/domain/money.js';
import type { RequestRecord } from '../../src/bot/domain/record.js';
import { createExchangeClient } from '../../src/bot/exchange/client.js';
import { createSigner, parsePrivateKey } from '../../src/bot/exchange/signer.js';
import { createSandboxClock, startSandbox, type FaultRule, type Sandbox } from '../../src/stand-ins/sandbox/index.js';
import type { memoryRepository } from '../../src/bot/store/memory.js';
import { DESK_PEOPLE } from './support/desk.js';
import { requestPlan, memoryEngine } from './support/memory-desk.js';
import { makeFaultKey } from './support/keys.js';
import { advancePlan, findTagged, type PlanItem } from './support/plan.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const key = makeFaultKey();
const FAULT_KINDS = ['error', 'rate_limit', 'hang', 'malformed_json', 'schema_break'] as const;
type Kind = (typeof FAULT_KINDS)[number];
/** Short, so a hang costs little; generous enough that a loaded machine does not time out a healthy call. */
const CLIENT_TIMEOUT_MS = 150;
const TICK_MS = 60_000;
/** Long enough for the pre-execution checks to give up (3 tries, 30 s apart) and sends to go unknown. */
const FAULTY_TICKS = 6;
const RECOVERY_TICKS = 10;

/** Every delay is a fraction of the configured one, so the whole matrix fits in a few seconds of exchange time per tick. */
const ENGINE_CONFIG: EngineConfigInput = {
  firstLookAfterMs: 5_000,
  unreadableLookIntervalMs: 20_000,
  unknownSettleWindowMs: 4 * 60_000,
  checkRetryMs: 30_000,
  maxCheckFailures: 3,
  poll: { intervalMs: 10_000, maxIntervalMs: 60_000 },
};

interface World {
  sandbox: Sandbox;
  engine: Engine;
  requests: ReturnType<typeof memoryRepository<RequestRecord>>;
  plan: PlanItem[];
  /** Sleeps the client asked for between read retries (Retry-After shows here). */
  clientSleeps: number[];
  /** Refusals the requester got at creation, by tag. */
  refusals: Map<string, string[]>;
  errors: string[];
}

const sandboxes: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
});

async function makeWorld(): Promise<World> {
  // One time line for the exchange, its signature check, the client and the engine, as in production
  // (where all read the system clock), so the exchange's Date header measures a true offset.
  const exchangeClock = createSandboxClock({ startMs: T0, followRealTime: false });
  const sandbox = await startSandbox({
    seed: 'exchange-faults',
    clock: exchangeClock,
    authNow: () => exchangeClock.now(),
    keys: [{ publicKeyHex: key.publicKeyHex, scopes: ['read', 'transfer', 'trade'] }],
  });
  sandboxes.push(sandbox);
  const clientSleeps: number[] = [];
  const exchange = createExchangeClient({
    baseUrl: sandbox.url,
    signer: createSigner(parsePrivateKey(key.hex)),
    // Waits are recorded, then cut short.
    clock: {
      now: () => exchangeClock.now(),
      sleep: (ms) => (clientSleeps.push(ms), new Promise((r) => setTimeout(r, Math.min(ms, 2)))),
    },
    timeoutMs: CLIENT_TIMEOUT_MS,
    rateLimit: false,
    retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
  });
  const errors: string[] = [];
  const clock = { now: () => sandbox.clock.now(), sleep: async () => {} };
  const logger = {
    info: () => {},
    warn: () => {},
    error: (m: string, d?: Record<string, unknown>) => void errors.push(`${m} ${JSON.stringify(d ?? {})}`),
  };
  const { engine, requests } = memoryEngine({ exchange, clock, config: ENGINE_CONFIG, logger });
  await engine.start();
  const plan = requestPlan(sandbox, ['crypto', 'fiat', 'trade', 'removal']);
  return { sandbox, engine, requests, plan, clientSleeps, refusals: new Map(), errors };
}

/** Requests, approvals and ticks, the exchange's time moving a minute per tick. */
async function drive(world: World, ticks: number): Promise<void> {
  for (let i = 0; i < ticks; i++) {
    await advancePlan(world.engine, world.plan, (tag, message) =>
      world.refusals.set(tag, [...(world.refusals.get(tag) ?? []), message]),
    );
    await world.engine.tick();
    await world.engine.idle();
    world.sandbox.control.advance(TICK_MS);
  }
}

/** An approver who checked the exchange sends again what waits for a person as "not found". True if any did. */
async function settleByPerson(world: World): Promise<boolean> {
  let decided = false;
  for (const item of world.plan) {
    const record = await findTagged(world.engine, item.tag);
    if (record?.execution?.inDoubt?.question?.kind !== 'not_found') continue;
    const result = await world.engine.settle(record.id, DESK_PEOPLE.approvers[0], {
      action: 'send_again',
      checked: 'Not in the exchange history.',
    });
    if (!result.ok) throw new Error(`${item.tag}: decision refused: ${result.message}`);
    decided = true;
  }
  await world.engine.idle();
  return decided;
}

/** A sentence for people: not empty, no stack trace, no object dump. */
function isPlain(text: string | null | undefined): boolean {
  return (
    typeof text === 'string' &&
    text.trim().length > 0 &&
    text.length < 600 &&
    !/\n\s+at |\[object |undefined|\{"/.test(text)
  );
}

/** What the exchange executed for a request: withdrawals and orders it created, a bank account it removed. */
function executions(world: World, item: PlanItem): string[] {
  const account = world.sandbox.state.accounts.get('main')!;
  const input = item.input;
  switch (input.kind) {
    case 'crypto_withdrawal':
      return account.withdrawals
        .filter((w) => w.created_at >= T0 && cmp(w.amount, input.amount) === 0)
        .map((w) => w.id);
    case 'fiat_withdrawal':
      return account.fiatWithdrawals
        .filter((w) => w.created_at >= T0 && cmp(w.amount, input.amount) === 0)
        .map((w) => String(w.id));
    case 'trade':
      // The only trade of the world: every order on the account is one of its executions.
      return account.orders.map((o) => String(o.id));
    case 'bank_account_removal':
      return account.bankAccounts.some((b) => b.id === input.bankAccountId) ? [] : [String(input.bankAccountId)];
  }
}

/** While the fault lasts: each request says what happened. */
function explainedProblems(world: World, record: RequestRecord | undefined, item: PlanItem): string[] {
  if (record === undefined) {
    const told = world.refusals.get(item.tag) ?? [];
    return told.length > 0 && told.every(isPlain)
      ? []
      : [`${item.tag}: never created, and no plain refusal (${JSON.stringify(told)})`];
  }
  switch (record.state) {
    case 'submitted':
    case 'completed':
      return record.execution?.exchangeId || record.kind === 'bank_account_removal'
        ? []
        : [`${item.tag}: ${record.state} without an exchange id`];
    case 'failed':
      return isPlain(record.failure?.reason)
        ? []
        : [`${item.tag}: failed without a plain reason (${record.failure?.reason})`];
    case 'unknown':
      return isPlain(record.execution?.attempts.at(-1)?.message)
        ? []
        : [`${item.tag}: unknown without the error that made it so`];
    default:
      return [`${item.tag}: left ${record.state} while the fault lasted, saying nothing`];
  }
}

interface Route {
  method: string;
  path: string;
}

/** The API routes a clean run uses, with ids replaced by parameters (the fault patterns' syntax). */
function routesOf(sandbox: Sandbox): Route[] {
  const seen = new Map<string, Route>();
  for (const entry of sandbox.control.requests()) {
    if (!entry.path.startsWith('/public_api/v1/')) continue;
    const path = entry.path
      .slice('/public_api/v1'.length)
      .split('/')
      .map((seg) => (/^[0-9a-f-]{36}$/i.test(seg) || /^\d+$/.test(seg) ? ':id' : seg))
      .join('/');
    seen.set(`${entry.method} ${path}`, { method: entry.method, path });
  }
  return [...seen.values()].sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

function ruleFor(kind: Kind, route: Route): FaultRule {
  const base = { kind, method: route.method, path: route.path } as const;
  if (kind === 'error') return { ...base, status: 503 };
  if (kind === 'rate_limit') return { ...base, retryAfterSeconds: 1 };
  return base;
}

async function scenario(kind: Kind, route: Route): Promise<string[]> {
  const world = await makeWorld();
  const problems: string[] = [];
  world.sandbox.control.setFaults([ruleFor(kind, route)]);
  try {
    await drive(world, FAULTY_TICKS);
    const hits = world.sandbox.control.requests().filter((r) => r.fault === kind).length;
    if (hits === 0) problems.push('the fault never fired');
    for (const item of world.plan)
      problems.push(...explainedProblems(world, await findTagged(world.engine, item.tag), item));
    if (kind === 'rate_limit' && route.method === 'GET' && !world.clientSleeps.includes(1_000))
      problems.push('Retry-After: 1 was not honoured on a read');

    world.sandbox.control.clearFaults();
    await drive(world, RECOVERY_TICKS);
    // A withdrawal the exchange never showed is sent again only when an approver decides it.
    if (await settleByPerson(world)) await drive(world, RECOVERY_TICKS);
    for (const item of world.plan) {
      const record = await findTagged(world.engine, item.tag);
      const done = executions(world, item);
      if (record === undefined) problems.push(`${item.tag}: lost (never created after recovery)`);
      else if (record.state === 'completed' || record.state === 'submitted') {
        if (done.length !== 1) problems.push(`${item.tag}: ${record.state} but executed ${done.length} times`);
      } else if (record.state === 'failed') {
        if (done.length > 0 && record.failure?.stage !== 'final_status')
          problems.push(`${item.tag}: failed (${record.failure?.reason}) but executed ${done.length} times`);
      } else problems.push(`${item.tag}: still ${record.state} after the exchange recovered`);
      if (record !== undefined && !REQUEST_RECORD_SCHEMA.safeParse(record).success)
        problems.push(`${item.tag}: record breaks its schema`);
    }
  } catch (err) {
    problems.push(`engine threw: ${(err as Error).stack ?? String(err)}`);
  }
  problems.push(...world.errors.map((e) => `engine logged an error: ${e}`));
  await world.sandbox.close();
  return problems.map((p) => `${kind} on ${route.method} ${route.path}: ${p}`);
}

describe('exchange faults on every route the engine uses', () => {
  let routes: Route[] = [];

  it('a clean run executes all four requests and shows which routes the engine uses', async () => {
    const world = await makeWorld();
    await drive(world, RECOVERY_TICKS);
    for (const item of world.plan) {
      const record = await findTagged(world.engine, item.tag);
      expect(record?.state, item.tag).toBe('completed');
      expect(executions(world, item), item.tag).toHaveLength(1);
    }
    routes = routesOf(world.sandbox);
    // Creation reads, pre-execution checks, the four writes, and the polling lists at least.
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'POST /crypto/withdrawals',
        'POST /fiat/withdrawals',
        'POST /order_quotes',
        'POST /orders',
        'DELETE /bank_accounts/:id',
        'GET /crypto/withdrawals',
        'GET /orders',
        'GET /fiat/withdrawals',
        'GET /accounts/balances',
      ]),
    );
  });

  for (const kind of FAULT_KINDS) {
    it(`${kind} on each route: nothing crashes, every request says what happened, then executes at most once and none is lost`, async () => {
      expect(routes.length).toBeGreaterThan(8);
      const problems: string[] = [];
      let next = 0;
      const worker = async () => {
        while (next < routes.length) {
          const route = routes[next++]!;
          const t = performance.now();
          problems.push(...(await scenario(kind, route)));
          if (process.env.FAULTS_VERBOSE)
            console.log(`${kind} ${route.method} ${route.path}: ${Math.round(performance.now() - t)} ms`);
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      expect(problems).toEqual([]);
    }, 30_000);
  }
});
