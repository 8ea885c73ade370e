/**
 * Random interleavings of requests, approvals (duplicated, concurrent, redelivered, stale),
 * rejections, cancellations, time passing (expiries, quote expiry), price moves, exchange faults
 * (refusals, 5xx, timeouts, commit-then-drop) and crashes right after any persisted write with a
 * restart on the same stores. Checked at every commit on the exchange, and at the end:
 *   - never an execution without the required distinct non-requester approvals bound to the
 *     executed snapshot's hash, persisted as `executing` before the call;
 *   - what is executed is exactly the snapshot (a trade: its terms, at a price within the limit);
 *   - never two executions of one request; none forgotten once the faults stop;
 *   - no status change reported twice.
 * The exchange is the sandbox in process: its own rules, faults picked as each request arrives, the
 * commit hook (onCommit) at the moment it commits.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RequestEvent } from '../../../src/bot/ports/events.js';
import { requestRecordSchema } from '../../../src/bot/domain/record-schema.js';
import { approvalsNeeded, countingApprovals } from '../../../src/bot/domain/policy.js';
import type { RequestRecord } from '../../../src/bot/domain/record.js';
import { withinLimit } from '../../../src/bot/domain/request.js';
import { QUOTE_UNUSABLE_MESSAGES } from '../../../src/bot/exchange/assumptions.js';
import type { SandboxCommit } from '../../../src/stand-ins/sandbox/index.js';
import type { EngineExchange, Scripted } from './support/engine-exchange.js';
import { cryptoInput, fiatInput, removalInput, SGD_BANK_UNVERIFIED, tradeInput, USD_BANK } from './support/seeded.js';
import { APPROVERS, OUTSIDER, REQUESTER, type World, worldOnSandbox } from './support/world.js';

const USERS = [REQUESTER, ...APPROVERS, OUTSIDER];
/** Each write's fate: done, or nothing done and no answer / a 5xx / a refusal, or done and no answer / cut / a 5xx. */
const FAULTS: (Scripted | 'ok')[] = [
  'ok',
  'ok',
  'ok',
  { kind: 'hang' },
  { kind: 'hang_after_commit' },
  { kind: 'drop_after_commit' },
  { kind: 'error', status: 502 },
  { kind: 'error_after_commit' },
  { kind: 'error', status: 422, message: 'Insufficient balance' },
  { kind: 'error', status: 422, message: QUOTE_UNUSABLE_MESSAGES.superseded },
];

type Action =
  | { t: 'request'; kind: number; variant: number }
  | { t: 'approve'; req: number; users: number[]; stale: boolean }
  | { t: 'reject'; req: number; user: number; reason: string }
  | { t: 'cancel'; req: number; user: number }
  | { t: 'time'; ms: number }
  | { t: 'price'; price: string }
  | { t: 'crash'; afterWrites: number }
  | { t: 'restart' }
  | { t: 'progress'; req: number; status: string };

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant('request' as const), kind: fc.nat(3), variant: fc.nat(2) }) },
  {
    weight: 8,
    arbitrary: fc.record({
      t: fc.constant('approve' as const),
      req: fc.constantFrom(0, 0, 0, 1, 2),
      // Mostly approvers; the requester and an outsider now and then; duplicates are clicks redelivered.
      users: fc.oneof(
        fc.constant<number[]>([1, 2]),
        fc.constant<number[]>([2, 3, 3]),
        fc.array(fc.constantFrom(1, 2, 3, 0, 4), { minLength: 1, maxLength: 4 }),
      ),
      stale: fc.constantFrom(false, false, false, true),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('reject' as const),
      req: fc.nat(3),
      user: fc.nat(USERS.length - 1),
      reason: fc.constantFrom('', 'wrong address'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant('cancel' as const), req: fc.nat(3), user: fc.nat(USERS.length - 1) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('time' as const),
      ms: fc.constantFrom(100, 3_000, 5_000, 30_000, 16 * 60_000, 25 * 3_600_000),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('price' as const),
      price: fc.constantFrom('59800', '60000', '60250', '60400', '61000'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant('crash' as const), afterWrites: fc.integer({ min: 1, max: 6 }) }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('restart' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('progress' as const),
      req: fc.nat(3),
      status: fc.constantFrom('processing', 'broadcasted', 'completed', 'failed', 'Open', 'Completed', 'Cancelled'),
    }),
  },
);

const scenario = fc.record({
  actions: fc.array(action, { minLength: 4, maxLength: 50, size: 'large' }),
  writeFaults: fc.array(fc.constantFrom(...FAULTS), { maxLength: 30, size: 'medium' }),
  readFaults: fc.array(fc.constantFrom<Scripted | 'ok'>('ok', 'ok', 'ok', 'ok', { kind: 'error', status: 502 }), {
    maxLength: 30,
  }),
});

const inputs = [
  (v: number) => cryptoInput(['250', '99.5', '250'][v]),
  (v: number) => fiatInput(['1000', '250', '1000'][v]),
  (v: number) =>
    tradeInput(v === 1 ? { limit: { price: '60100' } } : v === 2 ? { side: 'sell', limit: { slippageBps: 30 } } : {}),
  (v: number) => removalInput(v === 1 ? USD_BANK : SGD_BANK_UNVERIFIED),
];

/** A write the exchange committed, as the ledger keeps it: the key it was sent with and the record it made. */
interface Commit {
  op: 'deleteBankAccount' | 'create';
  /** request_id, client_order_id, or the bank account's id. */
  key: string;
  exchangeId: string;
  body: Record<string, unknown>;
}

function commitOf(c: SandboxCommit): Commit | undefined {
  if (/\/order_quotes$/.test(c.path)) return undefined;
  const body = (c.body ?? {}) as Record<string, unknown>;
  if (c.method === 'DELETE') {
    const id = c.path.split('/').at(-1)!;
    return { op: 'deleteBankAccount', key: id, exchangeId: id, body };
  }
  const key = String(body.request_id ?? body.client_order_id ?? '');
  return { op: 'create', key, exchangeId: String((c.answer as { id: unknown }).id), body };
}

interface Ledger {
  commitsByRequest: Map<string, Commit[]>;
  violations: string[];
}

/** At the moment the exchange commits: who asked for it, and was it allowed? */
function checkCommit(world: World, exchange: EngineExchange, ledger: Ledger, commit: Commit): void {
  const live = world.requests.dump().live;
  const owner = live.find((r) =>
    commit.op === 'deleteBankAccount'
      ? r.state === 'executing' &&
        r.snapshot.kind === 'bank_account_removal' &&
        String(r.snapshot.bankAccount.id) === commit.key
      : r.execution?.attempts.some((a) => a.key === commit.key),
  );
  if (!owner) return void ledger.violations.push(`commit ${commit.op} ${commit.key} belongs to no request`);
  ledger.commitsByRequest.set(owner.id, [...(ledger.commitsByRequest.get(owner.id) ?? []), commit]);
  if (owner.state !== 'executing')
    ledger.violations.push(`${owner.id}: executed while ${owner.state}, not persisted as executing`);
  const counting = countingApprovals(world.policy, owner);
  if (counting.length !== owner.approvals.length)
    ledger.violations.push(`${owner.id}: stored approvals that do not count`);
  if (counting.length < approvalsNeeded(world.policy, owner))
    ledger.violations.push(`${owner.id}: executed with ${counting.length} approvals`);
  if (counting.some((a) => a.userId === owner.requester || a.snapshotHash !== owner.snapshotHash))
    ledger.violations.push(`${owner.id}: approval not bound`);
  checkBody(exchange, ledger, owner, commit);
}

function checkBody(exchange: EngineExchange, ledger: Ledger, owner: RequestRecord, commit: Commit): void {
  const s = owner.snapshot;
  const body = commit.body;
  const bad = (what: string) => ledger.violations.push(`${owner.id}: executed ${what} differs from the snapshot`);
  if (
    s.kind === 'crypto_withdrawal' &&
    (body.amount !== s.amount ||
      body.address_book_address_id !== s.destination.id ||
      body.crypto_currency_id !== s.cryptoCurrencyId)
  )
    bad('withdrawal');
  if (
    s.kind === 'fiat_withdrawal' &&
    (body.amount !== s.amount || body.bank_account_id !== s.bankAccount.id || body.currency !== s.currency)
  )
    bad('fiat withdrawal');
  if (s.kind === 'trade') {
    const quote = exchange.sandbox.control.quotes().find((q) => q.quote_id === String(body.order_quote_id));
    if (
      !quote ||
      quote.symbol !== s.symbol ||
      quote.side !== s.side ||
      quote.quantity !== s.quantity ||
      quote.payment_method !== s.paymentMethod
    )
      bad('order terms');
    else if (!withinLimit(s.side, quote.locked_price, s.limitPrice))
      ledger.violations.push(`${owner.id}: ordered at ${quote.locked_price} beyond the limit ${s.limitPrice}`);
  }
}

async function play(
  world: World,
  exchange: EngineExchange,
  actions: Action[],
  created: { id: string; hash: string }[],
): Promise<void> {
  for (const a of actions) {
    try {
      await step(world, exchange, a, created);
    } catch (err) {
      if (!(err instanceof Error && err.name === 'Crashed')) throw err;
    }
    if (world.crashed) {
      await world.engine.idle();
      await world.restart();
    }
  }
}

/** A change the exchange may refuse by its rules (never back, never off a final status): then nothing changes. */
function tryControl(change: () => unknown): void {
  try {
    change();
  } catch {
    // Refused by the sandbox's lifecycle rules.
  }
}

async function step(
  world: World,
  exchange: EngineExchange,
  a: Action,
  created: { id: string; hash: string }[],
): Promise<void> {
  const control = exchange.sandbox.control;
  // Counted from the newest request: most actions concern what was just asked.
  const pick = (n: number) => created[created.length - 1 - (n % Math.max(created.length, 1))];
  switch (a.t) {
    case 'request': {
      const r = await world.engine.request(REQUESTER, inputs[a.kind]!(a.variant));
      if (r.ok) created.push({ id: r.request.id, hash: r.request.snapshotHash });
      return;
    }
    case 'approve': {
      const target = pick(a.req);
      if (!target) return;
      const current = (await world.requests.get(target.id))!;
      const hash = a.stale ? target.hash : current.snapshotHash;
      await Promise.all(a.users.map((u) => world.engine.approve(target.id, USERS[u]!, hash)));
      await world.engine.idle();
      return;
    }
    case 'reject': {
      const target = pick(a.req);
      if (target) await world.engine.reject(target.id, USERS[a.user]!, a.reason);
      return;
    }
    case 'cancel': {
      const target = pick(a.req);
      if (target) await world.engine.cancel(target.id, USERS[a.user]!);
      return;
    }
    case 'time':
      return world.advanceAndTick(a.ms);
    case 'price':
      control.setPrice({ symbol: 'BTC-USD', price: a.price });
      return;
    case 'crash':
      world.crashAfterWrites(a.afterWrites);
      return;
    case 'restart':
      await world.engine.idle();
      await world.restart();
      return;
    case 'progress': {
      const target = pick(a.req);
      const r = target && (await world.requests.get(target.id));
      const exchangeId = r?.execution?.exchangeId;
      if (!r || !exchangeId) return;
      if (r.kind === 'crypto_withdrawal' && /^[a-z]/.test(a.status))
        tryControl(() => control.setWithdrawalStatus(exchangeId, a.status as 'processing'));
      if (r.kind === 'trade' && /^[A-Z]/.test(a.status))
        tryControl(() => control.setOrderStatus(exchangeId, a.status.toLowerCase() as 'open'));
      if (r.kind === 'fiat_withdrawal' && (a.status === 'completed' || a.status === 'processing'))
        tryControl(() => control.setFiatWithdrawalStatus(Number(exchangeId), a.status as 'completed'));
      return;
    }
  }
}

/** Faults stop, the process restarts once more, and time passes until everything has settled. */
async function settle(world: World, exchange: EngineExchange): Promise<void> {
  const control = exchange.sandbox.control;
  const finish = () => {
    for (const w of control.withdrawals()) tryControl(() => control.setWithdrawalStatus(w.id, 'completed'));
    for (const o of control.orders()) tryControl(() => control.setOrderStatus(o.id, 'completed'));
    for (const f of control.fiatWithdrawals()) tryControl(() => control.setFiatWithdrawalStatus(f.id, 'completed'));
  };
  exchange.clearFaults();
  world.crashAfterWrites(Number.POSITIVE_INFINITY);
  await world.engine.idle();
  await world.restart();
  for (let i = 0; i < 12; i++) await world.advanceAndTick(10_000);
  finish();
  for (let i = 0; i < 8; i++) await world.advanceAndTick(300_000);
  // Withdrawals the exchange never showed wait for a person; an approver who checked decides to send again.
  for (const r of await world.engine.listLive()) {
    if (r.execution?.inDoubt?.question?.kind !== 'not_found') continue;
    const approver = APPROVERS.find((a) => a !== r.requester)!;
    const decided = await world.engine.settle(r.id, approver, {
      action: 'send_again',
      checked: 'not in the exchange history',
    });
    if (!decided.ok) throw new Error(`decision refused: ${decided.message}`);
  }
  await world.engine.idle();
  for (let i = 0; i < 8; i++) await world.advanceAndTick(300_000);
  finish();
  for (let i = 0; i < 4; i++) await world.advanceAndTick(8 * 3_600_000);
}

function checkEnd(world: World, ledger: Ledger): void {
  const { live, history } = world.requests.dump();
  for (const r of [...live, ...history]) {
    const parsed = requestRecordSchema.safeParse(r);
    if (!parsed.success) ledger.violations.push(`${r.id}: the stored form breaks its schema: ${parsed.error.message}`);
  }
  const all = new Map<string, RequestRecord>([...history, ...live].map((r) => [r.id, r]));
  for (const r of live) {
    if (['executing', 'unknown', 'approved'].includes(r.state))
      ledger.violations.push(`${r.id}: left ${r.state} after settling (forgotten)`);
  }
  for (const [id, commits] of ledger.commitsByRequest) {
    if (commits.length > 1) ledger.violations.push(`${id}: executed ${commits.length} times`);
    const r = all.get(id)!;
    const fine =
      r.state === 'completed' ||
      (r.state === 'failed' && r.failure?.stage === 'final_status') ||
      r.state === 'submitted';
    if (!fine) ledger.violations.push(`${id}: executed on the exchange but ended ${r.state} (${r.failure?.stage})`);
    if (r.kind !== 'bank_account_removal' && r.execution?.exchangeId !== commits[0]!.exchangeId)
      ledger.violations.push(`${id}: tracks ${r.execution?.exchangeId}, executed ${commits[0]!.exchangeId}`);
  }
  const trackers = new Map<string, string>();
  for (const r of all.values()) {
    if ((r.state === 'completed' || r.state === 'submitted') && !ledger.commitsByRequest.has(r.id))
      ledger.violations.push(`${r.id}: ${r.state} without an execution`);
    const exchangeId = r.execution?.exchangeId;
    if (exchangeId && trackers.has(exchangeId))
      ledger.violations.push(`${r.id} and ${trackers.get(exchangeId)} both track ${exchangeId}`);
    if (exchangeId) trackers.set(exchangeId, r.id);
  }
  const lastReported = new Map<string, string>();
  for (const e of world.events.filter(
    (x): x is Extract<RequestEvent, { type: 'status.changed' }> & { generation: number } => x.type === 'status.changed',
  )) {
    const value = JSON.stringify([e.status, e.travelRuleStatus, e.pendingReason, e.transactionHash, e.linkExplorer]);
    if (lastReported.get(e.requestId) === value)
      ledger.violations.push(`${e.requestId}: status ${value} reported twice`);
    lastReported.set(e.requestId, value);
  }
}

describe('engine properties under random interleavings, faults and crashes', () => {
  it('executes only with the required approvals, exactly once, and forgets nothing', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ actions, writeFaults, readFaults }) => {
        const { world, exchange } = worldOnSandbox({ config: { poll: { intervalMs: 5_000 } } });
        const ledger: Ledger = { commitsByRequest: new Map(), violations: [] };
        const writes = [...writeFaults];
        const reads = [...readFaults];
        exchange.script = (arrival) => {
          const next = arrival.method === 'GET' ? reads.shift() : writes.shift();
          return next === undefined || next === 'ok' ? undefined : next;
        };
        exchange.onCommit = (c) => {
          const commit = commitOf(c);
          if (commit) checkCommit(world, exchange, ledger, commit);
        };
        const created: { id: string; hash: string }[] = [];
        await play(world, exchange, actions, created);
        await settle(world, exchange);
        checkEnd(world, ledger);
        await exchange.sandbox.close();
        expect(ledger.violations).toEqual([]);
      }),
      { numRuns: 200, seed: 4242, endOnFailure: true },
    );
  }, 60_000);
});
