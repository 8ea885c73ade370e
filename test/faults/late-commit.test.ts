/**
 * A slow exchange, not a down one: every money-moving write is taken, answered with nothing in
 * time, and committed 5, 15, 60 or 900 seconds later on the exchange's clock (the sandbox fault
 * late_commit). A crypto withdrawal, a fiat withdrawal and a trade go through the real engine and
 * the real client against the sandbox, time moving 5 s a tick on the injected clock for 25 minutes.
 *
 * Expected, for every delay: no second withdrawal and no second order; every request ends followed
 * on the exchange (tracking the one record that was created) or waiting for a person; and a
 * withdrawal is never sent again by the bot on its own. Both withdrawals carry the bot's desk
 * reference in their note, so each is followed as soon as it appears, even at 900 s, after the
 * window (test/faults/attribution.test.ts covers the fallback when the exchange drops notes).
 */
import { describe, expect, it } from 'vitest';
import { cmp } from '../../src/bot/domain/money.js';
import { requestPlan } from './support/memory-desk.js';
import { approvePlan, findTagged, type PlanItem } from './support/plan.js';
import { slowExchangeBot, type SlowExchangeBot } from './support/slow-exchange.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const DELAYS_S = [5, 15, 60, 900] as const;
const TICK_MS = 5_000;
const TICKS = (25 * 60_000) / TICK_MS;

type Trial = SlowExchangeBot & { plan: PlanItem[] };

async function trial(delayS: number): Promise<Trial> {
  const desk = await slowExchangeBot({
    seed: `late-commit-${delayS}`,
    startMs: T0,
    faults: [
      { kind: 'late_commit', method: 'POST', path: '/crypto/withdrawals', commitAfterMs: delayS * 1_000, times: 1 },
      {
        kind: 'late_commit',
        method: 'POST',
        path: '/fiat/withdrawals',
        commitAfterMs: delayS * 1_000,
        answer: 'gateway_timeout',
        times: 1,
      },
      { kind: 'late_commit', method: 'POST', path: '/orders', commitAfterMs: delayS * 1_000, answer: 'drop', times: 1 },
    ],
  });
  return { ...desk, plan: requestPlan(desk.sandbox, ['crypto', 'fiat', 'trade']) };
}

/** What the exchange created for a request: withdrawals of its amount since T0, or the account's orders. */
function created(t: Trial, item: PlanItem): string[] {
  const account = t.sandbox.state.accounts.get('main')!;
  const input = item.input;
  if (input.kind === 'crypto_withdrawal')
    return account.withdrawals.filter((w) => w.created_at >= T0 && cmp(w.amount, input.amount) === 0).map((w) => w.id);
  if (input.kind === 'fiat_withdrawal')
    return account.fiatWithdrawals
      .filter((w) => w.created_at >= T0 && cmp(w.amount, input.amount) === 0)
      .map((w) => String(w.id));
  return account.orders.map((o) => String(o.id));
}

describe('a slow exchange commits what the bot gave up on', () => {
  for (const delayS of DELAYS_S) {
    it(`committed ${delayS} s late: no second withdrawal or order, each request followed or waiting for a person`, async () => {
      const t = await trial(delayS);
      // Approvals only: a person's settlement is not part of this trial (it would be a deliberate resend).
      await approvePlan(t.engine, t.plan);
      for (let i = 0; i < TICKS; i++) {
        t.sandbox.control.advance(TICK_MS);
        await t.engine.tick();
        await t.engine.idle();
      }
      const outcomes: string[] = [];
      for (const item of t.plan) {
        const record = (await findTagged(t.engine, item.tag))!;
        const made = created(t, item);
        outcomes.push(`${item.tag}: ${record.state}, created ${made.length}`);
        expect(made.length, `${item.tag} created on the exchange`).toBeLessThanOrEqual(1);
        const followed =
          ['submitted', 'completed'].includes(record.state) &&
          made.length === 1 &&
          record.execution?.exchangeId === made[0];
        const waiting = record.state === 'unknown' && record.execution?.inDoubt?.question !== null;
        expect(
          followed || waiting,
          `${item.tag} ends ${record.state} (${JSON.stringify(record.execution?.inDoubt?.question ?? null)})`,
        ).toBe(true);
      }
      // A withdrawal is sent once: never again without a person.
      expect(t.sends.get('createCryptoWithdrawal')).toBe(1);
      expect(t.sends.get('createFiatWithdrawal')).toBe(1);
      if (process.env.FAULTS_VERBOSE)
        console.log(`late ${delayS} s: ${outcomes.join('; ')}; order sends ${t.sends.get('createOrder')}`);
    }, 60_000);
  }
});
