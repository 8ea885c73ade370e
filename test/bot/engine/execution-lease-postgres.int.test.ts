/**
 * The execution lease on PostgreSQL: two replicas of the engine, each on its own pool of one
 * database (nothing in one process's memory orders them), both leaders at once (the moment a
 * leadership changes hands), against one sandbox exchange over real HTTP. Racing the same approved
 * requests, they send each exactly once; racing to take over a dead holder's expired lease, one
 * takes it and looks, and nothing is sent again; a COMMIT whose answer is really lost on the wire
 * (a TCP proxy drops it) is read back from the database, which proves the claim landed.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../../../src/bot/engine/engine-config.js';
import type { AuditEntryInput, AuditLog } from '../../../src/bot/ports/store.js';
import type { Clock } from '../../../src/bot/ports/clock.js';
import type { ExchangePort } from '../../../src/bot/ports/exchange-port.js';
import type { RequestRecord } from '../../../src/bot/domain/record.js';
import { createLogger } from '../../../src/bot/runtime/logger.js';
import { openStores, type Stores } from '../../../src/bot/runtime/stores.js';
import { createPolicy } from '../../../src/bot/domain/policy.js';
import { describePostgres, usePostgres } from '../../support/postgres.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import { holdSends, startLeaseWorld, type LeaseStores, type LeaseWorld } from './support/lease-replicas.js';

const TTL = DEFAULT_ENGINE_CONFIG.leaseTtlMs;
const wallClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()),
};
const quiet = createLogger({ level: 'error', secrets: [], write: () => {} });
/** Distinct amounts, as the engine keeps them (no trailing zero). */
const amountOf = (i: number) => `0.04560${i + 1}1`;

describePostgres('the execution lease on PostgreSQL, two replicas on two pools', () => {
  const pg = usePostgres();
  let url: string;
  let w: LeaseWorld | undefined;
  let proxy: TcpProxy | undefined;
  const opened: Stores[] = [];
  /** Every audit line either replica appended, in the order appended. */
  let audited: AuditEntryInput[];

  beforeEach(async () => {
    url = await pg.cluster.createDatabase();
    audited = [];
  });
  afterEach(async () => {
    await w?.close();
    w = undefined;
    for (const s of opened.splice(0)) await s.close();
    await proxy?.close();
    proxy = undefined;
  });

  /** The stores of one replica: its own pool on the database (through `via` when given). */
  async function pool(via?: TcpProxy): Promise<LeaseStores> {
    const stores = await openStores(
      { databaseUrl: via ? url.replace(`:${pg.cluster.port}/`, `:${via.port}/`) : url },
      wallClock,
      [],
      quiet,
    );
    opened.push(stores);
    const tee: AuditLog = { append: async (entry) => (await stores.audit.append(entry), void audited.push(entry)) };
    return { requests: stores.requests, kv: stores.kv, audit: tee };
  }

  const linesOf = (type: string, requestId: string) =>
    audited.filter((e) => e.type === type && e.requestId === requestId);
  const get = async (id: string): Promise<RequestRecord> => (await opened[0]!.requests.get(id))!;

  it('a limit holds across replicas: two approving two requests that together exceed it, one is approved and executes', async () => {
    const [one, two] = [await pool(), await pool()];
    const limits = ['USDT', 'BTC', 'ETH', 'USDC'].map((asset) => ({
      name: `daily ${asset}`,
      match: { asset },
      windowMs: 86_400_000,
      max: '0.05',
      over: 'refuse' as const,
    }));
    const policy = createPolicy({ requesters: ['U_REQ'], approvers: ['U_A1', 'U_A2'], limits });
    w = await startLeaseWorld({ seed: 'lease-pg-limit', stores: one, policy });
    const a = w.replica('replica-a', { role: 'leader' });
    const b = w.replica('replica-b', { role: 'leader', stores: two });
    const made: RequestRecord[] = [];
    for (const r of [a, b]) {
      const m = await r.engine.request('U_REQ', w.withdrawal('0.03'));
      if (!m.ok) throw new Error(m.message);
      await r.engine.approve(m.request.id, 'U_A1', m.request.snapshotHash);
      made.push(m.request);
    }
    // Each fits alone (0.03 of 0.05), not both: the last approvals race, one on each replica's pool.
    const results = await Promise.all(
      [a, b].map((r, i) => r.engine.approve(made[i]!.id, 'U_A2', made[i]!.snapshotHash)),
    );
    expect(results.filter((r) => r.ok && r.approved)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([
      expect.objectContaining({
        reason: 'over_limit',
        message: expect.stringContaining('0.03 BTC is used, 0.02 BTC is left'),
      }),
    ]);
    for (const r of results) if (r.ok) await r.execution?.catch(() => undefined);
    for (let i = 0; i < 5 && w.withdrawalCalls().posts === 0; i++) await w.advance(1_000);
    expect(w.withdrawalCalls().posts).toBe(1);
    const states = await Promise.all(made.map(async (m) => (await get(m.id)).state));
    expect(states.filter((s) => s === 'pending')).toHaveLength(1);
  });

  it('racing the same approved requests, each replica checks every one of them and each is sent exactly once', async () => {
    const [one, two] = [await pool(), await pool()];
    w = await startLeaseWorld({ seed: 'lease-pg-race', stores: one });
    const N = 6;
    // Every check waits until both replicas are checking every request: then all of them race to claim.
    let arrived = 0;
    let open!: () => void;
    const barrier = new Promise<void>((resolve) => (open = resolve));
    const checks = { a: 0, b: 0 };
    let racing = false;
    const checking =
      (who: 'a' | 'b') =>
      (port: ExchangePort): ExchangePort => ({
        ...port,
        // Making a request reads the currency entries too: only the checks before a send count.
        currencyEntries: async () => {
          if (!racing) return port.currencyEntries();
          checks[who]++;
          if (++arrived === 2 * N) open();
          await Promise.race([barrier, new Promise((resolve) => setTimeout(resolve, 5_000))]);
          return port.currencyEntries();
        },
      });
    const a = w.replica('replica-a', { role: 'follower', exchange: checking('a') });
    const b = w.replica('replica-b', { role: 'follower', stores: two, exchange: checking('b') });
    const ids: string[] = [];
    for (let i = 0; i < N; i++) ids.push((await w.approve(i % 2 ? a : b, amountOf(i))).id);
    for (const id of ids) expect((await get(id)).state).toBe('approved');

    racing = true;
    a.leadership.set('leader');
    b.leadership.set('leader');
    for (let round = 0; round < 3; round++) {
      await Promise.all([a.engine.tick(), b.engine.tick()]);
      await Promise.all([a.engine.idle(), b.engine.idle()]);
    }
    expect(checks).toEqual({ a: N, b: N });
    for (const [i, id] of ids.entries()) {
      const amount = amountOf(i);
      const sent = w.sandbox.control.withdrawals().filter((x) => x.amount === amount);
      expect(sent, amount).toHaveLength(1);
      expect(await get(id)).toMatchObject({ state: 'submitted', execution: { exchangeId: sent[0]!.id, lease: null } });
      expect(linesOf('lease.claimed', id)).toHaveLength(1);
    }
    expect(w.withdrawalCalls().posts).toBe(N);
    expect([...a.logs, ...b.logs].filter((l) => l.level === 'error')).toEqual([]);
  });

  it("racing to take over a dead holder's expired lease: one replica takes it and looks, the other keeps off, nothing is sent again", async () => {
    const [one, two] = [await pool(), await pool()];
    w = await startLeaseWorld({ seed: 'lease-pg-takeover', stores: one });
    const held = holdSends(w.port);
    const dead = w.replica('replica-dead', { frozen: true, exchange: () => held.port });
    const a = w.replica('replica-a', { role: 'follower' });
    const b = w.replica('replica-b', { role: 'follower', stores: two });
    const { id } = await w.approve(dead, '0.04560101');
    await held.committed;
    dead.leadership.set('follower');
    a.leadership.set('leader');
    b.leadership.set('leader');

    const before = w.withdrawalCalls();
    await w.advance(TTL - 1);
    await Promise.all([a.engine.tick(), b.engine.tick()]);
    await Promise.all([a.engine.idle(), b.engine.idle()]);
    expect(await get(id)).toMatchObject({ state: 'executing', execution: { lease: { holder: 'replica-dead' } } });
    expect(w.withdrawalCalls()).toEqual(before);

    await w.advance(1);
    await Promise.all([a.engine.tick(), b.engine.tick()]);
    await Promise.all([a.engine.idle(), b.engine.idle()]);
    const sent = w.sandbox.control.withdrawals().filter((x) => x.amount === '0.04560101');
    expect(sent).toHaveLength(1);
    expect(await get(id)).toMatchObject({ state: 'submitted', execution: { exchangeId: sent[0]!.id, lease: null } });
    const takeovers = linesOf('lease.taken_over', id);
    expect(takeovers).toHaveLength(1);
    expect(takeovers[0]!.data).toMatchObject({
      previousHolder: 'replica-dead',
      holder: expect.stringMatching(/^replica-[ab]$/),
    });
    expect(w.withdrawalCalls().posts).toBe(1);

    held.release();
    await dead.engine.idle();
    expect(linesOf('lease.lost', id).map((e) => e.data)).toEqual([
      { holder: 'replica-dead', heldBy: null, state: 'submitted' },
    ]);
    expect(w.withdrawalCalls().posts).toBe(1);
  });

  it('the answer to the COMMIT of the claim lost on the wire: the record read back proves the claim landed, and it is sent once', async () => {
    proxy = await startTcpProxy({ host: '127.0.0.1', port: pg.cluster.port });
    const cutOff = proxy;
    const stores = await pool(cutOff);
    w = await startLeaseWorld({ seed: 'lease-pg-lost-commit', stores });
    const a = w.replica('replica-a', { role: 'follower' });
    const { id } = await w.approve(a, '0.04560201');
    // The claim is the UPDATE that writes the request as executing; the COMMIT after it loses its answer.
    let armed = false;
    let cut = 0;
    cutOff.cutWhen = (chunk) => {
      if (chunk.includes('UPDATE records') && chunk.includes('"state":"executing"')) armed = true;
      else if (armed && chunk.includes('COMMIT\0')) {
        armed = false;
        cut++;
        return true;
      }
      return false;
    };
    a.leadership.set('leader');
    await a.engine.tick();
    await a.engine.idle();
    cutOff.cutWhen = undefined;
    expect(cut).toBe(1);
    expect(a.logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: expect.stringMatching(/lost the answer to a write; read back, it landed: going on/),
      }),
    );
    expect(await get(id)).toMatchObject({ state: 'submitted', execution: { lease: null } });
    expect(w.sandbox.control.withdrawals().filter((x) => x.amount === '0.04560201')).toHaveLength(1);
    expect(w.withdrawalCalls().posts).toBe(1);
  });
  for (const action of ['send_again', 'mark_not_sent'] as const) {
    it(`${action} decided on another replica after the withdrawal appeared late: that replica looks under its lease first, finds it and follows it; nothing is sent again or failed`, async () => {
      const [one, two] = [await pool(), await pool()];
      w = await startLeaseWorld({
        seed: `lease-pg-decision-${action}`,
        stores: one,
        config: { unknownSettleWindowMs: 20_000 },
      });
      const a = w.replica('replica-a');
      const b = w.replica('replica-b', { role: 'follower', stores: two });
      // The exchange takes the withdrawal, answers 504, and commits it 40 s later.
      w.sandbox.control.setFaults([
        {
          kind: 'late_commit',
          method: 'POST',
          path: '/crypto/withdrawals',
          commitAfterMs: 40_000,
          answer: 'gateway_timeout',
          times: 1,
        },
      ]);
      const { id } = await w.approve(a, '0.04560301');
      await a.engine.idle();
      for (let i = 0; i < 2; i++) {
        await w.advance(15_000);
        await a.engine.tick();
        await a.engine.idle();
      }
      expect((await get(id)).execution!.inDoubt!.question).toMatchObject({ kind: 'not_found' });
      // Committed meanwhile (before the leader's next look, two minutes on).
      await w.advance(15_000);
      expect(await b.engine.settle(id, 'U_A1', { action, checked: 'Not in the exchange history.' })).toMatchObject({
        ok: true,
        outcome: 'withheld',
      });
      await b.engine.idle();
      const sent = w.sandbox.control.withdrawals().filter((x) => x.amount === '0.04560301');
      expect(sent).toHaveLength(1);
      expect(await get(id)).toMatchObject({ state: 'submitted', execution: { exchangeId: sent[0]!.id, lease: null } });
      expect(linesOf('execution.person_decision_withheld', id).map((e) => e.data)).toEqual([
        { action, by: 'U_A1', reason: 'found', appeared: [] },
      ]);
    });
  }
});
