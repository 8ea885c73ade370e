/**
 * A trade in doubt has a way out, and never a false "failed" (issue 20, section 4). The real
 * engine and client against the sandbox over HTTP, time moving 5 s a tick on the injected clock
 * (the sandbox's); nothing waits in real time.
 *
 * - The order's answer is lost and the exchange commits it 14 minutes later, while the order list
 *   fails for the first 90 s and quotes fail for 5 minutes. Before: re-quoted, then "failed"
 *   ("Could not get a quote after 5 tries") while its order filled later. Expected: never failed;
 *   the order is found by its client_order_id and followed.
 * - The order's answer is lost, its re-quote refused as a duplicate client_order_id, and the late
 *   order then refused by the exchange (the balance was spent meanwhile). Before: waiting forever,
 *   nobody asked. Expected: a person is asked after the settle window (Look again / Mark as not
 *   placed); marking it not placed ends it failed on a fresh look, audited.
 */
import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../src/bot/domain/record.js';
import type { FaultRule } from '../../src/stand-ins/sandbox/faults.js';
import { DESK_PEOPLE } from './support/desk.js';
import { requestPlan } from './support/memory-desk.js';
import { approvePlan, findTagged, type PlanItem } from './support/plan.js';
import { slowExchangeBot, type SlowExchangeBot } from './support/slow-exchange.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const TICK_MS = 5_000;

type Trial = SlowExchangeBot & { item: PlanItem };

async function trial(seed: string, faults: FaultRule[]): Promise<Trial> {
  const desk = await slowExchangeBot({ seed, startMs: T0, faults });
  const [item] = requestPlan(desk.sandbox, ['trade']);
  return { ...desk, item: item! };
}

const orders = (t: Trial) => t.sandbox.state.accounts.get('main')!.orders;

/** Ticks until the sandbox clock reaches `until` (ms after T0), calling `each` with the record after every tick. */
async function runUntil(
  t: Trial,
  until: number,
  each: (record: RequestRecord, at: number) => void = () => {},
): Promise<RequestRecord> {
  let record = (await findTagged(t.engine, t.item.tag))!;
  while (t.sandbox.clock.now() < T0 + until) {
    t.sandbox.control.advance(TICK_MS);
    await t.engine.tick();
    await t.engine.idle();
    record = (await findTagged(t.engine, t.item.tag))!;
    each(record, t.sandbox.clock.now() - T0);
  }
  return record;
}

describe('a trade in doubt', () => {
  it('its order commits 14 minutes late while lists fail for 90 s and quotes for 5 minutes: never failed, found by its client_order_id and followed', async () => {
    const listsDown: FaultRule = { kind: 'error', status: 503, method: 'GET', path: '/orders' };
    const quotesDown: FaultRule = { kind: 'error', status: 503, method: 'POST', path: '/order_quotes' };
    const t = await trial('trade-doubt-quotes-down', [
      { kind: 'late_commit', method: 'POST', path: '/orders', commitAfterMs: 840_000, answer: 'drop', times: 1 },
    ]);
    await approvePlan(t.engine, [t.item]);
    expect((await findTagged(t.engine, t.item.tag))!.state).toBe('unknown');
    t.sandbox.control.setFaults([listsDown, quotesDown]);
    const states = new Set<string>();
    await runUntil(t, 90_000, (r) => states.add(r.state));
    t.sandbox.control.setFaults([quotesDown]);
    await runUntil(t, 300_000, (r) => states.add(r.state));
    t.sandbox.control.clearFaults();
    const last = await runUntil(t, 20 * 60_000, (r) => states.add(r.state));

    expect(states.has('failed'), `states seen: ${[...states].join(', ')}`).toBe(false);
    expect(orders(t)).toHaveLength(1);
    expect(['submitted', 'completed']).toContain(last.state);
    expect(last.execution?.exchangeId).toBe(orders(t)[0]!.id);
  }, 120_000);

  it('its re-quote refused as a duplicate and its late order refused: a person is asked after the settle window, and marking it not placed ends it on a fresh look', async () => {
    const t = await trial('trade-doubt-stuck-duplicate', [
      { kind: 'late_commit', method: 'POST', path: '/orders', commitAfterMs: 300_000, answer: 'drop', times: 1 },
    ]);
    await approvePlan(t.engine, [t.item]);
    const sends: string[] = [];
    await runUntil(t, 290_000, (r) => sends.push(...(r.execution?.attempts.map((a) => a.outcome) ?? [])));
    // The premise: the re-quoted order was refused as a duplicate client_order_id.
    expect(sends).toContain('duplicate');
    // The balance the order needs is spent by hand before the exchange commits it: the late order is refused.
    const usd = t.sandbox.state.accounts.get('main')!.balances.get('USD')!;
    usd.regular = '0';
    const asked = await runUntil(t, 20 * 60_000);
    expect(orders(t)).toHaveLength(0);
    expect(asked.state).toBe('unknown');
    expect(asked.execution?.inDoubt?.question).toMatchObject({ kind: 'not_found', candidates: [] });
    expect(t.audit.entries.filter((e) => e.type === 'execution.needs_person' && e.requestId === asked.id)).toHaveLength(
      1,
    );

    const approver = DESK_PEOPLE.approvers.find((a) => a !== asked.requester)!;
    expect(await t.engine.settle(asked.id, approver, { action: 'send_again', checked: 'No order.' })).toMatchObject({
      ok: false,
      reason: 'not_waiting_for_person',
    });
    const marked = await t.engine.settle(asked.id, approver, {
      action: 'mark_not_sent',
      checked: 'No order with its client order id in the history.',
    });
    expect(marked).toMatchObject({ ok: true, outcome: 'carried_out' });
    await t.engine.idle();
    const ended = (await t.engine.get(asked.id))!;
    expect(ended.state).toBe('failed');
    expect(ended.failure?.reason).toMatch(/^Marked as not placed by a person/);
    expect(
      t.audit.entries
        .filter((e) => e.type === 'execution.person_decided' && e.requestId === asked.id)
        .map((e) => e.actor),
    ).toEqual([approver]);
  }, 120_000);
});
