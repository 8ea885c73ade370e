/** The AckGate: work after an ack waits for the other acks, never longer than its bound. */
import { describe, expect, it } from 'vitest';
import { AckGate } from '../../../../src/bot/slack/shell/ack-gate.js';

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

  it('lets held work go one listener per turn of the event loop, oldest first', async () => {
    const gate = new AckGate(5_000, 0);
    const answer = gate.enter();
    const order: string[] = [];
    const held = ['a', 'b', 'c'].map((name) => gate.clear().then(() => order.push(name)));
    answer();
    const turn = () => new Promise((r) => setImmediate(r));
    await turn();
    expect(order).toEqual(['a']);
    await turn();
    expect(order).toEqual(['a', 'b']);
    await Promise.all(held);
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('holds the rest again when a request arrives between two releases', async () => {
    const gate = new AckGate(5_000);
    const first = gate.enter();
    const order: string[] = [];
    const held = ['a', 'b'].map((name) => gate.clear().then(() => order.push(name)));
    first();
    await held[0];
    const second = gate.enter();
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['a']);
    second();
    await held[1];
    expect(order).toEqual(['a', 'b']);
  });

  it('holds work until no request has arrived for a quiet period: the next of a burst may still be unread', async () => {
    const gate = new AckGate(5_000, 30);
    const answer = gate.enter();
    const arrived = performance.now();
    answer();
    await gate.clear();
    expect(performance.now() - arrived).toBeGreaterThanOrEqual(25);
  });

  it('lets work held to its bound go while requests still wait, but one listener per turn', async () => {
    const gate = new AckGate(20, 0);
    gate.enter(); // never answered: a steady stream of requests
    const order: string[] = [];
    const held = ['a', 'b', 'c'].map((name) => gate.clear().then(() => order.push(name)));
    await held[0];
    expect(order).toEqual(['a']);
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['a', 'b']);
    await Promise.all(held);
    expect(order).toEqual(['a', 'b', 'c']);
  });
});
