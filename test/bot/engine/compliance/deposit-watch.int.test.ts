/**
 * The deposit watch against the sandbox over HTTP with the file stores: each new deposit reported
 * once (equal created_at included), nothing missed or repeated across a restart or past the page
 * bound, status changes reported once, every one audited; the notices go through the desk's outbox,
 * delivered until the notifier takes them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDepositWatch, type DepositWatchOptions } from '../../../../src/bot/engine/compliance/deposit-watch.js';
import { WATCH_STATE_KEY, type WatchState } from '../../../../src/bot/engine/compliance/watch-state.js';
import { upgradeStoredValues } from '../../../../src/bot/runtime/stored-value-upgrades.js';
import { SANDBOX_TIMINGS } from '../../../../src/stand-ins/sandbox/index.js';
import { deskOutbox, RecordingNotifier, startWorld, type DeskOutbox, type World } from './support/world.js';

let world: World;
let notifier: RecordingNotifier;
let desk: DeskOutbox;

beforeEach(async () => {
  world = await startWorld();
  notifier = new RecordingNotifier();
  desk = deskOutbox(world, notifier);
});
afterEach(() => world.close());

/** A watch over the world's current stores; `initialLookbackMs: 1` skips the seeded deposits. Each poll waits for the outbox's delivery pass. */
function watch(options: DepositWatchOptions = {}) {
  const w = createDepositWatch(
    {
      exchange: world.exchange,
      kv: world.kv,
      audit: world.audit,
      notices: desk.notices,
      clock: world.clock,
      logger: world.logger,
    },
    { initialLookbackMs: 1, ...options },
  );
  return {
    async poll() {
      const summary = await w.poll();
      await desk.delivered();
      return summary;
    },
  };
}

const inject = (amount: string, needsCounterpartyInfo = false) =>
  world.sandbox.control.injectDeposit({ amount, needsCounterpartyInfo });
const ids = (list: { id: string }[]) => list.map((d) => d.id);

describe('deposit watch', () => {
  it('reports a deposit injected into the sandbox once, with what the exchange listed, and audits it', async () => {
    const w = watch();
    expect((await w.poll()).newDeposits).toBe(0);
    world.sandbox.control.advance(1_000);
    const injected = inject('0.75', true);

    const first = await w.poll();
    expect(first).toMatchObject({ newDeposits: 1, delivered: 1, caughtUp: true, tracked: 1 });
    expect(notifier.seen()).toHaveLength(1);
    const seen = notifier.seen()[0]!;
    expect(seen).toMatchObject({
      id: injected.id,
      amount: '0.75',
      status: 'pending',
      travelRuleStatus: 'required',
      transactionId: injected.transaction.uuid,
      needsDeclaration: true,
      acceptsDeclaration: true,
      final: false,
    });
    expect(seen.linkExplorer).toContain(injected.transaction_hash);

    world.sandbox.control.advance(5_000);
    expect((await w.poll()).newDeposits).toBe(0);
    expect(await w.poll()).toMatchObject({ newDeposits: 0, changes: 0, delivered: 0 });
    expect(notifier.calls).toHaveLength(1);
    const audited = world.auditLines().filter((l) => l.type === 'deposit.seen');
    expect(audited.map((l) => l.data!.depositId)).toEqual([injected.id]);
    expect(audited[0]!.data).toMatchObject({
      transactionId: injected.transaction.uuid,
      amount: '0.75',
      travelRuleStatus: 'required',
      asset: 'BTC',
    });
  });

  it('reports deposits sharing one millisecond once each, also when one arrives after a poll in that same millisecond', async () => {
    const w = watch();
    world.sandbox.control.advance(1_000);
    const a = inject('1');
    const b = inject('2');
    await w.poll();
    const c = inject('3'); // same created_at as a and b: "after" must not skip it, seen must not repeat them
    expect(c.created_at).toBe(a.created_at);
    await w.poll();
    await w.poll();
    expect(ids(notifier.seen()).sort()).toEqual([a.id, b.id, c.id].sort());
    expect(notifier.seen()).toHaveLength(3);
  });

  it('neither repeats nor misses a deposit across a restart (stores reopened, a new watch)', async () => {
    world.sandbox.control.advance(1_000);
    const before = inject('0.1', true);
    await watch().poll();
    expect(ids(notifier.seen())).toEqual([before.id]);

    await world.restart();
    const during = inject('0.2'); // arrives while the bot is down, in the same millisecond
    world.sandbox.control.advance(2_000);
    const after = inject('0.3');
    const again = watch();
    await again.poll();
    await again.poll();
    expect(ids(notifier.seen())).toEqual([before.id, during.id, after.id]);
    expect(world.auditLines().filter((l) => l.type === 'deposit.seen')).toHaveLength(3);
  });

  it('reports a status change once (pending -> completed, travel rule pending -> approved), then stops following it', async () => {
    const w = watch();
    world.sandbox.control.advance(1_000);
    const d = inject('5');
    expect((await w.poll()).tracked).toBe(1);
    world.sandbox.control.advance(SANDBOX_TIMINGS.DEPOSIT_CONFIRM_MS);

    const moved = await w.poll();
    expect(moved).toMatchObject({ changes: 1, tracked: 0 });
    expect(notifier.changed()).toHaveLength(1);
    expect(notifier.changed()[0]).toMatchObject({
      deposit: { id: d.id, status: 'completed' },
      changes: { status: { from: 'pending', to: 'completed' }, travelRuleStatus: { from: 'pending', to: 'approved' } },
    });
    world.sandbox.control.advance(60_000);
    expect((await w.poll()).changes).toBe(0);
    await world.restart();
    expect((await watch().poll()).changes).toBe(0);
    expect(notifier.changed()).toHaveLength(1);
    const audited = world.auditLines().filter((l) => l.type === 'deposit.changed');
    expect(audited).toHaveLength(1);
    expect(audited[0]!.data).toMatchObject({
      depositId: d.id,
      changes: { status: { from: 'pending', to: 'completed' } },
    });
  });

  it('catches up past the page bound over several polls without missing or repeating one', async () => {
    // One walk reads at most 2 deposits, two walks a poll: 9 deposits, pairs sharing a millisecond.
    const w = watch({ pageSize: 2, pagesPerWalk: 1, walksPerPoll: 2 });
    await w.poll();
    const injected: string[] = [];
    for (let i = 0; i < 9; i++) {
      if (i % 2 === 0) world.sandbox.control.advance(7);
      injected.push(inject(`0.0${i + 1}`).id);
    }
    const summaries = [];
    for (let i = 0; i < 12; i++) {
      const s = await w.poll();
      summaries.push(s);
      if (s.caughtUp && s.newDeposits === 0) break;
    }
    expect(summaries[0]!.caughtUp).toBe(false);
    expect(ids(notifier.seen()).sort()).toEqual([...injected].sort());
    expect(new Set(ids(notifier.seen())).size).toBe(9);
    // Every page request stayed within the bound asked for.
    expect(
      world.sandbox.control
        .requests()
        .filter((r) => r.path.endsWith('/crypto/deposits'))
        .every((r) => r.status === 200),
    ).toBe(true);
  });

  it('says so, and repeats nothing, when more deposits share one millisecond than a walk can read', async () => {
    const w = watch({ pageSize: 2, pagesPerWalk: 1, walksPerPoll: 3 });
    await w.poll();
    world.sandbox.control.advance(5);
    const same = [inject('1').id, inject('2').id, inject('3').id];
    await w.poll();
    await w.poll();
    expect(world.logger.lines.some((l) => l.level === 'error' && /share one created_at/.test(l.message))).toBe(true);
    const reported = ids(notifier.seen());
    expect(new Set(reported).size).toBe(reported.length);
    expect(reported.every((id) => same.includes(id))).toBe(true);
  });

  it('keeps a notice whose delivery failed in the outbox, and delivers it once after a restart', async () => {
    world.sandbox.control.advance(1_000);
    const d = inject('9', true);
    notifier.failNext(1);
    const failed = await watch().poll();
    expect(failed).toMatchObject({ newDeposits: 1, delivered: 1 });
    expect(notifier.seen()).toHaveLength(0);
    expect(await desk.outbox.pending()).toMatchObject([
      { requestId: `deposit:${d.transaction.uuid.toLowerCase()}`, event: { type: 'deposit.seen' }, attempts: 1 },
    ]);

    await world.restart();
    await desk.restart();
    expect(ids(notifier.seen())).toEqual([d.id]);
    expect(await watch().poll()).toMatchObject({ newDeposits: 0, delivered: 0 });
    expect(notifier.seen()).toHaveLength(1);
  });

  it('never drops a notice Slack keeps refusing: it is delivered once Slack takes it, however long that is', async () => {
    world.sandbox.control.advance(1_000);
    const d = inject('1', true);
    notifier.failNext(100);
    const w = watch();
    await w.poll();
    // More tries than the watch's own delivery made before it dropped a notice (60), each after its backoff.
    for (let i = 0; i < 70; i++) {
      world.sandbox.control.advance(5 * 60_000);
      await desk.delivered();
    }
    expect(notifier.seen()).toHaveLength(0);
    notifier.failNext(0);
    world.sandbox.control.advance(5 * 60_000);
    await w.poll();
    expect(ids(notifier.seen())).toEqual([d.id]);
    expect(await desk.outbox.pending()).toEqual([]);
    expect(world.auditLines().filter((l) => l.type === 'deposit.notify_failed')).toEqual([]);
  });

  it('delivers the notices an older version left in its own outbox (version 2 state), once upgraded', async () => {
    world.sandbox.control.advance(1_000);
    const d = inject('2', true);
    await watch().poll();
    const state = (await world.kv.get<WatchState>(WATCH_STATE_KEY))!;
    const deposit = notifier.seen()[0]!;
    notifier.calls.length = 0;
    // What version 2 stored: a notice it had tried three times and not yet delivered.
    await world.kv.set(WATCH_STATE_KEY, { ...state, version: 2, outbox: [{ kind: 'seen', deposit, attempts: 3 }] });
    await upgradeStoredValues(world.kv, { info: () => {} });
    expect(await watch().poll()).toMatchObject({ newDeposits: 0, delivered: 1 });
    expect(ids(notifier.seen())).toEqual([d.id]);
    expect((await world.kv.get<WatchState>(WATCH_STATE_KEY))!.outbox).toEqual([]);
  });

  it('on its first run reports the deposits of the look-back window, including those waiting for a declaration', async () => {
    // The sandbox seeds deposits 10 d, 7 d, 3 d, 2 h and 30 min old; the last two need a declaration.
    const w = watch({ initialLookbackMs: 24 * 3_600_000 });
    const s = await w.poll();
    expect(s.newDeposits).toBe(2);
    expect(notifier.seen().map((d) => d.travelRuleStatus)).toEqual(['required', 'required']);
    expect(notifier.seen()[0]!.createdAt).toBeLessThan(notifier.seen()[1]!.createdAt);
  });

  it('refuses to start over from a stored state it cannot read (it would report everything again)', async () => {
    await world.kv.set(WATCH_STATE_KEY, { version: 99 });
    await expect(watch().poll()).rejects.toThrow(/not readable/);
  });

  it('shares one run between overlapping polls', async () => {
    world.sandbox.control.advance(1_000);
    inject('1');
    const w = watch();
    const [a, b] = await Promise.all([w.poll(), w.poll()]);
    expect(a).toBe(b);
    expect(notifier.seen()).toHaveLength(1);
  });
});
