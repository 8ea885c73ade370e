import { describe, expect, it } from 'vitest';
import { exchangeNoteOf } from '../../../src/bot/domain/desk-reference.js';
import type { Scripted } from './support/engine-exchange.js';
import { worldOnSandbox } from './support/world.js';
import { requestAndApprove } from './support/flow.js';
import { cryptoInput, fiatInput, tradeInput } from './support/seeded.js';

// The sandbox in process and its own faults: drop_after_commit (committed, the answer lost), hang
// (nothing done, no answer until the client gives up), error_after_commit (committed, a 5xx).
const committedThenLost: Scripted = { kind: 'drop_after_commit' };
const lostBefore: Scripted = { kind: 'hang' };
/** Looks for a lost send: lists of withdrawals. */
const looks = /\/(crypto|fiat)\/withdrawals$/;

describe('unknown outcomes are reconciled before anything else', () => {
  it.each([
    ['crypto', cryptoInput(), 'createCryptoWithdrawal'],
    ['fiat', fiatInput(), 'createFiatWithdrawal'],
    ['order', tradeInput(), 'createOrder'],
  ] as const)(
    '%s: committed then the connection dropped -> found by reconcile, never sent twice',
    async (_name, input, op) => {
      const { world, exchange } = worldOnSandbox();
      exchange.fail(op, committedThenLost);
      const r = await requestAndApprove(world, input);
      expect(r.state).toBe('submitted');
      expect(exchange.writes()).toHaveLength(1);
      expect(exchange.calls(op)).toBe(1);
      expect(r.execution!.exchangeId).toBe(String((exchange.writes()[0]!.answer as { id: unknown }).id));
      expect(r.execution!.attempts[0]).toMatchObject({ outcome: 'reconciled' });
      expect(world.eventsOf('execution.outcome_unknown', r.id)).toHaveLength(1);
      expect(world.eventsOf('execution.reconciled', r.id)[0]).toMatchObject({ found: true });
    },
  );

  it.each([-25_000, 25_000])(
    'an exchange clock %i ms off ours (inside the signing window), measured from its Date header: a send committed and lost is found',
    async (clockOffsetMs) => {
      const { world, exchange } = worldOnSandbox({ clockOffsetMs });
      exchange.fail('createCryptoWithdrawal', committedThenLost);
      const r = await requestAndApprove(world, cryptoInput());
      expect(Math.abs(exchange.client.clockOffsetMs()! - clockOffsetMs)).toBeLessThanOrEqual(1_000);
      // The exchange recorded it by its own clock, 25 s away from when we sent it.
      const made = exchange.sandbox.control.withdrawals().find((w) => w.request_id === r.execution!.attempts[0]!.key)!;
      expect(made.created_at - r.execution!.attempts[0]!.startedAt).toBe(clockOffsetMs);
      expect(r).toMatchObject({ state: 'submitted', execution: { exchangeId: made.id } });
      expect(r.execution!.attempts[0]).toMatchObject({ outcome: 'reconciled' });
    },
  );

  it.each([
    ['crypto', cryptoInput(), 'createCryptoWithdrawal'],
    ['fiat', fiatInput(), 'createFiatWithdrawal'],
  ] as const)(
    '%s: nothing happened -> keeps looking through the settle window, never sends again on its own, then asks a person',
    async (_name, input, op) => {
      const { world, exchange } = worldOnSandbox();
      exchange.fail(op, lostBefore);
      const r = await requestAndApprove(world, input);
      expect(r.state).toBe('unknown');
      const looksBefore = exchange.received('GET', looks);
      // 9 minutes 45 s: still inside the 10-minute window; it looked at least every 30 s and asked nobody.
      for (let i = 0; i < 39; i++) await world.advanceAndTick(15_000);
      let now = await world.record(r.id);
      expect(now.state).toBe('unknown');
      expect(now.execution!.inDoubt!.question).toBeNull();
      expect(exchange.received('GET', looks) - looksBefore).toBeGreaterThanOrEqual(19);
      expect(world.eventsOf('execution.needs_person', r.id)).toHaveLength(0);
      await world.advanceAndTick(15_000);
      now = await world.record(r.id);
      expect(now.execution!.inDoubt!.question).toMatchObject({ kind: 'not_found', candidates: [] });
      expect(world.eventsOf('execution.needs_person', r.id)).toHaveLength(1);
      // Waiting for a person it keeps looking, less often, and asks only once.
      for (let i = 0; i < 10; i++) await world.advanceAndTick(60_000);
      expect(world.eventsOf('execution.needs_person', r.id)).toHaveLength(1);
      expect(exchange.calls(op)).toBe(1);
      expect(exchange.writes()).toHaveLength(0);
    },
  );

  it('order: nothing happened and the quote expired meanwhile -> the resend is refused, looked for, then re-quoted', async () => {
    const { world, exchange } = worldOnSandbox();
    exchange.fail('createOrder', lostBefore);
    const r = await requestAndApprove(world, tradeInput());
    expect(r.state).toBe('unknown');
    await world.advanceAndTick(5_000);
    const done = await world.record(r.id);
    expect(done.state).toBe('submitted');
    expect(exchange.sandbox.control.orders()).toHaveLength(1);
    expect(done.execution!.attempts.map((a) => a.outcome)).toEqual(['unknown', 'quote_unusable', 'submitted']);
  });

  it('an exchange that cannot be read leaves it unknown, and looks again later', async () => {
    const { world, exchange } = worldOnSandbox({ config: { unreadableLookIntervalMs: 10_000 } });
    exchange.fail('createCryptoWithdrawal', committedThenLost);
    const res = await world.engine.request('U_REQ', cryptoInput());
    if (!res.ok) throw new Error('fixture');
    // The checks read the exchange too: let them through, then fail the look's list.
    exchange.script = (a) => (a.method === 'GET' && exchange.writes().length > 0 ? lostBefore : undefined);
    await world.engine.approve(res.request.id, 'U_A2', res.request.snapshotHash);
    await world.engine.approve(res.request.id, 'U_A3', res.request.snapshotHash);
    await world.engine.idle();
    expect((await world.record(res.request.id)).state).toBe('unknown');
    exchange.script = undefined;
    await world.advanceAndTick(5_000);
    expect((await world.record(res.request.id)).state).toBe('unknown');
    await world.advanceAndTick(5_000);
    expect((await world.record(res.request.id)).state).toBe('submitted');
    expect(exchange.writes()).toHaveLength(1);
  });

  it('a withdrawal already claimed by another request is never taken', async () => {
    const { world, exchange } = worldOnSandbox();
    const first = await requestAndApprove(world, cryptoInput('100'));
    expect(first.state).toBe('submitted');
    world.clock.advance(1_000);
    exchange.fail('createCryptoWithdrawal', lostBefore);
    const second = await requestAndApprove(world, cryptoInput('100'));
    expect(second.state).toBe('unknown');
    // Same amount and destination within the window: the first request's withdrawal matches, but is claimed.
    for (let i = 0; i < 41; i++) await world.advanceAndTick(15_000);
    const done = await world.record(second.id);
    expect(done.state).toBe('unknown');
    expect(done.execution!.inDoubt!.question).toMatchObject({ kind: 'not_found', candidates: [] });
    expect(exchange.writes()).toHaveLength(1);
  });

  it('a look-alike request waits while its look-alike is in doubt, so a reconcile can never confuse them', async () => {
    const { world, exchange } = worldOnSandbox();
    exchange.fail('createCryptoWithdrawal', lostBefore);
    const first = await requestAndApprove(world, cryptoInput('100'));
    expect(first.state).toBe('unknown');
    const second = await requestAndApprove(world, cryptoInput('100'));
    expect(second.state).toBe('approved');
    expect(exchange.calls('createCryptoWithdrawal')).toBe(1);
    // The first is settled by a person (nothing was sent); only then does its look-alike go.
    for (let i = 0; i < 41; i++) await world.advanceAndTick(15_000);
    expect((await world.record(first.id)).execution!.inDoubt!.question).not.toBeNull();
    expect((await world.record(second.id)).state).toBe('approved');
    const decided = await world.engine.settle(first.id, 'U_A2', {
      action: 'mark_not_sent',
      checked: 'No withdrawal of 100 in the exchange history.',
    });
    expect(decided).toMatchObject({ ok: true, request: { state: 'failed' } });
    await world.advanceAndTick(5_000);
    const done = await world.record(second.id);
    expect(done.state).toBe('submitted');
    expect(exchange.writes().map((c) => (c.body as { request_id?: string }).request_id)).toEqual([
      done.execution!.attempts[0]!.key,
    ]);
  });

  it('5xx is an unknown outcome too', async () => {
    const { world, exchange } = worldOnSandbox();
    // The exchange commits the withdrawal, and a gateway answers 502 all the same.
    exchange.fail('createCryptoWithdrawal', { kind: 'error_after_commit' });
    const r = await requestAndApprove(world, cryptoInput());
    expect(r.state).toBe('submitted');
    expect(exchange.writes()).toHaveLength(1);
    expect(r.execution!.attempts[0]).toMatchObject({ outcome: 'reconciled' });
  });
});

describe('recovery on start', () => {
  it('a crash right after executing was persisted: the restart reconciles first and sends once', async () => {
    for (const committed of [false, true]) {
      const { world, exchange } = worldOnSandbox();
      const res = await world.engine.request('U_REQ', cryptoInput());
      if (!res.ok) throw new Error('fixture');
      await world.engine.approve(res.request.id, 'U_A2', res.request.snapshotHash);
      // The next write is `approved`, the one after it `executing`; die right after that one.
      world.crashAfterWrites(2);
      await world.engine.approve(res.request.id, 'U_A3', res.request.snapshotHash).catch(() => undefined);
      await world.engine.idle();
      expect(world.crashed).toBe(true);
      const stuck = await world.record(res.request.id);
      expect(stuck.state).toBe('executing');
      const s = stuck.snapshot;
      if (s.kind !== 'crypto_withdrawal') throw new Error('fixture');
      if (committed) {
        // The call left just before the crash: commit it on the exchange as the dead process would have.
        const sent = await exchange.client.createCryptoWithdrawal({
          crypto_currency_id: s.cryptoCurrencyId,
          amount: s.amount,
          address_book_address_id: s.destination.id,
          request_id: stuck.execution!.attempts[0]!.key,
          note: exchangeNoteOf(s, 1)!,
        });
        // Held pending, so "followed" reads as submitted whatever the sandbox's timeline would do meanwhile.
        exchange.sandbox.control.setWithdrawalStatus(sent.id, 'pending');
      }
      await world.restart();
      await world.engine.idle();
      const afterStart = await world.record(res.request.id);
      expect(afterStart.state).toBe(committed ? 'submitted' : 'unknown');
      for (let i = 0; i < 41; i++) await world.advanceAndTick(15_000);
      // Not committed: never sent again on its own; a person is asked.
      const later = await world.record(res.request.id);
      expect(later.state).toBe(committed ? 'submitted' : 'unknown');
      if (!committed) expect(later.execution!.inDoubt!.question?.kind).toBe('not_found');
      expect(exchange.writes()).toHaveLength(committed ? 1 : 0);
    }
  });

  it('approved requests are executed on start; pending ones stay pending', async () => {
    const { world } = worldOnSandbox();
    const a = await world.engine.request('U_REQ', cryptoInput());
    const b = await world.engine.request('U_REQ', cryptoInput('30'));
    if (!a.ok || !b.ok) throw new Error('fixture');
    await world.engine.approve(a.request.id, 'U_A2', a.request.snapshotHash);
    world.crashAfterWrites(1);
    await world.engine.approve(a.request.id, 'U_A3', a.request.snapshotHash).catch(() => undefined);
    await world.engine.idle();
    expect((await world.record(a.request.id)).state).toBe('approved');
    await world.restart();
    await world.engine.idle();
    expect((await world.record(a.request.id)).state).toBe('submitted');
    expect((await world.record(b.request.id)).state).toBe('pending');
    expect(world.auditOf('engine.started')).toHaveLength(1);
  });

  it('a window holding more records than a search reads proves no absence: it stays unknown and sends nothing', async () => {
    const { world, exchange } = worldOnSandbox({ config: { unreadableLookIntervalMs: 10_000 } });
    const other = await requestAndApprove(world, cryptoInput('50'));
    expect(other.state).toBe('submitted');
    // 2,001 withdrawals of other terms in the window, made in the exchange's app: more than a look reads (2,000).
    const s = other.snapshot;
    if (s.kind !== 'crypto_withdrawal') throw new Error('fixture');
    const clutter: string[] = [];
    for (let i = 0; i < 2_001; i++) {
      const w = exchange.sandbox.control.injectWithdrawal({
        body: { crypto_currency_id: s.cryptoCurrencyId, amount: s.amount, address_book_address_id: s.destination.id },
      });
      clutter.push(w.id);
    }
    exchange.fail('createCryptoWithdrawal', lostBefore);
    const r = await requestAndApprove(world, cryptoInput('100'));
    expect(r.state).toBe('unknown');
    for (let i = 0; i < 7; i++) await world.advanceAndTick(100_000);
    // Past the settle window, but nothing was proven: a person is asked to check (never "not found"), nothing is sent.
    expect((await world.record(r.id)).state).toBe('unknown');
    expect((await world.record(r.id)).execution!.inDoubt!.question).toMatchObject({
      kind: 'unreadable',
      candidates: [],
      message: expect.stringContaining('more than 2,000'),
    });
    expect(await world.engine.settle(r.id, 'U_A2', { action: 'send_again', checked: 'looked' })).toMatchObject({
      ok: false,
      reason: 'not_waiting_for_person',
    });
    expect(exchange.calls('createCryptoWithdrawal')).toBe(2);
    expect(world.logs.some((l) => l.level === 'error' && /cannot prove what is on the exchange/.test(l.message))).toBe(
      true,
    );
    // Once the window can be read to its end, absence is proven: a person is asked, nothing is sent.
    for (const id of clutter) exchange.sandbox.control.redateWithdrawal(id, world.clock.now() - 30 * 86_400_000);
    await world.advanceAndTick(30_000);
    const done = await world.record(r.id);
    expect(done.execution!.inDoubt!.question).toMatchObject({ kind: 'not_found' });
    expect(exchange.calls('createCryptoWithdrawal')).toBe(2);
  }, 60_000); // scans 2,001 withdrawals on each of 8 ticks: CPU-bound, slow on a loaded machine
});
