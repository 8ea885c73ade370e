/** The AckGate: work after an ack waits for the other acks, never longer than its bound. */
import { describe, expect, it } from 'vitest';
import { AckGate } from '../../src/slack/ack-gate.js';

describe('AckGate', () => {
  it('lets work go on once no request waits for its ack', async () => {
    const gate = new AckGate(5_000);
    const first = gate.enter();
    const second = gate.enter();
    const order: string[] = [];
    const waited = gate.clear().then(() => order.push('work'));
    first();
    first(); // idempotent: a finish and a close of one response count once
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual([]);
    expect(gate.waiting).toBe(1);
    order.push('last ack');
    second();
    await waited;
    expect(order).toEqual(['last ack', 'work']);
  });

  it('never holds work longer than its bound', async () => {
    const gate = new AckGate(20);
    gate.enter();
    const started = Date.now();
    await gate.clear();
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('without waiting requests it is one turn of the event loop', async () => {
    const gate = new AckGate();
    let later = false;
    setImmediate(() => (later = true));
    await gate.clear();
    expect(later).toBe(true);
  });
});
