/**
 * Knowing our own withdrawals (issue 20, sections 1, 3 and 5), through the real engine and client
 * against the sandbox over HTTP, exchange time on the injected clock:
 * - a late commit carries our desk reference in its note and is followed within one look, long
 *   before the settle window would have let terms and time adopt it;
 * - a withdrawal made by hand in the exchange's app 3 s before a send that was dropped (nothing
 *   reached the exchange) has our terms, and is never taken for ours: a person is asked, its time
 *   shown;
 * - an exchange that drops notes (the drop_notes fault) leaves terms and time to judge: a record
 *   made during our call cannot be told from one made by hand seconds before (a person says);
 *   one committed a minute later, alone, is adopted once the window has closed;
 * - an account with 2,100 fiat withdrawals (a list with no time filter): a look reads only the
 *   page that reaches back past our send, so absence is proven and a person asked in time.
 */
import { describe, expect, it } from 'vitest';
import type { Engine, RequestInput } from '../../src/bot/engine/engine.js';
import type { RequestRecord } from '../../src/bot/domain/record.js';
import type { FaultRule, Sandbox } from '../../src/stand-ins/sandbox/index.js';
import { DESK_PEOPLE } from './support/desk.js';
import { makeFaultKey, type FaultKey } from './support/keys.js';
import { memoryEngine } from './support/memory-desk.js';
import { frozenSandbox, sandboxClient } from './support/slow-exchange.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const TICK_MS = 5_000;
const SETTLE_MS = 10 * 60_000;
const LOOK_MS = 15_000;

interface Trial {
  sandbox: Sandbox;
  engine: Engine;
  /** Another client of the same account: the exchange's own app, used by a person by hand. */
  app: ReturnType<typeof sandboxClient>;
  /** Fiat list pages the bot asked for. */
  fiatListPages: () => number;
}

const client = (sandbox: Sandbox, key: FaultKey) => sandboxClient(sandbox, key, { timeoutMs: 2_000 });

async function trial(seed: string, faults: FaultRule[] = []): Promise<Trial> {
  const bot = makeFaultKey();
  const app = makeFaultKey();
  const sandbox = await frozenSandbox({
    seed,
    startMs: T0,
    keys: [
      { publicKeyHex: bot.publicKeyHex, scopes: ['read', 'transfer', 'trade'] },
      { publicKeyHex: app.publicKeyHex, scopes: ['read', 'transfer'] },
    ],
    faults,
  });
  const clock = { now: () => sandbox.clock.now(), sleep: async () => {} };
  const { engine } = memoryEngine({
    exchange: client(sandbox, bot),
    clock,
    config: { poll: { intervalMs: 10_000, maxIntervalMs: 60_000 } },
  });
  await engine.start();
  const fiatListPages = () =>
    sandbox.control.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/fiat/withdrawals')).length;
  return { sandbox, engine, app: client(sandbox, app), fiatListPages };
}

function cryptoInput(sandbox: Sandbox, amount = '123.45'): Extract<RequestInput, { kind: 'crypto_withdrawal' }> {
  const address = sandbox.state.accounts.get('main')!.addressBook.find((a) => a.label === 'OTC partner (TRC20)')!;
  return { kind: 'crypto_withdrawal', cryptoCurrencyId: 104, addressBookId: address.id, amount };
}

function fiatInput(sandbox: Sandbox, amount = '1500.5'): Extract<RequestInput, { kind: 'fiat_withdrawal' }> {
  const usd = sandbox.state.accounts.get('main')!.bankAccounts.find((b) => b.currency === 'USD')!;
  return { kind: 'fiat_withdrawal', currency: 'USD', bankAccountId: usd.id, amount };
}

/** Requested and approved by one approver: the second approval (`send`) sends it. */
async function requested(
  t: Trial,
  input: RequestInput,
): Promise<{ request: RequestRecord; send: () => Promise<RequestRecord> }> {
  const made = await t.engine.request(DESK_PEOPLE.requester, input);
  if (!made.ok) throw new Error(made.message);
  const first = await t.engine.approve(made.request.id, DESK_PEOPLE.approvers[0], made.request.snapshotHash);
  if (!first.ok) throw new Error(first.message);
  return {
    request: made.request,
    send: async () => {
      const last = await t.engine.approve(made.request.id, DESK_PEOPLE.approvers[1], made.request.snapshotHash);
      if (!last.ok) throw new Error(last.message);
      await last.execution;
      await t.engine.idle();
      return (await t.engine.get(made.request.id))!;
    },
  };
}

/** Moves exchange time on by `ms`, a tick every 5 s; stops early once `until` holds. */
async function run(t: Trial, ms: number, until?: (r: RequestRecord) => boolean, id?: string): Promise<number> {
  for (let waited = 0; waited < ms; waited += TICK_MS) {
    if (until && id && until((await t.engine.get(id))!)) return waited;
    t.sandbox.control.advance(TICK_MS);
    await t.engine.tick();
    await t.engine.idle();
  }
  return ms;
}

/** POSTs of withdrawals over HTTP (the sandbox's own late commits are not requests). */
const sends = (t: Trial, what: 'crypto' | 'fiat') =>
  t.sandbox.control
    .requests()
    .filter(
      (r) => r.method === 'POST' && r.path.endsWith(`/${what}/withdrawals`) && r.fault !== 'late_commit:committed',
    ).length;

describe('a late commit is known by its desk reference', () => {
  for (const kind of ['crypto', 'fiat'] as const) {
    it(`${kind}: committed 2 minutes after the bot gave up, followed within one look, not after the settle window`, async () => {
      const path = kind === 'crypto' ? '/crypto/withdrawals' : '/fiat/withdrawals';
      const t = await trial(`late-reference-${kind}`, [
        { kind: 'late_commit', method: 'POST', path, commitAfterMs: 120_000, answer: 'gateway_timeout', times: 1 },
      ]);
      const { request, send } = await requested(t, kind === 'crypto' ? cryptoInput(t.sandbox) : fiatInput(t.sandbox));
      expect(request.snapshot).toMatchObject({ exchangeNote: `desk ${request.id}-1` });
      expect((await send()).state).toBe('unknown');
      await run(t, 120_000);
      const account = t.sandbox.state.accounts.get('main')!;
      const made =
        kind === 'crypto'
          ? account.withdrawals.filter((w) => w.created_at >= T0).map((w) => ({ id: w.id, note: w.note }))
          : account.fiatWithdrawals.filter((w) => w.created_at >= T0).map((w) => ({ id: String(w.id), note: w.note }));
      expect(made).toEqual([{ id: expect.any(String), note: `desk ${request.id}-1` }]);
      const waited = await run(t, SETTLE_MS, (r) => r.state !== 'unknown', request.id);
      const done = (await t.engine.get(request.id))!;
      expect(done).toMatchObject({ state: 'submitted', execution: { exchangeId: made[0]!.id } });
      expect(waited).toBeLessThanOrEqual(LOOK_MS + TICK_MS);
      expect(sends(t, kind)).toBe(1);
    }, 60_000);
  }
});

describe('nothing made before our send is ours', () => {
  it('a look-alike made by hand 3 s before a dropped send is never adopted: a person is asked, its time shown', async () => {
    const t = await trial('look-alike-before-send');
    const input = cryptoInput(t.sandbox);
    const { request, send } = await requested(t, input);
    // Someone pays the same amount to the same address in the exchange's app, without a note.
    const byHand = await t.app.createCryptoWithdrawal({
      crypto_currency_id: input.cryptoCurrencyId,
      amount: input.amount,
      address_book_address_id: input.addressBookId,
    });
    t.sandbox.control.advance(3_000);
    // The bot's send is dropped before the exchange acts on it.
    t.sandbox.control.addFault({ kind: 'drop', method: 'POST', path: '/crypto/withdrawals', times: 1 });
    expect((await send()).state).toBe('unknown');
    await run(t, 2 * 60_000);
    const asked = (await t.engine.get(request.id))!;
    expect(asked.state).toBe('unknown');
    expect(asked.execution!.inDoubt!.question).toMatchObject({
      kind: 'unproven',
      candidates: [{ exchangeId: byHand.id, createdAt: byHand.created_at }],
    });
    await run(t, SETTLE_MS);
    const later = (await t.engine.get(request.id))!;
    expect(later.state).toBe('unknown');
    expect(later.execution!.exchangeId).toBeNull();
    // The person says it is not ours: from then on it never counts, and the approved payment is still owed.
    const decided = await t.engine.settle(request.id, DESK_PEOPLE.approvers[2], {
      action: 'choose',
      exchangeId: null,
      checked: 'Made by hand by Sam at 08:59:57, before our send.',
    });
    expect(decided.ok).toBe(true);
    await t.engine.idle();
    expect((await t.engine.get(request.id))!.execution!.inDoubt!.question).toMatchObject({ kind: 'not_found' });
    expect(t.sandbox.state.accounts.get('main')!.withdrawals.filter((w) => w.created_at >= T0)).toHaveLength(1);
    // The app's withdrawal and the bot's one dropped send: nothing was sent again.
    expect(sends(t, 'crypto')).toBe(2);
  }, 60_000);
});

describe('an exchange that drops notes: terms and time are the fallback', () => {
  it('committed during our call, then dropped: too close to the send to prove, a person says whether it is ours', async () => {
    const t = await trial('drop-notes-in-call', [
      { kind: 'drop_notes', method: 'POST', path: '/crypto/withdrawals', times: 1 },
      { kind: 'drop_after_commit', method: 'POST', path: '/crypto/withdrawals', times: 1 },
    ]);
    const { request, send } = await requested(t, cryptoInput(t.sandbox));
    expect((await send()).state).toBe('unknown');
    const ours = t.sandbox.state.accounts.get('main')!.withdrawals.at(-1)!;
    expect(ours.note).toBeNull();
    await run(t, 30_000);
    const asked = (await t.engine.get(request.id))!;
    expect(asked.execution!.inDoubt!.question).toMatchObject({
      kind: 'unproven',
      candidates: [{ exchangeId: ours.id }],
    });
    const decided = await t.engine.settle(request.id, DESK_PEOPLE.approvers[2], {
      action: 'choose',
      exchangeId: ours.id,
      checked: 'The only one on the exchange, to the OTC partner at 09:00.',
    });
    expect(decided).toMatchObject({ ok: true, request: { state: 'submitted', execution: { exchangeId: ours.id } } });
    expect(sends(t, 'crypto')).toBe(1);
  }, 60_000);

  it('committed a minute late without its note, alone: adopted by terms once the settle window has closed, never sent again', async () => {
    const t = await trial('drop-notes-late', [
      { kind: 'drop_notes', method: 'POST', path: '/crypto/withdrawals', times: 1 },
      {
        kind: 'late_commit',
        method: 'POST',
        path: '/crypto/withdrawals',
        commitAfterMs: 60_000,
        answer: 'drop',
        times: 1,
      },
    ]);
    const { request, send } = await requested(t, cryptoInput(t.sandbox));
    expect((await send()).state).toBe('unknown');
    await run(t, 5 * 60_000);
    const ours = t.sandbox.state.accounts.get('main')!.withdrawals.at(-1)!;
    expect(ours).toMatchObject({ note: null, created_at: T0 + 60_000 });
    // Terms and time prove nothing before the window closes: it waits.
    expect((await t.engine.get(request.id))!.state).toBe('unknown');
    await run(t, SETTLE_MS, (r) => r.state !== 'unknown', request.id);
    expect((await t.engine.get(request.id))!).toMatchObject({ state: 'submitted', execution: { exchangeId: ours.id } });
    expect(sends(t, 'crypto')).toBe(1);
  }, 60_000);
});

describe('searches that can end', () => {
  it('2,100 fiat withdrawals in the history: each look reads only what reaches back past our send; absence is proven and a person asked', async () => {
    const t = await trial('fiat-history');
    const input = fiatInput(t.sandbox);
    // Two years of withdrawals made over the desk's life, some on the very same terms.
    for (let i = 0; i < 2_100; i++)
      t.sandbox.control.injectFiatWithdrawal({
        currency: 'USD',
        amount: i % 7 === 0 ? input.amount : String(100 + i),
        createdAt: T0 - (i + 1) * 8 * 3_600_000,
      });
    const { request, send } = await requested(t, input);
    t.sandbox.control.addFault({ kind: 'drop', method: 'POST', path: '/fiat/withdrawals', times: 1 });
    const pagesBefore = t.fiatListPages();
    expect((await send()).state).toBe('unknown');
    await run(t, SETTLE_MS + 30_000, (r) => r.execution?.inDoubt?.question != null, request.id);
    const asked = (await t.engine.get(request.id))!;
    expect(asked.execution!.inDoubt!.question).toMatchObject({ kind: 'not_found', candidates: [] });
    const looks = asked.execution!.inDoubt!.looks + 1;
    // A page of 100 holds every record since the send and the first older one: one page a look.
    expect(t.fiatListPages() - pagesBefore).toBeLessThanOrEqual(looks);
    expect(sends(t, 'fiat')).toBe(1);
  }, 60_000);
});
