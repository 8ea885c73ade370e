/**
 * A person's settlement acts on a fresh look (issue 20, section 2). A withdrawal's answer is lost
 * and the exchange commits it 630 s later; the bot asks a person at 600 s (settle window closed,
 * nothing found); at 660 s the withdrawal is listed, and before the bot's next look an approver
 * confirms "Send again…" or "Mark as not sent". Real engine and client against the sandbox over
 * HTTP, time moving 5 s a tick on the injected clock (the sandbox's).
 *
 * Expected: the decision is not carried out. Nothing is sent again, nothing ends `failed`; the
 * withdrawal the exchange holds carries our desk reference in its note (crypto and fiat): ours,
 * followed. When the exchange drops its note (fiat, drop_notes), it is matched by terms only:
 * shown to the person, the question asked again.
 */
import { describe, expect, it } from 'vitest';
import { cmp } from '../../src/bot/domain/money.js';
import type { RequestRecord } from '../../src/bot/domain/record.js';
import { DESK_PEOPLE } from './support/desk.js';
import { requestPlan, type PlanKind } from './support/memory-desk.js';
import { approvePlan, findTagged, type PlanItem } from './support/plan.js';
import { slowExchangeBot, type SlowExchangeBot } from './support/slow-exchange.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const COMMIT_AFTER_MS = 630_000;
const DECIDE_AT_MS = 660_000;
const TICK_MS = 5_000;

type Trial = SlowExchangeBot & { item: PlanItem };

async function trial(kind: Extract<PlanKind, 'crypto' | 'fiat'>, dropNotes = false): Promise<Trial> {
  const desk = await slowExchangeBot({
    seed: `person-fresh-look-${kind}`,
    startMs: T0,
    faults: [
      { kind: 'late_commit', method: 'POST', path: '/crypto/withdrawals', commitAfterMs: COMMIT_AFTER_MS, times: 1 },
      {
        kind: 'late_commit',
        method: 'POST',
        path: '/fiat/withdrawals',
        commitAfterMs: COMMIT_AFTER_MS,
        answer: 'gateway_timeout',
        times: 1,
      },
      ...(dropNotes ? [{ kind: 'drop_notes' as const, method: 'POST', path: `/${kind}/withdrawals`, times: 1 }] : []),
    ],
  });
  const [item] = requestPlan(desk.sandbox, [kind]);
  return { ...desk, item: item! };
}

/** Withdrawals of the request's amount the exchange created since T0. */
function created(t: Trial): string[] {
  const account = t.sandbox.state.accounts.get('main')!;
  const input = t.item.input;
  if (input.kind === 'crypto_withdrawal')
    return account.withdrawals.filter((w) => w.created_at >= T0 && cmp(w.amount, input.amount) === 0).map((w) => w.id);
  if (input.kind === 'fiat_withdrawal')
    return account.fiatWithdrawals
      .filter((w) => w.created_at >= T0 && cmp(w.amount, input.amount) === 0)
      .map((w) => String(w.id));
  throw new Error('withdrawals only');
}

/** Approves, then ticks until the sandbox clock reaches `until` (ms after T0). */
async function runUntil(t: Trial, until: number): Promise<RequestRecord> {
  await approvePlan(t.engine, [t.item]);
  while (t.sandbox.clock.now() < T0 + until) {
    t.sandbox.control.advance(TICK_MS);
    await t.engine.tick();
    await t.engine.idle();
  }
  return (await findTagged(t.engine, t.item.tag))!;
}

const CASES = [
  { kind: 'crypto', action: 'send_again' },
  { kind: 'crypto', action: 'mark_not_sent' },
  { kind: 'fiat', action: 'send_again' },
  { kind: 'fiat', action: 'mark_not_sent' },
  { kind: 'fiat', action: 'send_again', dropNotes: true },
  { kind: 'fiat', action: 'mark_not_sent', dropNotes: true },
] as const;

describe('a person decides at 660 s on a withdrawal the exchange committed at 630 s', () => {
  for (const c of CASES) {
    const dropNotes = 'dropNotes' in c && c.dropNotes;
    it(`${c.kind}${dropNotes ? ' (the exchange drops its note)' : ''}, ${c.action}: the decision is not carried out; nothing sent twice, nothing failed, what appeared is shown`, async () => {
      const t = await trial(c.kind, dropNotes);
      const before = await runUntil(t, DECIDE_AT_MS);
      // The premise: asked "not found" at the window's close, the exchange holding it since 630 s, no look since.
      expect(before.state).toBe('unknown');
      expect(before.execution?.inDoubt?.question?.kind).toBe('not_found');
      expect(created(t)).toHaveLength(1);

      const approver = DESK_PEOPLE.approvers.find((a) => a !== before.requester)!;
      const decided = await t.engine.settle(before.id, approver, {
        action: c.action,
        checked: 'Not in the exchange history when I looked.',
      });
      await t.engine.idle();
      const after = (await t.engine.get(before.id))!;
      const made = created(t);

      expect(made, 'withdrawals on the exchange').toHaveLength(1);
      expect(t.sends.get(c.kind === 'crypto' ? 'createCryptoWithdrawal' : 'createFiatWithdrawal')).toBe(1);
      expect(after.state).not.toBe('failed');
      expect(after.state).not.toBe('executing');
      expect(decided.ok).toBe(true);
      const notCarried = t.audit.entries.filter(
        (e) => e.type === 'execution.person_decision_withheld' && e.requestId === before.id,
      );
      if (!dropNotes) {
        // Its note carries our desk reference: ours, found by it, followed.
        expect(after.state).toBe('submitted');
        expect(after.execution?.exchangeId).toBe(made[0]);
      } else {
        // No note: matched by terms only, shown to the person, asked again.
        expect(after.state).toBe('unknown');
        expect(after.execution?.inDoubt?.question?.kind).toBe('ambiguous');
        expect(after.execution?.inDoubt?.question?.candidates.map((x) => x.exchangeId)).toEqual(made);
      }
      expect(notCarried, 'audited: the decision was not carried out').toHaveLength(1);
      expect(notCarried[0]!.data).toMatchObject({ action: c.action });
    }, 60_000);
  }
});
