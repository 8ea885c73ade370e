/**
 * A person settles what the exchange could not: who may decide, what each decision does, and
 * look-alike withdrawals (made before our send, after it, two at once) that are never adopted by
 * guesswork.
 */
import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../../src/bot/domain/record.js';
import { termsClaimKey } from '../../../src/bot/engine/execution/look-alikes.js';
import { exchangeNoteOf } from '../../../src/bot/domain/desk-reference.js';
import type { EngineExchange, Scripted } from './support/engine-exchange.js';
import { worldOnSandbox } from './support/world.js';
import { requestAndApprove } from './support/flow.js';
import { cryptoInput } from './support/seeded.js';
import type { World } from './support/world.js';

// The sandbox in process: a lost send is its hang (nothing done) or drop_after_commit (done, the answer
// lost); look-alikes are withdrawals made in the exchange's app (injectWithdrawal) at the time given.
const lostBefore: Scripted = { kind: 'hang' };
const committedThenLost: Scripted = { kind: 'drop_after_commit' };
const WINDOW = 10 * 60_000;

/** A withdrawal whose send was lost, taken through the whole settle window: a person is asked. */
async function waitingForPerson(world: World, exchange: EngineExchange, amount = '100'): Promise<RequestRecord> {
  // One earlier withdrawal of other terms, as a desk has: the list is not empty.
  expect((await requestAndApprove(world, cryptoInput('20'))).state).toBe('submitted');
  exchange.fail('createCryptoWithdrawal', lostBefore);
  const r = await requestAndApprove(world, cryptoInput(amount));
  for (let i = 0; i < WINDOW / 30_000 + 1; i++) await world.advanceAndTick(30_000);
  const waiting = await world.record(r.id);
  expect(waiting.execution!.inDoubt!.question).toMatchObject({ kind: 'not_found' });
  return waiting;
}

/** A withdrawal made by hand in the exchange's app with the same terms as `like`, and no note: held pending, recorded at `createdAt`. */
function strangerLike(
  exchange: EngineExchange,
  like: RequestRecord,
  createdAt: number,
  ours?: { note: string | null },
): string {
  const s = like.snapshot;
  if (s.kind !== 'crypto_withdrawal') throw new Error('fixture');
  const control = exchange.sandbox.control;
  const { id } = control.injectWithdrawal({
    body: {
      crypto_currency_id: s.cryptoCurrencyId,
      amount: s.amount,
      address_book_address_id: s.destination.id,
      request_id: ours ? like.execution!.attempts[0]!.key : 'made-by-hand',
      ...(ours?.note ? { note: ours.note } : {}),
    },
  });
  control.setWithdrawalStatus(id, 'pending');
  control.redateWithdrawal(id, createdAt);
  return id;
}

/** Our send of `like`, committed late by a slow exchange: its request_id (not listed) and, unless the exchange drops notes, its note. */
function oursLate(exchange: EngineExchange, like: RequestRecord, createdAt: number, dropsNotes = false): string {
  return strangerLike(exchange, like, createdAt, { note: dropsNotes ? null : exchangeNoteOf(like.snapshot, 1) });
}

/** One withdrawal done, then one whose send was lost (nothing reached the exchange); the client has measured the exchange's clock. */
async function lostAfterASeed(): Promise<{ world: World; exchange: EngineExchange; r: RequestRecord }> {
  const { world, exchange } = worldOnSandbox();
  expect((await requestAndApprove(world, cryptoInput('20'))).state).toBe('submitted');
  expect(exchange.client.clockOffsetMs()).toEqual(expect.any(Number));
  exchange.fail('createCryptoWithdrawal', lostBefore);
  return { world, exchange, r: await requestAndApprove(world, cryptoInput('100')) };
}

const sends = (exchange: EngineExchange) => exchange.calls('createCryptoWithdrawal');

describe('who may settle an unknown outcome', () => {
  it('the requester and outsiders may not send again, mark as not sent or choose; a blank "checked" is refused', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await waitingForPerson(world, exchange);
    expect(await world.engine.settle(r.id, 'U_REQ', { action: 'send_again', checked: 'looked' })).toMatchObject({
      ok: false,
      reason: 'own_request_decision',
    });
    expect(await world.engine.settle(r.id, 'U_OUT', { action: 'mark_not_sent', checked: 'looked' })).toMatchObject({
      ok: false,
      reason: 'not_approver',
    });
    expect(await world.engine.settle(r.id, 'U_A2', { action: 'send_again', checked: '   ' })).toMatchObject({
      ok: false,
      reason: 'checked_required',
    });
    expect(
      await world.engine.settle(r.id, 'U_A2', { action: 'choose', exchangeId: 'nope', checked: 'looked' }),
    ).toMatchObject({ ok: false, reason: 'not_a_candidate' });
    expect(sends(exchange)).toBe(2);
    expect(world.auditOf('execution.decision_refused', r.id)).toHaveLength(4);
    // The requester may ask to look again.
    expect(await world.engine.settle(r.id, 'U_REQ', { action: 'look_again' })).toMatchObject({ ok: true });
  });

  it('send again: persisted with who and what they checked, audited, sent once with a new key, then followed', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await waitingForPerson(world, exchange);
    const decided = await world.engine.settle(r.id, 'U_A2', {
      action: 'send_again',
      checked: 'No 100 USDT withdrawal in the history since 09:00.',
    });
    expect(decided).toMatchObject({ ok: true, request: { state: 'executing' } });
    await world.engine.idle();
    const done = await world.record(r.id);
    expect(done.state).toBe('submitted');
    expect(sends(exchange)).toBe(3);
    expect(new Set(done.execution!.attempts.map((a) => a.key)).size).toBe(2);
    expect(done.execution!.decisions).toEqual([
      expect.objectContaining({
        by: 'U_A2',
        action: 'send_again',
        checked: 'No 100 USDT withdrawal in the history since 09:00.',
      }),
    ]);
    expect(world.auditOf('execution.person_decided', r.id)[0]).toMatchObject({
      actor: 'U_A2',
      data: { action: 'send_again' },
    });
    expect(world.eventsOf('execution.person_decided', r.id)).toHaveLength(1);
    // A second click on the old buttons finds nothing to decide.
    expect(await world.engine.settle(r.id, 'U_A1', { action: 'send_again', checked: 'again' })).toMatchObject({
      ok: false,
      reason: 'not_waiting_for_person',
    });
  });

  it('send again waits for the terms claim: a request in doubt from before the claim (it holds none) whose twin took the claim meanwhile is refused twin_in_doubt, nothing sent', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await waitingForPerson(world, exchange);
    expect(await world.kv.get(termsClaimKey(r))).toBe(r.id);
    await world.kv.set(termsClaimKey(r), undefined);
    // The look-alike takes the free claim, sees R in doubt on the live records, and waits (keeping the claim: first in line).
    const lookAlike = await requestAndApprove(world, cryptoInput('100'));
    expect(lookAlike.state).toBe('approved');
    expect(await world.kv.get(termsClaimKey(r))).toBe(lookAlike.id);
    expect(
      await world.engine.settle(r.id, 'U_A2', { action: 'send_again', checked: 'Not in the history.' }),
    ).toMatchObject({ ok: false, reason: 'twin_in_doubt' });
    expect(world.auditOf('execution.decision_refused', r.id)).toEqual([
      expect.objectContaining({ data: { action: 'send_again', reason: 'twin_in_doubt' } }),
    ]);
    expect(sends(exchange)).toBe(2);
    expect((await world.record(r.id)).state).toBe('unknown');
  });

  it('mark as not sent ends the request as failed, audited, and nothing more is sent', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await waitingForPerson(world, exchange);
    expect(
      await world.engine.settle(r.id, 'U_A2', {
        action: 'mark_not_sent',
        checked: 'Support confirmed nothing was created.',
      }),
    ).toMatchObject({ ok: true, request: { state: 'failed' } });
    const done = await world.record(r.id);
    expect(done.failure).toMatchObject({
      stage: 'reconcile',
      reason: expect.stringContaining('Support confirmed nothing was created.'),
    });
    for (let i = 0; i < 5; i++) await world.advanceAndTick(120_000);
    expect(sends(exchange)).toBe(2);
  });

  it('a withdrawal that appears after the question is followed, and the question goes', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await waitingForPerson(world, exchange);
    // The slow exchange commits our send at last, our desk reference in its note.
    const late = oursLate(exchange, r, world.clock.now() - 60_000);
    await world.advanceAndTick(120_000);
    const done = await world.record(r.id);
    expect(done).toMatchObject({ state: 'submitted', execution: { exchangeId: late, inDoubt: null } });
    expect(sends(exchange)).toBe(2);
  });
});

describe('look-alike withdrawals are never taken by guesswork', () => {
  it('made before our send: never a candidate', async () => {
    const { world, exchange } = worldOnSandbox();
    exchange.fail('createCryptoWithdrawal', committedThenLost);
    world.clock.advance(60_000);
    // Seed a stranger created two minutes before anything of ours (clone the shape from a first withdrawal).
    const first = await requestAndApprove(world, cryptoInput('20'));
    expect(first.state).toBe('submitted');
    world.clock.advance(120_000);
    const stranger = strangerLike(
      exchange,
      { ...first, snapshot: { ...first.snapshot, amount: '100' } as RequestRecord['snapshot'] },
      world.clock.now() - 30_000,
    );
    exchange.fail('createCryptoWithdrawal', committedThenLost);
    const r = await requestAndApprove(world, cryptoInput('100'));
    const done = await world.record(r.id);
    expect(done.state).toBe('submitted');
    expect(done.execution!.exchangeId).not.toBe(stranger);
  });

  it('made after our send while ours was committed too: ours is known by its reference at once, the look-alike is never taken', async () => {
    const { world, exchange, r } = await lostAfterASeed();
    world.clock.advance(20_000);
    const stranger = strangerLike(exchange, r, world.clock.now());
    world.clock.advance(10_000);
    const ours = oursLate(exchange, r, world.clock.now());
    await world.advanceAndTick(15_000);
    const now = await world.record(r.id);
    expect(now).toMatchObject({ state: 'submitted', execution: { exchangeId: ours } });
    expect(world.auditOf('execution.reconciled', r.id)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ matchedBy: 'reference' }) }),
    ]);
    expect(now.execution!.exchangeId).not.toBe(stranger);
  });

  it('two withdrawals carrying our reference (paid twice): neither is taken on its own, a person sees both', async () => {
    const { world, exchange, r } = await lostAfterASeed();
    world.clock.advance(20_000);
    const first = oursLate(exchange, r, world.clock.now());
    world.clock.advance(1_000);
    const second = oursLate(exchange, r, world.clock.now());
    await world.advanceAndTick(15_000);
    const now = await world.record(r.id);
    expect(now.state).toBe('unknown');
    expect(now.execution!.inDoubt!.question).toMatchObject({ kind: 'ambiguous' });
    expect(now.execution!.inDoubt!.question!.candidates.map((c) => c.exchangeId).sort()).toEqual(
      [first, second].sort(),
    );
    expect(
      world.logs.some((l) => l.level === 'error' && /more than one withdrawal on the exchange carries/.test(l.message)),
    ).toBe(true);
  });

  it('an exchange that drops notes, ours committed late and a look-alike after our send: both are shown, an approver says which; the stranger cancelling changes nothing', async () => {
    const { world, exchange, r } = await lostAfterASeed();
    // Ours commits late (after the client gave up), and someone makes a look-alike by hand.
    world.clock.advance(20_000);
    const ours = oursLate(exchange, r, world.clock.now(), true);
    world.clock.advance(30_000);
    const stranger = strangerLike(exchange, r, world.clock.now());
    for (let i = 0; i < 4; i++) await world.advanceAndTick(15_000);
    let now = await world.record(r.id);
    expect(now.state).toBe('unknown');
    expect(now.execution!.inDoubt!.question).toMatchObject({ kind: 'ambiguous' });
    expect(now.execution!.inDoubt!.question!.candidates.map((c) => c.exchangeId).sort()).toEqual(
      [ours, stranger].sort(),
    );
    expect(world.eventsOf('execution.needs_person', r.id)).toHaveLength(1);
    const decided = await world.engine.settle(r.id, 'U_A1', {
      action: 'choose',
      exchangeId: ours,
      checked: 'Ours went to the cold wallet at 09:01; the other was made in the app by Sam.',
    });
    expect(decided).toMatchObject({ ok: true, request: { state: 'submitted' } });
    exchange.sandbox.control.setWithdrawalStatus(stranger, 'cancelled');
    exchange.sandbox.control.setWithdrawalStatus(ours, 'completed');
    for (let i = 0; i < 3; i++) await world.advanceAndTick(60_000);
    now = await world.record(r.id);
    expect(now).toMatchObject({ state: 'completed', execution: { exchangeId: ours } });
    expect(sends(exchange)).toBe(2);
  });

  it('"none of these": the candidates never count again, and the question becomes "not found"', async () => {
    const { world, exchange, r } = await lostAfterASeed();
    world.clock.advance(20_000);
    const a = strangerLike(exchange, r, world.clock.now());
    world.clock.advance(1_000);
    const b = strangerLike(exchange, r, world.clock.now());
    for (let i = 0; i < 3; i++) await world.advanceAndTick(15_000);
    expect((await world.record(r.id)).execution!.inDoubt!.question!.kind).toBe('ambiguous');
    expect(
      await world.engine.settle(r.id, 'U_A2', {
        action: 'choose',
        exchangeId: null,
        checked: 'Both were made by hand by Sam.',
      }),
    ).toMatchObject({ ok: true });
    await world.engine.idle();
    const now = await world.record(r.id);
    expect(now.execution!.inDoubt).toMatchObject({ excluded: [a, b], question: { kind: 'not_found', candidates: [] } });
    expect(sends(exchange)).toBe(2);
  });
});

describe('people settling at the worst moment', () => {
  it('two approvers send again at the same instant: one withdrawal more, never two; the other is refused', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await waitingForPerson(world, exchange);
    const results = await Promise.all([
      world.engine.settle(r.id, 'U_A1', { action: 'send_again', checked: 'Not in the history.' }),
      world.engine.settle(r.id, 'U_A2', { action: 'send_again', checked: 'Not there either.' }),
    ]);
    await world.engine.idle();
    expect(results.filter((x) => x.ok)).toHaveLength(1);
    expect(results.filter((x) => !x.ok)).toEqual([expect.objectContaining({ reason: 'not_waiting_for_person' })]);
    expect(sends(exchange)).toBe(3);
    expect((await world.record(r.id)).execution!.decisions).toHaveLength(1);
  });

  it('the same click delivered twice (Slack redelivers): sent again once', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await waitingForPerson(world, exchange);
    const click = () => world.engine.settle(r.id, 'U_A1', { action: 'send_again', checked: 'Not in the history.' });
    const results = await Promise.all([click(), click()]);
    await world.engine.idle();
    expect(results.filter((x) => x.ok)).toHaveLength(1);
    expect(sends(exchange)).toBe(3);
  });

  it('send again and mark as not sent at once: only the first counts; the request is not both sent and failed', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await waitingForPerson(world, exchange);
    const [sent, marked] = await Promise.all([
      world.engine.settle(r.id, 'U_A1', { action: 'send_again', checked: 'Not in the history.' }),
      world.engine.settle(r.id, 'U_A2', { action: 'mark_not_sent', checked: 'Support says nothing was made.' }),
    ]);
    await world.engine.idle();
    expect(sent).toMatchObject({ ok: true });
    expect(marked).toMatchObject({ ok: false, reason: 'not_waiting_for_person' });
    const done = await world.record(r.id);
    expect(done.state).toBe('submitted');
    expect(done.failure ?? null).toBeNull();
    expect(sends(exchange)).toBe(3);
  });

  it('look again, then send again while that look is on the exchange: the send acts on what the look found', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await waitingForPerson(world, exchange);
    // The slow exchange commits our send at last (its note), just as a requester asks to look again.
    const late = oursLate(exchange, r, world.clock.now() - 60_000);
    const [looked, sent] = await Promise.all([
      world.engine.settle(r.id, 'U_REQ', { action: 'look_again' }),
      world.engine.settle(r.id, 'U_A1', { action: 'send_again', checked: 'Not in the history when I looked.' }),
    ]);
    await world.engine.idle();
    expect(looked).toMatchObject({ ok: true });
    expect(sent).toMatchObject({ ok: false, reason: 'not_waiting_for_person' });
    expect(await world.record(r.id)).toMatchObject({ state: 'submitted', execution: { exchangeId: late } });
    expect(sends(exchange)).toBe(2);
  });

  it('a decision made on a question that has since changed (a look-alike appeared) is refused, nothing failed or sent', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await waitingForPerson(world, exchange);
    const seen = r.execution!.inDoubt!.question!.askedAt;
    // A withdrawal of its terms appears after the window (no note): the next look asks whether it is ours.
    const appeared = strangerLike(exchange, r, world.clock.now());
    await world.advanceAndTick(120_000);
    const now = await world.record(r.id);
    expect(now.execution!.inDoubt!.question).toMatchObject({
      kind: 'ambiguous',
      candidates: [expect.objectContaining({ exchangeId: appeared })],
    });
    // The approver answers the "not found" they were shown: the engine (under the request's lock) refuses it.
    for (const settlement of [
      { action: 'mark_not_sent', checked: 'Nothing in the history.', askedAt: seen },
      { action: 'choose', exchangeId: null, checked: 'None of them.', askedAt: seen },
    ] as const)
      expect(await world.engine.settle(r.id, 'U_A2', settlement)).toMatchObject({
        ok: false,
        reason: 'question_changed',
      });
    await world.engine.idle();
    expect((await world.record(r.id)).state).toBe('unknown');
    expect(sends(exchange)).toBe(2);
    // On the question now open, it counts.
    expect(
      await world.engine.settle(r.id, 'U_A2', {
        action: 'choose',
        exchangeId: appeared,
        checked: 'That one is ours.',
        askedAt: now.execution!.inDoubt!.question!.askedAt,
      }),
    ).toMatchObject({ ok: true, request: { state: 'submitted' } });
  });
});

describe('a crash after each write of a person’s decision', () => {
  const CASES = [
    { action: 'send_again', committed: false },
    { action: 'send_again', committed: true },
    { action: 'mark_not_sent', committed: false },
    { action: 'mark_not_sent', committed: true },
  ] as const;
  for (const c of CASES)
    it(`${c.action}, ${c.committed ? 'ours committed late meanwhile' : 'nothing on the exchange'}: never two withdrawals, never failed over one that exists`, async () => {
      for (let k = 1; ; k++) {
        const { world, exchange } = worldOnSandbox();
        const r = await waitingForPerson(world, exchange);
        const late = c.committed ? oursLate(exchange, r, world.clock.now() - 60_000) : undefined;
        world.crashAfterWrites(k);
        await world.engine
          .settle(r.id, 'U_A2', { action: c.action, checked: 'Not in the history.' })
          .then(() => world.engine.idle())
          .catch(() => undefined);
        const crashed = world.crashed;
        if (crashed) await world.restart();
        else world.crashAfterWrites(Number.POSITIVE_INFINITY);
        for (let i = 0; i < 6; i++) await world.advanceAndTick(60_000);
        const after = await world.record(r.id);
        const ofTerms = exchange.sandbox.control.withdrawals().filter((w) => w.amount === '100');
        const at = `crash after write ${k}`;
        expect(ofTerms.length, at).toBeLessThanOrEqual(1);
        if (late !== undefined) {
          expect(after.execution?.exchangeId, at).toBe(late);
          expect(['submitted', 'completed'], at).toContain(after.state);
        } else if (c.action === 'mark_not_sent') {
          expect(ofTerms, at).toHaveLength(0);
          expect(['failed', 'unknown'], at).toContain(after.state);
        } else if (ofTerms.length === 1) {
          expect(['submitted', 'completed'], at).toContain(after.state);
        } else {
          expect(after.state, at).toBe('unknown');
        }
        if (!crashed) {
          // The decision's writes were each a crash point (its record, the look, the send or the end).
          expect(k).toBeGreaterThan(2);
          break;
        }
      }
    });
});

describe('another replica asks a new question between the check of a decision and its write', () => {
  it('the decision, checked against the old question, is not carried out: refused question_changed, nothing failed', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await waitingForPerson(world, exchange);
    const seen = r.execution!.inDoubt!.question!.askedAt;
    const appeared = strangerLike(exchange, r, world.clock.now());
    // The first read of the decision (its check) sees the old question; just after it, another
    // replica's look stores the new one, showing the withdrawal that appeared.
    const get = world.requests.get.bind(world.requests);
    let reads = 0;
    world.requests.get = async (id) => {
      const record = await get(id);
      if (id === r.id && ++reads === 1 && record?.execution?.inDoubt) {
        const inDoubt = record.execution.inDoubt;
        const candidate = {
          exchangeId: appeared,
          createdAt: world.clock.now(),
          amount: '100',
          status: 'pending',
          requestId: null,
          destination: null,
        };
        await world.requests.mutate(id, (current) => ({
          next: {
            ...current!,
            updatedAt: world.clock.now() + 1,
            execution: {
              ...current!.execution!,
              inDoubt: {
                ...inDoubt,
                question: { askedAt: world.clock.now() + 1, kind: 'ambiguous', candidates: [candidate] },
              },
            },
          },
          result: undefined,
        }));
      }
      return record;
    };
    const decided = await world.engine.settle(r.id, 'U_A2', {
      action: 'mark_not_sent',
      checked: 'Nothing in the history.',
      askedAt: seen,
    });
    await world.engine.idle();
    expect(decided).toMatchObject({ ok: false, reason: 'question_changed' });
    const after = await world.record(r.id);
    expect(after.state).toBe('unknown');
    expect(after.execution!.decisions).toEqual([]);
    expect(sends(exchange)).toBe(2);
  });
});

describe('choosing a candidate acts on a fresh look too', () => {
  it('our withdrawal (its desk reference) appeared after the question: the stranger chosen on the old view is not taken, ours is', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await waitingForPerson(world, exchange);
    const stranger = strangerLike(exchange, r, world.clock.now());
    await world.advanceAndTick(120_000);
    const asked = (await world.record(r.id)).execution!.inDoubt!.question!;
    expect(asked).toMatchObject({ kind: 'ambiguous', candidates: [expect.objectContaining({ exchangeId: stranger })] });
    // Ours is committed at last, before the bot's next look; an approver takes the stranger for ours.
    const ours = oursLate(exchange, r, world.clock.now());
    const decided = await world.engine.settle(r.id, 'U_A2', {
      action: 'choose',
      exchangeId: stranger,
      checked: 'That looks like ours.',
      askedAt: asked.askedAt,
    });
    await world.engine.idle();
    expect(decided).toMatchObject({ ok: true, outcome: 'withheld' });
    expect(await world.record(r.id)).toMatchObject({ state: 'submitted', execution: { exchangeId: ours } });
    expect(world.auditOf('execution.person_decision_withheld', r.id)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ action: 'choose', reason: 'found' }) }),
    ]);
    expect(sends(exchange)).toBe(2);
  });
});

describe("a second person's decision while the first waits for its look", () => {
  it('refused decision_pending, audited; the first is carried out by the next look, never replaced unsaid', async () => {
    const { world, exchange } = worldOnSandbox();
    const r = await waitingForPerson(world, exchange);
    // A replica stored U_A1's send again and stopped before its look came back.
    const first = {
      by: 'U_A1',
      at: world.clock.now(),
      action: 'send_again',
      exchangeId: null,
      checked: 'Not there.',
    } as const;
    await world.requests.mutate(r.id, (current) => ({
      next: {
        ...current!,
        updatedAt: world.clock.now(),
        execution: {
          ...current!.execution!,
          inDoubt: { ...current!.execution!.inDoubt!, pendingDecision: first },
        },
      },
      result: undefined,
    }));
    const second = await world.engine.settle(r.id, 'U_A2', {
      action: 'mark_not_sent',
      checked: 'Support says nothing was made.',
      askedAt: r.execution!.inDoubt!.question!.askedAt,
    });
    expect(second).toMatchObject({ ok: false, reason: 'decision_pending' });
    expect(world.auditOf('execution.decision_refused', r.id).at(-1)?.data).toMatchObject({
      reason: 'decision_pending',
    });
    await world.advanceAndTick(1_000);
    await world.engine.idle();
    const after = await world.record(r.id);
    expect(after.execution!.decisions).toEqual([expect.objectContaining({ by: 'U_A1', action: 'send_again' })]);
    expect(after.failure ?? null).toBeNull();
    expect(sends(exchange)).toBe(3);
  });
});
