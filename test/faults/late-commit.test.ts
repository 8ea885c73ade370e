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
import { afterAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/app/engine.js';
import { cmp } from '../../src/domain/money.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { makeFaultKey } from './support/keys.js';
import { deskPlan, memoryDesk } from './support/memory-desk.js';
import { advancePlan, findTagged, type PlanItem } from './support/plan.js';
import { frozenSandbox, sandboxClient } from './support/sandbox-trial.js';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const key = makeFaultKey();
const DELAYS_S = [5, 15, 60, 900] as const;
const TICK_MS = 5_000;
const TICKS = (25 * 60_000) / TICK_MS;

const sandboxes: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
});

interface Trial {
  sandbox: Sandbox;
  engine: Engine;
  plan: PlanItem[];
  sends: Map<string, number>;
}

async function trial(delayS: number): Promise<Trial> {
  const sandbox = await frozenSandbox({
    seed: `late-commit-${delayS}`,
    startMs: T0,
    keys: [{ publicKeyHex: key.publicKeyHex, scopes: ['read', 'transfer', 'trade'] }],
    faults: [
      { kind: 'late_commit', method: 'POST', path: '/crypto/withdrawals', commitAfterMs: delayS * 1_000, times: 1 },
      { kind: 'late_commit', method: 'POST', path: '/fiat/withdrawals', commitAfterMs: delayS * 1_000, answer: 'gateway_timeout', times: 1 },
      { kind: 'late_commit', method: 'POST', path: '/orders', commitAfterMs: delayS * 1_000, answer: 'drop', times: 1 },
    ],
  });
  sandboxes.push(sandbox);
  const sends = new Map<string, number>();
  const exchange = sandboxClient(sandbox, key, {
    timeoutMs: 150,
    logger: (e) => {
      if (e.method === 'POST' && e.attempt === 1) sends.set(e.operation, (sends.get(e.operation) ?? 0) + 1);
    },
  });
  const clock = { now: () => sandbox.clock.now(), sleep: async () => {} };
  const { engine } = memoryDesk({ exchange, clock, config: { poll: { intervalMs: 10_000, maxIntervalMs: 60_000 } } });
  await engine.start();
  const plan = deskPlan(sandbox, ['crypto', 'fiat', 'trade']);
  return { sandbox, engine, plan, sends };
}

/** What the exchange created for a request: withdrawals of its amount since T0, or the account's orders. */
function created(t: Trial, item: PlanItem): string[] {
  const account = t.sandbox.state.accounts.get('main')!;
  const input = item.input;
  if (input.kind === 'crypto_withdrawal') return account.withdrawals.filter((w) => w.created_at >= T0 && cmp(w.amount, input.amount) === 0).map((w) => w.id);
  if (input.kind === 'fiat_withdrawal') return account.fiatWithdrawals.filter((w) => w.created_at >= T0 && cmp(w.amount, input.amount) === 0).map((w) => String(w.id));
  return account.orders.map((o) => String(o.id));
}

describe('a slow exchange commits what the bot gave up on', () => {
  for (const delayS of DELAYS_S) {
    it(`committed ${delayS} s late: no second withdrawal or order, each request followed or waiting for a person`, async () => {
      const t = await trial(delayS);
      // Approvals only: a person's decision is not part of this trial (it would be a deliberate resend).
      await advancePlan(t.engine, t.plan);
      await t.engine.idle();
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
        const followed = ['submitted', 'completed'].includes(record.state) && made.length === 1 && record.execution?.exchangeId === made[0];
        const waiting = record.state === 'unknown' && record.execution?.inDoubt?.question !== null;
        expect(followed || waiting, `${item.tag} ends ${record.state} (${JSON.stringify(record.execution?.inDoubt?.question ?? null)})`).toBe(true);
      }
      // A withdrawal is sent once: never again without a person.
      expect(t.sends.get('createCryptoWithdrawal')).toBe(1);
      expect(t.sends.get('createFiatWithdrawal')).toBe(1);
      if (process.env.FAULTS_VERBOSE) console.log(`late ${delayS} s: ${outcomes.join('; ')}; order sends ${t.sends.get('createOrder')}`);
    }, 60_000);
  }
});
