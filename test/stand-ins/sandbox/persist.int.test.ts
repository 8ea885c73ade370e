/**
 * The sandbox survives a restart as a payment provider's test mode does: what it gave `save` (its
 * ledger, records, generators, writes taken late and its clock) brings a new sandbox back where
 * the old one stopped, so the same withdrawal is found, moves on, and the next ids continue.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decodeSandbox } from '../../../src/stand-ins/sandbox/persist.js';
import { createSandboxClock } from '../../../src/stand-ins/sandbox/sandbox-clock.js';
import { startTestSandbox, T0, V1, type TestSandbox } from './support/sandbox.js';

const open: TestSandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

/** A sandbox on a manual clock whose saves land in `saves`, continuing from `restore` when given. */
async function start(saves: string[], restore?: string): Promise<TestSandbox> {
  // A restart makes a new key pair, as the bot's embedded sandbox does; a restored sandbox runs on its saved clock.
  const clock = restore
    ? createSandboxClock({ resume: decodeSandbox(restore).clock })
    : createSandboxClock({ startMs: T0, followRealTime: false });
  const t = await startTestSandbox({ clock, save: (text) => void saves.push(text), ...(restore ? { restore } : {}) });
  open.push(t);
  return t;
}

const withdraw = (t: TestSandbox, addressId: string) =>
  t.api('POST', `${V1}/crypto/withdrawals`, {
    body: { crypto_currency_id: 101, amount: '0.07', address_book_address_id: addressId },
  });

describe('a restarted sandbox continues from its last save', () => {
  it('keeps the withdrawal, the balance, the clock and the sequence of ids; the withdrawal moves on after the restart', async () => {
    const saves: string[] = [];
    const first = await start(saves);
    const book = (await first.api('GET', `${V1}/address_book/addresses?page[size]=50`)).body as {
      id: string;
      label: string;
    }[];
    const cold = book.find((a) => a.label === 'Treasury cold storage')!.id;
    const made = await withdraw(first, cold);
    expect(made.status).toBe(201);
    // Saved before the answer went out.
    expect(saves.length).toBeGreaterThan(0);
    expect(
      decodeSandbox(saves.at(-1)!)
        .state.accounts.get('main')!
        .withdrawals.some((w) => w.id === made.body.id),
    ).toBe(true);
    first.sandbox.control.advance(5_000);
    const balance = first.sandbox.control.balances().find((b) => b.currency === 'BTC');
    const stoppedAt = first.sandbox.clock.now();
    await first.close();
    open.splice(0);

    // Nothing else holds the state: only the last text saved.
    const second = await start([], saves.at(-1));
    expect(second.sandbox.clock.now()).toBe(stoppedAt);
    expect(second.sandbox.control.balances().find((b) => b.currency === 'BTC')).toEqual(balance);
    const found = await second.api('GET', `${V1}/crypto/withdrawals/${made.body.id}`);
    expect(found.status).toBe(200);
    expect(found.body.amount).toBe('0.07');
    second.sandbox.control.advance(10 * 60_000);
    const later = await second.api('GET', `${V1}/crypto/withdrawals/${made.body.id}`);
    expect(later.body.status).toBe('completed');
    // The generators continue: the next withdrawal has a new id, not the first one again.
    const next = await withdraw(second, cold);
    expect(next.status).toBe(201);
    expect(next.body.id).not.toBe(made.body.id);
  });

  it('a write the exchange took and had not committed yet is committed after the restart, authenticated with the key it came with', async () => {
    const saves: string[] = [];
    const first = await start(saves);
    const book = (await first.api('GET', `${V1}/address_book/addresses?page[size]=50`)).body as {
      id: string;
      label: string;
    }[];
    first.sandbox.control.setFaults([
      {
        kind: 'late_commit',
        method: 'POST',
        path: '/crypto/withdrawals',
        commitAfterMs: 60_000,
        answer: 'gateway_timeout',
        times: 1,
      },
    ]);
    expect((await withdraw(first, book.find((a) => a.label === 'Treasury cold storage')!.id)).status).toBe(504);
    const before = first.sandbox.control.withdrawals().length;
    await first.close();
    open.splice(0);

    // The next run has a key of its own; the write keeps the one it was signed with.
    const second = await start([], saves.at(-1));
    second.sandbox.control.advance(60_000);
    expect(second.sandbox.control.withdrawals()).toHaveLength(before + 1);
    expect(second.sandbox.control.requests().some((r) => r.fault === 'late_commit:committed' && r.status === 201)).toBe(
      true,
    );
  });

  it('a clock that follows real time keeps its lead on the wall clock across the restart', () => {
    let wall = T0;
    const clock = createSandboxClock({ wallNow: () => wall });
    clock.advance(60_000);
    wall += 1_000;
    const reading = clock.reading();
    expect(reading).toEqual({ now: T0 + 61_000, aheadMs: 60_000 });
    // Ten minutes pass while nothing runs: they pass on the exchange too.
    wall += 600_000;
    const resumed = createSandboxClock({ resume: reading, wallNow: () => wall });
    expect(resumed.now()).toBe(wall + 60_000);
    // A wall clock set back never takes the exchange back before its saved time.
    wall = T0 - 3_600_000;
    expect(createSandboxClock({ resume: reading, wallNow: () => wall }).now()).toBe(T0 + 61_000);
  });

  it('an answer that changes nothing writes nothing', async () => {
    const saves: string[] = [];
    const t = await start(saves);
    await t.api('GET', `${V1}/crypto_currencies`);
    const after = saves.length;
    await t.api('GET', `${V1}/crypto_currencies`);
    await t.api('GET', `${V1}/crypto_currencies`);
    expect(saves.length).toBe(after);
  });

  it('a field the state objects gain persists without a change to the codec', async () => {
    const saves: string[] = [];
    const t = await start(saves);
    const main = t.sandbox.state.accounts.get('main')!;
    (main as unknown as { extra: unknown }).extra = { nested: new Map([['k', ['v']]]) };
    t.sandbox.control.advance(1);
    // An answer goes out once the saves before it are done.
    await t.api('GET', `${V1}/crypto_currencies`);
    const back = decodeSandbox(saves.at(-1)!).state.accounts.get('main') as unknown as {
      extra: { nested: Map<string, string[]> };
    };
    expect(back.extra.nested.get('k')).toEqual(['v']);
  });
});
