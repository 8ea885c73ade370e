/**
 * The execution lease across replicas, on the real engine and the sandbox over real HTTP: one
 * replica drives a request at a time; a live holder keeps its lease through a long call by
 * renewing it; a holder that dies loses the request after the lease's TTL to a replica that looks
 * on the exchange before anything else (and finds the send: no second withdrawal); a holder whose
 * lease was taken, or whose renewals failed, records nothing; a person's settlement waits for another
 * replica's look; a write whose answer the store lost is read back before anything goes on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../../../src/bot/engine/engine-config.js';
import { WriteOutcomeUnknownError, type Repository } from '../../../src/bot/ports/store.js';
import type { ExchangePort } from '../../../src/bot/ports/exchange-port.js';
import { isFinishedRequest, type RequestRecord } from '../../../src/bot/domain/record.js';
import { memoryAuditLog, memoryKv, memoryRepository, type MemoryAuditLog } from '../../../src/bot/store/memory.js';
import { T0 } from '../../stand-ins/sandbox/support/sandbox.js';
import { holdSends, startLeaseWorld, type LeaseReplica, type LeaseWorld } from './support/lease-replicas.js';

const TTL = DEFAULT_ENGINE_CONFIG.leaseTtlMs;
const RENEW = DEFAULT_ENGINE_CONFIG.leaseRenewMs;

let w: LeaseWorld;
let requests: Repository<RequestRecord>;
let audit: MemoryAuditLog;

async function world(seed: string, config = {}): Promise<LeaseWorld> {
  requests = memoryRepository<RequestRecord>(isFinishedRequest);
  audit = memoryAuditLog();
  w = await startLeaseWorld({ seed, stores: { requests, kv: memoryKv(), audit }, config });
  return w;
}
afterEach(async () => {
  await w?.close();
});

const record = async (id: string): Promise<RequestRecord> => (await requests.get(id))!;
const audited = (type: string, requestId: string) =>
  audit.entries.filter((e) => e.type === type && e.requestId === requestId).map((e) => ({ actor: e.actor, ...e.data }));
const withdrawalsOf = (amount: string) => w.sandbox.control.withdrawals().filter((x) => x.amount === amount);

/** A withdrawal whose send failed with a 503 before anything was stored: unknown, never found, a person is asked. */
async function askedNotFound(a: LeaseReplica, amount: string): Promise<string> {
  w.sandbox.control.setFaults([{ kind: 'error', status: 503, method: 'POST', path: '/crypto/withdrawals' }]);
  const { id } = await w.approve(a, amount);
  await a.engine.idle();
  w.sandbox.control.clearFaults();
  for (let i = 0; i < 3; i++) {
    await w.advance(15_000);
    await a.engine.tick();
    await a.engine.idle();
  }
  expect((await record(id)).execution!.inDoubt!.question).toMatchObject({ kind: 'not_found' });
  return id;
}

describe('the execution lease across replicas', () => {
  it('a holder that dies right after the exchange committed its send keeps the request until its lease runs out; then another replica looks first, finds the withdrawal, and nothing is sent twice', async () => {
    await world('lease-dead-holder');
    const held = holdSends(w.port);
    const a = w.replica('replica-a', { frozen: true, exchange: () => held.port });
    const b = w.replica('replica-b', { role: 'follower' });
    const { id } = await w.approve(a, '0.01230001');
    await held.committed;
    expect(await record(id)).toMatchObject({
      state: 'executing',
      execution: { lease: { holder: 'replica-a', until: T0 + TTL } },
    });
    expect(audited('lease.claimed', id)).toEqual([
      { actor: 'system', holder: 'replica-a', until: T0 + TTL, idempotencyKey: expect.any(String) },
    ]);

    // A is gone (frozen: no renewal ever); B becomes leader and recovers. A's lease is live: B keeps off.
    a.leadership.set('follower');
    b.leadership.set('leader');
    const before = w.withdrawalCalls();
    await b.engine.start();
    await b.engine.idle();
    await w.advance(TTL - 1);
    await b.engine.tick();
    await b.engine.idle();
    expect(await record(id)).toMatchObject({ state: 'executing', execution: { lease: { holder: 'replica-a' } } });
    expect(w.withdrawalCalls()).toEqual(before);

    // The lease has run out: B takes the request over by looking, and finds A's withdrawal.
    await w.advance(1);
    await b.engine.tick();
    await b.engine.idle();
    const [sent] = withdrawalsOf('0.01230001');
    const taken = await record(id);
    expect(taken).toMatchObject({ state: 'submitted', execution: { exchangeId: sent!.id, lease: null } });
    expect(withdrawalsOf('0.01230001')).toHaveLength(1);
    expect(w.withdrawalCalls().posts).toBe(1);
    expect(w.withdrawalCalls().reads).toBeGreaterThan(before.reads);
    expect(audited('lease.taken_over', id)).toEqual([
      { actor: 'system', holder: 'replica-b', previousHolder: 'replica-a', expiredForMs: 0, state: 'executing' },
    ]);
    expect(audited('execution.reconciled', id)).toEqual([
      expect.objectContaining({ outcome: 'submitted', exchangeId: sent!.id }),
    ]);

    // A's answer arrives at last: the request is B's work, and A records nothing over it.
    held.release();
    await a.engine.idle();
    expect(await record(id)).toEqual(taken);
    expect(audited('lease.lost', id)).toEqual([
      { actor: 'system', holder: 'replica-a', heldBy: null, state: 'submitted' },
    ]);
    expect(a.logs).toContainEqual(
      expect.objectContaining({ level: 'warn', message: expect.stringMatching(/^lease lost/) }),
    );
    expect(w.withdrawalCalls().posts).toBe(1);
  });

  it("a holder's renewal landing between the other replica's read and its takeover write: the takeover is not written, the holder keeps the request", async () => {
    await world('lease-late-renewal');
    const held = holdSends(w.port);
    const a = w.replica('replica-a', { frozen: true, exchange: () => held.port });
    let renewed = false;
    const b = w.replica('replica-b', {
      role: 'follower',
      // A's renewal reaches the store just before B's first write (B read the lease as expired).
      requests: (inner) => ({
        ...inner,
        async mutate(id, fn) {
          if (!renewed) {
            renewed = true;
            await inner.mutate(id, (current) => ({
              next: {
                ...current!,
                execution: { ...current!.execution!, lease: { holder: 'replica-a', until: w.clock.now() + TTL } },
              },
              result: null,
            }));
          }
          return inner.mutate(id, fn);
        },
      }),
    });
    const { id } = await w.approve(a, '0.01230007');
    await held.committed;
    b.leadership.set('leader');
    await w.advance(TTL + 1_000);
    const reads = w.withdrawalCalls().reads;
    await b.engine.tick();
    await b.engine.idle();
    expect(renewed).toBe(true);
    expect(await record(id)).toMatchObject({
      state: 'executing',
      execution: { lease: { holder: 'replica-a', until: T0 + TTL + 1_000 + TTL } },
    });
    expect(audited('lease.taken_over', id)).toEqual([]);
    expect(w.withdrawalCalls().reads).toBe(reads);
    held.release();
    await a.engine.idle();
  });

  it('a live holder renews its lease through a call longer than the TTL; the other replica leaves the request alone all along, and the holder records the answer', async () => {
    await world('lease-renewed');
    const held = holdSends(w.port);
    const a = w.replica('replica-a', { exchange: () => held.port });
    const b = w.replica('replica-b');
    const { id } = await w.approve(a, '0.01230002');
    await held.committed;
    const reads = w.withdrawalCalls().reads;
    for (let t = RENEW; t <= 3 * TTL; t += RENEW) {
      await w.advance(RENEW);
      await b.engine.tick();
      await b.engine.idle();
      const now = await record(id);
      expect(now.state).toBe('executing');
      expect(now.execution!.lease).toEqual({ holder: 'replica-a', until: T0 + t + TTL });
    }
    expect(w.withdrawalCalls().reads).toBe(reads);
    held.release();
    await a.engine.idle();
    expect(await record(id)).toMatchObject({ state: 'submitted', execution: { lease: null } });
    expect(w.withdrawalCalls().posts).toBe(1);
    expect(audit.entries.filter((e) => e.type === 'lease.taken_over' || e.type === 'lease.lost')).toEqual([]);
  });

  it('a holder whose renewals fail (its database unreachable) stops: even with the database back it records nothing; the request is taken over and found', async () => {
    await world('lease-renewals-fail');
    const held = holdSends(w.port);
    let cut = false;
    const a = w.replica('replica-a', {
      exchange: () => held.port,
      requests: (inner) => ({
        ...inner,
        mutate: (id, fn) =>
          cut ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')) : inner.mutate(id, fn),
      }),
    });
    const b = w.replica('replica-b', { role: 'follower' });
    const { id } = await w.approve(a, '0.01230003');
    await held.committed;
    cut = true;
    for (let t = 0; t < TTL; t += RENEW) await w.advance(RENEW);
    expect(a.logs.filter((l) => l.message.startsWith('could not renew'))).toHaveLength(TTL / RENEW);
    cut = false;
    const stuck = await record(id);
    held.release();
    await a.engine.idle();
    expect(await record(id)).toEqual(stuck);
    expect(audited('lease.lost', id)).toEqual([
      { actor: 'system', holder: 'replica-a', reason: 'ran_out', until: T0 + TTL, effect: 'send', state: 'executing' },
    ]);

    b.leadership.set('leader');
    await b.engine.tick();
    await b.engine.idle();
    expect(await record(id)).toMatchObject({
      state: 'submitted',
      execution: { exchangeId: withdrawalsOf('0.01230003')[0]!.id },
    });
    expect(withdrawalsOf('0.01230003')).toHaveLength(1);
    expect(audited('lease.taken_over', id)).toHaveLength(1);
  });

  it("a person's decision made on another replica while the holder is looking on the exchange is refused for now, and counts once the look is over", async () => {
    await world('lease-person', { unknownSettleWindowMs: 20_000 });
    let gate: Promise<void> | undefined;
    let looking!: () => void;
    const lookStarted = new Promise<void>((resolve) => (looking = resolve));
    const holdLooks = (port: ExchangePort): ExchangePort => ({
      ...port,
      cryptoWithdrawals: (window, opts) =>
        (async function* () {
          if (gate) {
            looking();
            await gate;
          }
          yield* port.cryptoWithdrawals(window, opts);
        })(),
    });
    const a = w.replica('replica-a', { exchange: holdLooks });
    const b = w.replica('replica-b', { role: 'follower' });
    const id = await askedNotFound(a, '0.01230004');

    let release!: () => void;
    gate = new Promise<void>((resolve) => (release = resolve));
    await w.advance(DEFAULT_ENGINE_CONFIG.personWaitLookIntervalMs);
    const tick = a.engine.tick();
    await lookStarted;
    expect((await record(id)).execution!.lease).toMatchObject({ holder: 'replica-a' });
    expect(
      await b.engine.settle(id, 'U_A1', { action: 'mark_not_sent', checked: 'Not in the exchange history.' }),
    ).toMatchObject({ ok: false, reason: 'execution_busy' });
    expect((await record(id)).state).toBe('unknown');

    release();
    await tick;
    await a.engine.idle();
    expect((await record(id)).execution!.lease).toBeNull();
    expect(
      await b.engine.settle(id, 'U_A1', { action: 'mark_not_sent', checked: 'Not in the exchange history.' }),
    ).toMatchObject({ ok: true });
    await b.engine.idle();
    expect(await record(id)).toMatchObject({ state: 'failed', execution: { lease: null } });
    expect(w.withdrawalCalls().posts).toBe(1);
  });

  it('two approvers send again at the same moment on two replicas: one more withdrawal, never two', async () => {
    await world('lease-person-twice', { unknownSettleWindowMs: 20_000 });
    const a = w.replica('replica-a');
    const b = w.replica('replica-b', { role: 'follower' });
    const id = await askedNotFound(a, '0.01230005');
    const results = await Promise.all([
      a.engine.settle(id, 'U_A1', { action: 'send_again', checked: 'Not in the exchange history.' }),
      b.engine.settle(id, 'U_A2', { action: 'send_again', checked: 'Not there either.' }),
    ]);
    await a.engine.idle();
    await b.engine.idle();
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toMatchObject({
      reason: expect.stringMatching(/^(execution_busy|not_waiting_for_person)$/),
    });
    expect(w.withdrawalCalls().posts).toBe(2);
    expect(withdrawalsOf('0.01230005')).toHaveLength(1);
    expect((await record(id)).execution!.decisions).toHaveLength(1);
  });

  describe('a write whose answer the store lost is read back', () => {
    /** The requests store, with the answer to the write that moves a request to executing lost once (the write itself landed, or not). */
    const losingClaimAnswer =
      (landed: boolean) =>
      (inner: Repository<RequestRecord>): Repository<RequestRecord> => {
        let armed = true;
        return {
          ...inner,
          async mutate(id, fn) {
            let claim = false;
            const result = await inner.mutate(id, (current) => {
              const m = fn(current);
              claim = armed && current?.state === 'approved' && m.next?.state === 'executing';
              return claim && !landed ? { result: m.result } : m;
            });
            if (!claim) return result;
            armed = false;
            throw new WriteOutcomeUnknownError('the connection broke while the change was being committed (test)');
          },
        };
      };

    it('the claim landed: it goes on and sends, once', async () => {
      await world('lease-lost-answer-landed');
      const a = w.replica('replica-a', { requests: losingClaimAnswer(true) });
      const { id } = await w.approve(a, '0.01230005');
      await a.engine.idle();
      expect(await record(id)).toMatchObject({ state: 'submitted', execution: { lease: null } });
      expect(withdrawalsOf('0.01230005')).toHaveLength(1);
      expect(a.logs).toContainEqual(
        expect.objectContaining({ level: 'warn', message: expect.stringMatching(/it landed: going on/) }),
      );
    });

    it('the claim did not land: nothing is sent, the request stays approved, and the next tick sends it once', async () => {
      await world('lease-lost-answer-not-landed');
      const a = w.replica('replica-a', { requests: losingClaimAnswer(false) });
      const { id } = await w.approve(a, '0.01230006');
      await a.engine.idle();
      expect(await record(id)).toMatchObject({ state: 'approved', execution: { lease: null } });
      expect(w.withdrawalCalls().posts).toBe(0);
      expect(a.logs).toContainEqual(
        expect.objectContaining({ level: 'warn', message: expect.stringMatching(/did not land/) }),
      );
      await a.engine.tick();
      await a.engine.idle();
      expect(await record(id)).toMatchObject({ state: 'submitted' });
      expect(withdrawalsOf('0.01230006')).toHaveLength(1);
    });
  });
});
