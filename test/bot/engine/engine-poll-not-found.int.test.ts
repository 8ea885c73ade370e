/**
 * A record the bot follows that the exchange says does not exist (404, which the reference also
 * answers for another user's withdrawal) is never retried silently for ever, and never taken as an
 * outcome: past the bound (PollConfig.notFoundReads in a row over notFoundForMs, on the injected
 * clock) polling stops, the request stays submitted, and a person is told in its thread, audited,
 * through the outbox.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestEvent } from '../../../src/bot/ports/events.js';
import { threadPost } from '../../../src/bot/slack/approvals/thread-status.js';
import { requestAndApprove } from './support/flow.js';
import { sandboxWorld, type SandboxForEngine } from './support/sandbox-requests.js';
import type { World } from './support/world.js';

const BOUND = { notFoundReads: 3, notFoundForMs: 5 * 60_000 };
/** Reads every 10 s at first, backing off to 60 s: the bound is reached by time, not by count. */
const POLL = { intervalMs: 10_000, backoffFactor: 1.5, maxIntervalMs: 60_000, ...BOUND };

// The sandbox through the real client; a record "vanishes" by its control surface: dated out of the
// window the engine lists, and a 404 (what the reference answers for another user's) on reading it.
let sandbox: SandboxForEngine | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function onSandbox(): Promise<World> {
  const made = await sandboxWorld('engine-poll-not-found', { config: { poll: POLL } });
  sandbox = made.sandbox;
  return made.world;
}

/** The exchange no longer shows it: lists leave it out, a read answers 404. Returns how to bring it back. */
function hide(exchangeId: string): () => void {
  const control = sandbox!.sandbox.control;
  const createdAt = control.withdrawals().find((w) => w.id === exchangeId)!.created_at;
  control.redateWithdrawal(exchangeId, createdAt - 30 * 24 * 3_600_000);
  control.setFaults([{ kind: 'error', method: 'GET', path: `/crypto/withdrawals/${exchangeId}`, status: 404 }]);
  return () => {
    control.clearFaults();
    control.redateWithdrawal(exchangeId, createdAt);
  };
}

async function vanished(world: World): Promise<string> {
  const r = await requestAndApprove(world, sandbox!.cryptoInput());
  hide(r.execution!.exchangeId!);
  return r.id;
}

const singleReads = (_world?: World) =>
  sandbox!.sandbox.control.requests().filter((c) => c.method === 'GET' && /\/crypto\/withdrawals\/[^/]+$/.test(c.path))
    .length;
const stops = (world: World, id: string) =>
  world.eventsOf('polling.stopped', id) as Extract<RequestEvent, { type: 'polling.stopped' }>[];

describe('polling a record the exchange says does not exist', () => {
  it('backs off until the bound, then stops, keeps the request submitted and tells a person in the thread, audited', async () => {
    const world = await onSandbox();
    const id = await vanished(world);
    const started = world.clock.now();

    // Four minutes of 404s: more reads than the bound's count, but not for its time yet.
    while (world.clock.now() - started < 4 * 60_000) await world.advanceAndTick(10_000);
    expect(singleReads(world)).toBeGreaterThanOrEqual(BOUND.notFoundReads);
    expect(stops(world, id)).toEqual([]);
    expect((await world.record(id)).pollingStoppedAt).toBeNull();

    while (stops(world, id).length === 0 && world.clock.now() - started < 10 * 60_000)
      await world.advanceAndTick(10_000);
    const [stopped] = stops(world, id);
    expect(stopped).toMatchObject({ reason: 'not_found', exchangeMessage: expect.stringContaining('not_found 404') });
    expect(world.clock.now() - started).toBeGreaterThanOrEqual(BOUND.notFoundForMs);
    // Never an outcome guessed from a 404: still submitted, neither failed nor completed.
    const record = await world.record(id);
    expect(record).toMatchObject({ state: 'submitted', pollingStoppedAt: expect.any(Number), failure: null });
    expect(world.eventsOf('execution.failed', id)).toEqual([]);
    expect(world.eventsOf('request.completed', id)).toEqual([]);
    const [audited] = world.auditOf('polling.stopped', id);
    expect(audited?.data).toMatchObject({
      reason: 'not_found',
      notFoundReads: expect.any(Number),
      exchangeMessage: expect.stringContaining('not_found 404'),
    });
    expect((audited!.data as { notFoundReads: number }).notFoundReads).toBeGreaterThanOrEqual(BOUND.notFoundReads);

    // Told once, and not read again: also not after a restart.
    const reads = singleReads(world);
    await world.restart();
    for (let i = 0; i < 20; i++) await world.advanceAndTick(60_000);
    expect(singleReads(world)).toBe(reads);
    expect(stops(world, id)).toHaveLength(1);
  });

  it('a read that answers in between starts the count again', async () => {
    const world = await onSandbox();
    const r = await requestAndApprove(world, sandbox!.cryptoInput());
    const exchangeId = r.execution!.exchangeId!;
    // Held in flight, so it is still followed when it answers again.
    sandbox!.sandbox.control.setWithdrawalStatus(exchangeId, 'processing');
    const back = hide(exchangeId);
    const started = world.clock.now();
    while (world.clock.now() - started < 4 * 60_000) await world.advanceAndTick(10_000);
    // It answers again for a while, then disappears again.
    back();
    await world.advanceAndTick(60_000);
    await world.advanceAndTick(60_000);
    hide(exchangeId);
    const again = world.clock.now();
    while (world.clock.now() - again < 4 * 60_000) await world.advanceAndTick(10_000);
    expect(stops(world, r.id)).toEqual([]);
    while (stops(world, r.id).length === 0 && world.clock.now() - again < 10 * 60_000)
      await world.advanceAndTick(10_000);
    expect(stops(world, r.id)).toHaveLength(1);
    expect(world.clock.now() - again).toBeGreaterThanOrEqual(BOUND.notFoundForMs);
  });

  it('the thread says what the reference says a 404 means, and that the outcome is unknown', () => {
    const post = threadPost({
      type: 'polling_stopped',
      at: 0,
      status: 'pending',
      notFound: { what: 'withdrawal', exchangeMessage: 'getCryptoWithdrawal failed (not_found 404): Not found' },
    });
    const text = JSON.stringify(post);
    expect(text).toContain('does not exist');
    expect(text).toContain('belongs to another user');
    expect(text).toContain('The outcome is unknown');
    expect(text).toContain('Not found');
  });
});
