/**
 * Two replicas of the engine over one set of stores and one exchange: only the leader executes,
 * polls and delivers the outbox; a follower answers its commands and leaves the rest to the
 * leader; the replica that becomes leader recovers and starts its loop at once, before the next tick.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/bot/engine/engine.js';
import type { RequestEvent } from '../../../src/bot/ports/events.js';
import { LeadershipState } from '../../../src/bot/ports/leadership.js';
import { whileLeader } from '../../../src/bot/engine/leadership.js';
import { FakeClock } from '../../support/fake-clock.js';
import { SequentialIds } from '../../support/sequential-ids.js';
import { createPolicy } from '../../../src/bot/domain/policy.js';
import { isFinishedRequest, type RequestRecord } from '../../../src/bot/domain/record.js';
import { memoryAuditLog, memoryKv, memoryRepository } from '../../../src/bot/store/memory.js';
import { until } from '../../support/until.js';
import { sandboxForEngine } from './support/sandbox-requests.js';
import { APPROVERS, REQUESTER } from './support/world.js';

const TICK_MS = 1_000;
const POLL_MS = 5_000;

interface Replica {
  engine: Engine;
  leadership: LeadershipState;
  /** What this replica's notifier delivered. */
  delivered: RequestEvent[];
}

const stops: AbortController[] = [];
const closes: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0)) s.abort();
  for (const close of closes.splice(0)) await close();
});

/** One shared world (stores, the sandbox exchange, clock), and a replica builder over it. */
async function sharedWorld() {
  const clock = new FakeClock();
  const exchange = await sandboxForEngine('leadership', clock);
  closes.push(() => exchange.close());
  const requests = memoryRepository<RequestRecord>(isFinishedRequest);
  const kv = memoryKv();
  const audit = memoryAuditLog({ clock });
  const policy = createPolicy({ requesters: [REQUESTER], approvers: APPROVERS });
  const ids = new SequentialIds();
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  const replica = (role: 'leader' | 'follower'): Replica => {
    const leadership = new LeadershipState(role);
    const delivered: RequestEvent[] = [];
    const engine = createEngine({
      exchange: exchange.exchange,
      requests,
      kv,
      audit,
      notifier: { notify: (event: RequestEvent) => void delivered.push(event) },
      clock,
      ids,
      policy,
      config: { poll: { intervalMs: POLL_MS } },
      logger: quiet,
      leadership,
    });
    return { engine, leadership, delivered };
  };
  /** Starts a replica's run loop, as runBot does; stopped after the test. */
  const run = (r: Replica) => {
    const stop = new AbortController();
    stops.push(stop);
    void r.engine.run(stop.signal, TICK_MS);
  };
  const reads = () => exchange.withdrawalCalls().reads;
  const writes = () => exchange.withdrawalCalls().posts;
  return { clock, exchange, requests, audit, replica, run, reads, writes, cryptoInput: exchange.cryptoInput };
}

/** Lets the loops run what is due now (they wake on promises, not on the fake clock). */
const settle = () => new Promise((r) => setTimeout(r, 30));

describe('leadership across two replicas on one store', () => {
  it('a follower answers commands but neither executes, polls nor delivers; it takes over at once when it becomes leader', async () => {
    const w = await sharedWorld();
    const a = w.replica('leader');
    const b = w.replica('follower');
    w.run(b);

    // Everything happens on the follower: the request, both approvals.
    const made = await b.engine.request(REQUESTER, w.cryptoInput());
    if (!made.ok) throw new Error(made.message);
    const id = made.request.id;
    await b.engine.approve(id, 'U_A1', made.request.snapshotHash);
    const last = await b.engine.approve(id, 'U_A2', made.request.snapshotHash);
    expect(last).toMatchObject({ ok: true, approved: true, execution: undefined });
    for (let i = 0; i < 30; i++) {
      w.clock.advance(TICK_MS);
      await settle();
    }
    expect((await w.requests.get(id))!.state).toBe('approved');
    expect(w.writes()).toBe(0);
    expect(b.delivered).toEqual([]);
    expect(await b.engine.tick()).toEqual({ expired: 0, driven: 0, polled: 0, calls: 0, changed: 0, stopped: 0 });
    // Its events wait in the shared outbox for the leader.
    expect((await w.requests.outbox.pending()).map((e) => e.event.type)).toEqual([
      'request.created',
      'approval.counted',
      'approval.counted',
      'request.approved',
    ]);

    // The leader (never started its loop here) delivers and executes on its tick.
    await a.engine.tick();
    await a.engine.idle();
    expect((await w.requests.get(id))!.state).toBe('submitted');
    expect(w.writes()).toBe(1);
    expect(a.delivered.map((e) => e.type).slice(0, 4)).toEqual([
      'request.created',
      'approval.counted',
      'approval.counted',
      'request.approved',
    ]);
    expect(b.delivered).toEqual([]);

    // Leadership moves to B: its loop recovers and ticks without the clock moving a whole tick.
    a.leadership.set('follower');
    const readsBefore = w.reads();
    const started = w.audit.entries.filter((e) => e.type === 'engine.started').length;
    b.leadership.set('leader');
    await until(
      'the new leader to recover',
      () => (w.audit.entries.filter((e) => e.type === 'engine.started').length > started ? true : undefined),
      2_000,
    );
    // Polling: the next status read is due a poll interval after the submission, read by B.
    for (let i = 0; i < POLL_MS / TICK_MS + 1; i++) {
      w.clock.advance(TICK_MS);
      await settle();
    }
    expect(w.reads()).toBeGreaterThan(readsBefore);
    expect(await a.engine.tick()).toMatchObject({ polled: 0, calls: 0 });

    // And back to follower: B's loop stops polling.
    b.leadership.set('follower');
    await settle();
    const readsAsFollower = w.reads();
    for (let i = 0; i < 3 * (POLL_MS / TICK_MS); i++) {
      w.clock.advance(TICK_MS);
      await settle();
    }
    expect(w.reads()).toBe(readsAsFollower);
    expect(w.writes()).toBe(1);
  });

  it('a follower started on a store with approved work leaves it alone until it becomes leader, then executes it before its second tick', async () => {
    const w = await sharedWorld();
    const a = w.replica('leader');
    const made = await a.engine.request(REQUESTER, w.cryptoInput());
    if (!made.ok) throw new Error(made.message);
    // Approved on a follower that is gone; nobody executed it yet.
    const gone = w.replica('follower');
    await gone.engine.approve(made.request.id, 'U_A1', made.request.snapshotHash);
    await gone.engine.approve(made.request.id, 'U_A2', made.request.snapshotHash);

    const b = w.replica('follower');
    w.run(b);
    await settle();
    expect(w.writes()).toBe(0);
    b.leadership.set('leader');
    // Recovery executes approved work at once: no clock advance at all.
    await until('the new leader to execute', () => (w.writes() === 1 ? true : undefined), 2_000);
    await b.engine.idle();
    expect((await w.requests.get(made.request.id))!.state).toBe('submitted');
    expect(b.delivered.map((e) => e.type)).toContain('request.approved');
  });
});

describe('whileLeader', () => {
  it('runs a term per leadership and ends each term when leadership is lost or the signal aborts', async () => {
    const leadership = new LeadershipState('follower');
    const stop = new AbortController();
    const log: string[] = [];
    const loop = whileLeader(leadership, stop.signal, async (term) => {
      log.push('start');
      await new Promise((r) => term.addEventListener('abort', r, { once: true }));
      log.push('end');
    });
    await settle();
    expect(log).toEqual([]);
    leadership.set('leader');
    await settle();
    leadership.set('follower');
    await settle();
    leadership.set('leader');
    await settle();
    expect(log).toEqual(['start', 'end', 'start']);
    stop.abort();
    await loop;
    expect(log).toEqual(['start', 'end', 'start', 'end']);
  });
});
