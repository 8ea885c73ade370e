/**
 * Exactly once, as a table: every row of the picture in design.md (and of the unknown-outcome
 * rules) is a record, an observation and what `decide` must answer: the state it writes, the
 * effect it asks for, and what it must never do. No I/O, no clock but the one given.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/bot/engine/engine-config.js';
import { EXCHANGE_LIMITS } from '../../../src/bot/exchange/adapter/index.js';
import { nextStep, type Facts, type Observation, type Step } from '../../../src/bot/engine/execution/next-step.js';
import type { CheckFacts, ExchangeFailure } from '../../../src/bot/engine/execution/observations.js';
import type { CurrencyEntry, RemoteView, SavedAddress } from '../../../src/bot/ports/exchange-port.js';
import { openInDoubt } from '../../../src/bot/engine/execution/in-doubt.js';
import { createPolicy } from '../../../src/bot/domain/policy.js';
import {
  mustAdvance,
  newExecution,
  newRequest,
  newRound,
  orderKeyFor,
  type Attempt,
  type RequestRecord,
  type SettlementRecord,
} from '../../../src/bot/domain/record.js';
import type { Snapshot } from '../../../src/bot/domain/request.js';
import { tradeSnapshot, withdrawalSnapshot } from './support/snapshots.js';

const T0 = 1_800_000_000_000;
const config = resolveConfig({}, EXCHANGE_LIMITS);
const policy = createPolicy({ requesters: ['U_REQ'], approvers: ['U_A1', 'U_A2'] });
let keys = 0;
const ME = 'replica-me';
const facts = (over: Partial<Facts> = {}): Facts => ({
  config,
  policy,
  quoteSuperseded: false,
  newKey: () => `new-${++keys}`,
  measuredOffsetMs: null,
  replica: ME,
  ...over,
});

const withdrawal = withdrawalSnapshot;
const quote = { quoteId: 'q1', price: '65000', expiresAt: T0 + 60_000 };
const trade = tradeSnapshot(quote, '66000');
const removal: Snapshot = {
  kind: 'bank_account_removal',
  bankAccount: { id: 7, currency: 'USD', display: 'Bank ••1234' },
  note: null,
};

/** An approved request (two approvals, neither the requester's). */
function approved(snapshot: Snapshot): RequestRecord {
  const r = newRequest({ id: 'R1', requester: 'U_REQ', snapshot, now: T0, policy });
  const approvals = ['U_A1', 'U_A2'].map((userId) => ({ userId, at: T0, snapshotHash: r.snapshotHash }));
  return mustAdvance(r, 'approve_last', T0, { approvals, execution: newExecution(T0) });
}

/** Sent by this replica: the attempt in flight under its lease, as the send's write left it. */
function inFlight(
  snapshot: Snapshot,
  attempt: Partial<Attempt> = {},
  unknownSince: number | null = null,
): RequestRecord {
  const r = approved(snapshot);
  const attempts: Attempt[] = [
    {
      key: 'k1',
      startedAt: T0,
      quote: snapshot.kind === 'trade' ? quote : null,
      outcome: 'in_flight',
      message: null,
      endedAt: null,
      ...attempt,
    },
  ];
  return mustAdvance(r, 'execute', T0, {
    execution: { ...r.execution!, attempts, unknownSince, lease: { holder: ME, until: T0 + config.leaseTtlMs } },
  });
}

function inDoubt(snapshot: Snapshot, attempt: Partial<Attempt> = {}): RequestRecord {
  const r = inFlight(snapshot, { outcome: 'unknown', endedAt: T0 + 10_000, ...attempt }, T0 + 10_000);
  const u = mustAdvance(r, 'outcome_unknown', T0 + 10_000);
  return { ...u, execution: { ...u.execution!, inDoubt: openInDoubt(u, T0 + 10_000, config, null) } };
}

const asked = (r: RequestRecord): RequestRecord => ({
  ...r,
  execution: {
    ...r.execution!,
    inDoubt: { ...r.execution!.inDoubt!, question: { askedAt: T0 + 700_000, kind: 'not_found', candidates: [] } },
  },
});

const SEND_AGAIN = {
  by: 'U_A1',
  at: T0 + 690_000,
  action: 'send_again',
  exchangeId: null,
  checked: 'checked',
} as const;
const MARK_NOT_SENT = { ...SEND_AGAIN, action: 'mark_not_sent' } as const;
/** Asked "not found", then a person's settlement waiting for its look. */
const pending = (d: SettlementRecord): RequestRecord => {
  const r = asked(inDoubt(withdrawal));
  return {
    ...r,
    execution: {
      ...r.execution!,
      inDoubt: { ...r.execution!.inDoubt!, pendingDecision: d },
      lease: { holder: ME, until: T0 + 700_000 + config.leaseTtlMs },
    },
  };
};
const nothingThere: Observation = { kind: 'looked', look: { kind: 'candidates', candidates: [] }, at: T0 + 700_000 };
const lateOne: Observation = {
  kind: 'looked',
  look: {
    kind: 'candidates',
    candidates: [],
    late: [
      {
        exchangeId: 'w9',
        createdAt: T0 + 640_000,
        amount: '100',
        status: 'pending',
        requestId: null,
        destination: 'x',
      },
    ],
  },
  at: T0 + 700_000,
};

/** What the exchange shows for `withdrawal` just before it is sent: everything as approved. */
const ENTRY: CurrencyEntry = {
  id: 101,
  asset: 'BTC',
  network: 'Bitcoin',
  networkId: null,
  withdrawalFee: '0.0001',
  minimumWithdrawal: '0.001',
  precision: 8,
};
const ADDRESS: SavedAddress = {
  id: 'a1',
  label: 'Cold',
  address: 'bc1q',
  addressTag: null,
  verified: true,
  networkIds: [],
  status: 'verified',
  cooldownUntil: null,
};
const checkedWith = (over: Partial<Extract<CheckFacts, { kind: 'crypto_withdrawal' }>>): Observation => ({
  kind: 'checked',
  found: {
    kind: 'read',
    facts: { kind: 'crypto_withdrawal', entry: ENTRY, address: ADDRESS, available: '1', ...over },
  },
});
const TIMEOUT: ExchangeFailure = {
  kind: 'timeout',
  refusal: undefined,
  status: undefined,
  outcomeUnknown: true,
  message: 'timeout',
  exchangeMessages: '',
};
const refusal = (message: string, reading?: ExchangeFailure['refusal']): ExchangeFailure => ({
  kind: 'unprocessable',
  refusal: reading,
  status: 422,
  outcomeUnknown: false,
  message,
  exchangeMessages: message,
});
const refusedWith = (message: string, reading?: ExchangeFailure['refusal']): Observation => ({
  kind: 'answer',
  answer: { kind: 'error', failure: refusal(message, reading) },
});
const noAnswer: Observation = { kind: 'answer', answer: { kind: 'error', failure: TIMEOUT } };

type Row = [
  name: string,
  record: RequestRecord,
  obs: Observation,
  at: number,
  expected: { command?: string | null; effect: Step['effect']['kind']; sends?: boolean },
  f?: Partial<Facts>,
];
const due: Observation = { kind: 'due' };

const rows: Row[] = [
  ['approved withdrawal: check the exchange first', approved(withdrawal), due, T0, { command: null, effect: 'check' }],
  [
    'approved withdrawal, a read failed earlier: wait for its retry time',
    {
      ...approved(withdrawal),
      execution: { ...approved(withdrawal).execution!, retry: { nextAt: T0 + 30_000, failures: 1 } },
    },
    due,
    T0,
    { command: null, effect: 'none' },
  ],
  [
    'approved withdrawal in a cooldown: wait for it',
    { ...approved(withdrawal), execution: { ...approved(withdrawal).execution!, scheduledAt: T0 + 60_000 } },
    due,
    T0,
    { command: null, effect: 'none' },
  ],
  [
    'an approver removed from the policy since the approvals (who stops counting at once): fail, send nothing',
    approved(withdrawal),
    due,
    T0,
    { command: 'fail', effect: 'none' },
    { policy: createPolicy({ requesters: ['U_REQ'], approvers: ['U_A1', 'U_A3', 'U_A4'], requiredApprovals: 2 }) },
  ],
  [
    'checks pass: persist executing with a new key, then send',
    approved(withdrawal),
    checkedWith({}),
    T0,
    { command: 'execute', effect: 'send', sends: true },
  ],
  [
    'checks pass but a look-alike is in doubt: wait',
    approved(withdrawal),
    { kind: 'checked', found: { kind: 'twin_in_doubt', lookAlike: 'R2' } },
    T0,
    { command: 'schedule', effect: 'none' },
  ],
  [
    'checks fail: fail with the reason',
    approved(withdrawal),
    checkedWith({ entry: { ...ENTRY, withdrawalFee: '0.0002' } }),
    T0,
    { command: 'fail', effect: 'none' },
  ],
  [
    'destination cooling down: schedule',
    approved(withdrawal),
    checkedWith({ address: { ...ADDRESS, cooldownUntil: T0 + 3_600_000 } }),
    T0,
    { command: 'schedule', effect: 'none' },
  ],
  [
    'checks: the balance no longer covers amount plus fee: fail, send nothing',
    approved(withdrawal),
    checkedWith({ available: '0.05' }),
    T0,
    { command: 'fail', effect: 'none' },
  ],
  [
    'checks: the destination now points elsewhere: fail',
    approved(withdrawal),
    checkedWith({ address: { ...ADDRESS, address: 'bc1other' } }),
    T0,
    { command: 'fail', effect: 'none' },
  ],
  [
    'checks: the destination is gone from the address book: fail',
    approved(withdrawal),
    checkedWith({ address: undefined }),
    T0,
    { command: 'fail', effect: 'none' },
  ],
  [
    'checks: the destination is no longer verified: fail',
    approved(withdrawal),
    checkedWith({ address: { ...ADDRESS, verified: false, status: 'pending' } }),
    T0,
    { command: 'fail', effect: 'none' },
  ],
  [
    'a removal whose account is gone before it is sent: fail',
    approved(removal),
    { kind: 'checked', found: { kind: 'read', facts: { kind: 'bank_account_removal', account: undefined } } },
    T0,
    { command: 'fail', effect: 'none' },
  ],
  [
    'a 429 or an unreadable 2xx to a send: unknown, look (never "refused")',
    inFlight(withdrawal),
    {
      kind: 'answer',
      answer: { kind: 'error', failure: { ...refusal('slow down'), kind: 'rate_limited', status: 429 } },
    },
    T0,
    { command: 'outcome_unknown', effect: 'look' },
  ],
  [
    'checks unreadable: try later',
    approved(withdrawal),
    { kind: 'checked', found: { kind: 'unreadable', failure: TIMEOUT } },
    T0,
    { command: 'schedule', effect: 'none' },
  ],
  [
    'approved trade, its quote alive and within the limit: order on it',
    approved(trade),
    due,
    T0,
    { command: 'execute', effect: 'send', sends: true },
  ],
  [
    'approved trade, its quote inside the safety margin: quote again first',
    approved(trade),
    due,
    quote.expiresAt - 100,
    { command: null, effect: 'quote' },
  ],
  [
    'approved trade, a newer quote superseded it: quote again first',
    approved(trade),
    due,
    T0,
    { command: null, effect: 'quote' },
    { quoteSuperseded: true },
  ],
  [
    're-quoted within the limit: order',
    approved(trade),
    { kind: 'quoted', quote: { quoteId: 'q2', price: '65500', expiresAt: T0 + 120_000 }, reason: 'expired' },
    T0,
    { command: 'execute', effect: 'send', sends: true },
  ],
  [
    're-quoted beyond the limit: a new approval round, nothing ordered',
    approved(trade),
    { kind: 'quoted', quote: { quoteId: 'q2', price: '67000', expiresAt: T0 + 120_000 }, reason: 'expired' },
    T0,
    { command: 'ask_reapproval', effect: 'none' },
  ],
  [
    'quote refused: fail',
    approved(trade),
    { kind: 'quote_failed', failure: refusal('Insufficient balance') },
    T0,
    { command: 'fail', effect: 'none' },
  ],
  [
    'quote unanswered: try later',
    approved(trade),
    { kind: 'quote_failed', failure: TIMEOUT },
    T0,
    { command: 'schedule', effect: 'none' },
  ],
  [
    '2xx: submitted, followed by polling',
    inFlight(withdrawal),
    { kind: 'answer', answer: { kind: 'submitted', exchangeId: 'w1', view: undefined } },
    T0,
    { command: 'submitted', effect: 'none' },
  ],
  [
    '4xx: failed with the exchange message',
    inFlight(withdrawal),
    refusedWith('Insufficient funds'),
    T0,
    { command: 'fail', effect: 'none' },
  ],
  [
    'order refused for an unusable quote: back to approved to re-quote',
    inFlight(trade),
    refusedWith('Quote has expired', 'quote_unusable'),
    T0,
    { command: 'requote', effect: 'decide_again' },
  ],
  [
    'a resend refused after an unknown outcome: maybe "already done", look first',
    inFlight(withdrawal, {}, T0 - 1),
    refusedWith('Insufficient funds'),
    T0,
    { command: 'outcome_unknown', effect: 'look' },
  ],
  [
    'timeout, dropped connection, 5xx: unknown, look on the exchange',
    inFlight(withdrawal),
    noAnswer,
    T0,
    { command: 'outcome_unknown', effect: 'look' },
  ],
  [
    'order refused as a duplicate client_order_id: it exists, find it',
    inFlight(trade),
    refusedWith('duplicate', 'duplicate_client_order_id'),
    T0,
    { command: 'outcome_unknown', effect: 'look' },
  ],
  [
    'executing on start: the process stopped mid-call, unknown',
    inFlight(withdrawal),
    due,
    T0 + 60_000,
    { command: 'outcome_unknown', effect: 'look' },
  ],
  [
    'a removal answered 204: claim it, then completed',
    inFlight(removal),
    { kind: 'answer', answer: { kind: 'completed' } },
    T0,
    { command: null, effect: 'claim_removal' },
  ],
  [
    'a removal claimed by this request: completed',
    inFlight(removal),
    { kind: 'claimed', by: 'R1' },
    T0,
    { command: 'complete', effect: 'none' },
  ],
  [
    'a removal claimed by another request: failed, that one removed it',
    inDoubt(removal),
    { kind: 'claimed', by: 'R9' },
    T0,
    { command: 'fail', effect: 'none' },
  ],
  ['in doubt, the next look not due: nothing', inDoubt(withdrawal), due, T0 + 5_000, { command: null, effect: 'none' }],
  ['in doubt, the look due: look', inDoubt(withdrawal), due, T0 + 10_000, { command: null, effect: 'look' }],
  [
    'found by its key: submitted',
    inDoubt(withdrawal),
    { kind: 'looked', look: { kind: 'found', exchangeId: 'w1' }, at: T0 + 10_000 },
    T0 + 10_000,
    { command: 'submitted', effect: 'none' },
  ],
  [
    'withdrawal not found, window open: look again, never send',
    inDoubt(withdrawal),
    { kind: 'looked', look: { kind: 'candidates', candidates: [] }, at: T0 + 20_000 },
    T0 + 20_000,
    { command: null, effect: 'none' },
  ],
  [
    'withdrawal not found, window closed: a person decides, never send',
    inDoubt(withdrawal),
    { kind: 'looked', look: { kind: 'candidates', candidates: [] }, at: T0 + 700_000 },
    T0 + 700_000,
    { command: null, effect: 'none' },
  ],
  [
    'order not found, quote dead: re-quote at once, keeping the client_order_id',
    inDoubt(trade),
    { kind: 'looked', look: { kind: 'candidates', candidates: [] }, at: T0 + 200_000 },
    T0 + 200_000,
    { command: 'requote', effect: 'decide_again' },
  ],
  [
    'order not found, quote alive: send the same client_order_id again',
    inDoubt(trade),
    { kind: 'looked', look: { kind: 'candidates', candidates: [] }, at: T0 + 15_000 },
    T0 + 15_000,
    { command: 'execute', effect: 'send', sends: true },
  ],
  [
    'a person sends again: recorded, looked for first under the lease, nothing sent yet',
    asked(inDoubt(withdrawal)),
    { kind: 'person', decision: SEND_AGAIN },
    T0 + 700_000,
    { command: null, effect: 'look' },
  ],
  [
    'a person marks it as not sent: recorded, looked for first, not failed yet',
    asked(inDoubt(withdrawal)),
    { kind: 'person', decision: MARK_NOT_SENT },
    T0 + 700_000,
    { command: null, effect: 'look' },
  ],
  [
    'a send again waiting, its look found nothing: persisted as executing with a new key, then sent',
    pending(SEND_AGAIN),
    nothingThere,
    T0 + 700_000,
    { command: 'execute', effect: 'send', sends: true },
  ],
  [
    'a mark as not sent waiting, its look found nothing: failed',
    pending(MARK_NOT_SENT),
    nothingThere,
    T0 + 700_000,
    { command: 'fail', effect: 'none' },
  ],
  [
    'a send again waiting, its look found ours by key: followed, nothing sent',
    pending(SEND_AGAIN),
    { kind: 'looked', look: { kind: 'found', exchangeId: 'w1' }, at: T0 + 700_000 },
    T0 + 700_000,
    { command: 'submitted', effect: 'none' },
  ],
  [
    'a send again waiting, a record that may be ours appeared (late): withheld, asked again',
    pending(SEND_AGAIN),
    lateOne,
    T0 + 700_000,
    { command: null, effect: 'none' },
  ],
  [
    'a mark as not sent waiting, a record that may be ours appeared: withheld, asked again',
    pending(MARK_NOT_SENT),
    lateOne,
    T0 + 700_000,
    { command: null, effect: 'none' },
  ],
  [
    'a send again waiting, the exchange unreadable: withheld, asked again',
    pending(SEND_AGAIN),
    { kind: 'looked', look: { kind: 'inconclusive', message: 'timeout', cut: false }, at: T0 + 700_000 },
    T0 + 700_000,
    { command: null, effect: 'none' },
  ],
  [
    'a decision waiting after a restart (its look never came back): look at once',
    pending(SEND_AGAIN),
    due,
    T0 + 700_000,
    { command: null, effect: 'look' },
  ],
  [
    "a second person's decision while one waits for its look: nothing written, the first is carried out or withheld first",
    pending(SEND_AGAIN),
    { kind: 'person', decision: { ...MARK_NOT_SENT, by: 'U_A2' } },
    T0 + 700_000,
    { command: null, effect: 'none' },
  ],
  [
    'a person says which record is ours: recorded, taken on the fresh look made for it',
    asked(inDoubt(withdrawal)),
    { kind: 'person', decision: { by: 'U_A1', at: T0, action: 'choose', exchangeId: 'w2', checked: 'checked' } },
    T0 + 700_000,
    { command: null, effect: 'look' },
  ],
  [
    'a person asks to look again: look now',
    asked(inDoubt(withdrawal)),
    { kind: 'person', decision: { by: 'U_REQ', at: T0, action: 'look_again', exchangeId: null, checked: null } },
    T0 + 700_000,
    { command: null, effect: 'look' },
  ],
];

describe("decide: a person's send again or mark as not sent acts on the fresh look made for it", () => {
  it('withheld when a record that may be ours appeared: the question shows it, asked anew, audited, nothing sent or failed', () => {
    for (const d of [SEND_AGAIN, MARK_NOT_SENT]) {
      const step = nextStep(pending(d), T0 + 700_000, lateOne, facts());
      const inDoubt = step.write!.changes.execution!.inDoubt!;
      expect(inDoubt.pendingDecision).toBeNull();
      expect(inDoubt.question).toMatchObject({
        kind: 'ambiguous',
        askedAt: T0 + 700_000,
        candidates: [{ exchangeId: 'w9' }],
      });
      expect(step.write!.changes.execution!.decisions).toEqual([]);
      expect(step.events.map((e) => e.type)).toEqual(['execution.person_decision_withheld', 'execution.needs_person']);
      expect(step.audit[0]).toMatchObject({
        type: 'execution.person_decision_withheld',
        data: { action: d.action, reason: 'appeared', appeared: ['w9'] },
      });
    }
  });

  it('a candidate the person already saw and marked as not sent does not withhold it', () => {
    const shown = {
      exchangeId: 'w9',
      createdAt: T0 + 640_000,
      amount: '100',
      status: 'pending',
      requestId: null,
      destination: 'x',
    };
    const r = pending(MARK_NOT_SENT);
    const seen = {
      ...r,
      execution: {
        ...r.execution!,
        inDoubt: {
          ...r.execution!.inDoubt!,
          question: { askedAt: T0 + 650_000, kind: 'ambiguous' as const, candidates: [shown] },
        },
      },
    };
    expect(nextStep(seen, T0 + 700_000, lateOne, facts()).write?.command).toBe('fail');
  });

  it("carried out: the decision joins the record's decisions and is announced", () => {
    const step = nextStep(pending(SEND_AGAIN), T0 + 700_000, nothingThere, facts());
    expect(step.write!.changes.execution!.decisions).toEqual([SEND_AGAIN]);
    expect(step.events.map((e) => e.type)).toEqual(['execution.person_decided', 'execution.started']);
  });
});

describe('decide: the execution of an approved request, row by row', () => {
  it.each(rows)('%s', (_name, record, obs, at, expected, f) => {
    const step = nextStep(record, at, obs, facts(f));
    expect(step.write?.command ?? null).toBe(expected.command === undefined ? null : expected.command);
    expect(step.effect.kind).toBe(expected.effect);
    if (step.effect.kind === 'send') {
      // Persist before the call: the write that asks for a send holds the attempt with that key, in flight.
      const last = step.write!.changes.execution!.attempts.at(-1)!;
      expect(last).toMatchObject({ key: step.effect.key, outcome: 'in_flight' });
      expect(step.audit.map((a) => a.type)).toContain('execution.attempt');
    }
    if (!expected.sends) expect(step.effect.kind).not.toBe('send');
  });

  it("what the runner does after the write is decided here: follow what was just submitted (from the answer's view), release the terms claim once past doubt", () => {
    const view: RemoteView = {
      exchangeId: 'w1',
      status: 'pending',
      travelRuleStatus: null,
      pendingReason: null,
      transactionHash: null,
      linkExplorer: null,
      final: null,
      result: null,
    };
    const answered = nextStep(
      inFlight(withdrawal),
      T0,
      { kind: 'answer', answer: { kind: 'submitted', exchangeId: 'w1', view } },
      facts(),
    );
    expect(answered).toMatchObject({ startPolling: { view }, releaseTerms: true });
    const found = nextStep(
      inDoubt(withdrawal),
      T0 + 10_000,
      { kind: 'looked', look: { kind: 'found', exchangeId: 'w1' }, at: T0 + 10_000 },
      facts(),
    );
    expect(found).toMatchObject({ startPolling: { view: undefined }, releaseTerms: true });
    const failed = nextStep(inFlight(withdrawal), T0, refusedWith('Insufficient funds'), facts());
    expect(failed.startPolling).toBeUndefined();
    expect(failed.releaseTerms).toBe(true);
    const unknown = nextStep(inFlight(withdrawal), T0, noAnswer, facts());
    expect(unknown.startPolling ?? unknown.releaseTerms).toBeUndefined();
  });

  it('a withdrawal in doubt is never sent again without a person, whatever it observes', () => {
    const record = inDoubt(withdrawal);
    const observations: Observation[] = [
      due,
      { kind: 'looked', look: { kind: 'candidates', candidates: [] }, at: T0 + 10_000_000 },
      { kind: 'looked', look: { kind: 'inconclusive', message: 'x', cut: true }, at: T0 + 10_000_000 },
    ];
    for (const obs of observations)
      for (const at of [T0 + 10_000, T0 + 10_000_000])
        expect(nextStep(record, at, obs, facts()).effect.kind).not.toBe('send');
  });

  it('an order re-quoted after an unknown outcome reuses its client_order_id; after a definitive refusal it gets a new one', () => {
    const afterUnknown = {
      ...approved(trade),
      execution: { ...inDoubt(trade).execution!, inDoubt: null, unknownSince: null },
    };
    const step = nextStep(
      afterUnknown,
      T0,
      { kind: 'quoted', quote: { quoteId: 'q2', price: '65500', expiresAt: T0 + 120_000 }, reason: 'expired' },
      facts(),
    );
    expect(step.effect).toMatchObject({ kind: 'send', key: 'k1' });
    const afterRefusal = {
      ...approved(trade),
      execution: { ...inFlight(trade, { outcome: 'quote_unusable', endedAt: T0 }).execution!, unknownSince: null },
    };
    const again = nextStep(
      afterRefusal,
      T0,
      { kind: 'quoted', quote: { quoteId: 'q2', price: '65500', expiresAt: T0 + 120_000 }, reason: 'unusable' },
      facts(),
    );
    expect(again.effect.kind).toBe('send');
    expect(again.effect.kind === 'send' && again.effect.key).not.toBe('k1');
  });

  it('re-quotes are bounded: past the bound the trade fails instead of quoting again', () => {
    const record = inFlight(trade);
    const exhausted = { ...record, execution: { ...record.execution!, unusableRequotes: config.maxUnusableRequotes } };
    const step = nextStep(exhausted, T0, refusedWith('Quote has expired', 'quote_unusable'), facts());
    expect(step.write?.command).toBe('fail');
  });

  it('checks unreadable too many times in a row: fail', () => {
    const record = approved(withdrawal);
    const tired = {
      ...record,
      execution: { ...record.execution!, retry: { nextAt: T0, failures: config.maxCheckFailures - 1 } },
    };
    const step = nextStep(tired, T0, { kind: 'checked', found: { kind: 'unreadable', failure: TIMEOUT } }, facts());
    expect(step.write?.command).toBe('fail');
  });
});

describe('decide: a trade in doubt never fails on its own, and a person has a way out', () => {
  /** Re-quoted after an unknown outcome: back in approved, its earlier order (key k1) perhaps still to appear. */
  const requotedInDoubt = (): RequestRecord => ({
    ...approved(trade),
    execution: { ...inDoubt(trade).execution!, inDoubt: null, unknownSince: null },
  });
  const trades: [name: string, record: RequestRecord, obs: Observation][] = [
    [
      'no quote to be had, retries used up',
      {
        ...requotedInDoubt(),
        execution: { ...requotedInDoubt().execution!, retry: { nextAt: T0, failures: config.maxCheckFailures - 1 } },
      },
      { kind: 'quote_failed', failure: TIMEOUT },
    ],
    ['a new quote refused', requotedInDoubt(), { kind: 'quote_failed', failure: refusal('Insufficient balance') }],
    ['the approvals no longer meet the policy', requotedInDoubt(), due],
  ];
  it.each(trades)(
    're-quoted after an unknown outcome, %s: back in doubt (looked for by its client_order_id), not failed',
    (name, record, obs) => {
      const f = name.startsWith('the approvals')
        ? facts({
            // U_A2 left the approvers: their approval stops counting at once.
            policy: createPolicy({ requesters: ['U_REQ'], approvers: ['U_A1', 'U_A3', 'U_A4'], requiredApprovals: 2 }),
          })
        : facts();
      const step = nextStep(record, T0 + 200_000, obs, f);
      expect(step.write?.command).toBe('outcome_unknown');
      expect(step.effect.kind).toBe('look');
      expect(step.write!.changes.execution!.inDoubt!.stoppedBecause).toEqual(expect.any(String));
      expect(step.audit.map((a) => a.type)).toContain('execution.back_in_doubt');
    },
  );

  it('back in doubt: looked for until the settle window closes, then a person is asked (never re-quoted)', () => {
    const back = nextStep(
      requotedInDoubt(),
      T0 + 200_000,
      { kind: 'quote_failed', failure: refusal('Insufficient balance') },
      facts(),
    );
    const record = mustAdvance(requotedInDoubt(), 'outcome_unknown', T0 + 200_000, back.write!.changes);
    const settleUntil = record.execution!.inDoubt!.settleUntil;
    const early = nextStep(
      record,
      T0 + 300_000,
      { kind: 'looked', look: { kind: 'candidates', candidates: [] }, at: T0 + 300_000 },
      facts(),
    );
    expect(early.write?.command).toBeUndefined();
    expect(early.write!.changes.execution!.inDoubt!.question).toBeNull();
    const late = nextStep(
      record,
      settleUntil,
      { kind: 'looked', look: { kind: 'candidates', candidates: [] }, at: settleUntil },
      facts(),
    );
    expect(late.write!.changes.execution!.inDoubt!.question).toMatchObject({ kind: 'not_found', candidates: [] });
    expect(late.events.map((e) => e.type)).toEqual(['execution.needs_person']);
  });

  it('refused as a duplicate client_order_id and never found: a person is asked once the settle window closed', () => {
    const dup = inDoubt(trade, { outcome: 'duplicate' });
    const settleUntil = dup.execution!.inDoubt!.settleUntil;
    expect(
      nextStep(
        dup,
        settleUntil - 1,
        { kind: 'looked', look: { kind: 'candidates', candidates: [] }, at: settleUntil - 1 },
        facts(),
      ).write!.changes.execution!.inDoubt!.question,
    ).toBeNull();
    expect(
      nextStep(
        dup,
        settleUntil,
        { kind: 'looked', look: { kind: 'candidates', candidates: [] }, at: settleUntil },
        facts(),
      ).write!.changes.execution!.inDoubt!.question,
    ).toMatchObject({ kind: 'not_found' });
  });

  it('a resend refused after an unknown outcome (not as an unusable quote) is looked for, never failed; an unusable quote re-quotes with the same client_order_id', () => {
    const resent = inDoubt(trade);
    const resend: RequestRecord = mustAdvance(resent, 'execute', T0 + 20_000, {
      execution: {
        ...resent.execution!,
        attempts: [
          ...resent.execution!.attempts,
          { key: 'k1', startedAt: T0 + 20_000, quote, outcome: 'in_flight', message: null, endedAt: null },
        ],
        inDoubt: null,
        unknownSince: null,
        lease: { holder: ME, until: T0 + 40_000 },
      },
    });
    const refused = nextStep(resend, T0 + 21_000, refusedWith('Insufficient balance'), facts());
    expect(refused.write?.command).toBe('outcome_unknown');
    const looked = nextStep(
      mustAdvance(resend, 'outcome_unknown', T0 + 21_000, refused.write!.changes),
      T0 + 30_000,
      { kind: 'looked', look: { kind: 'candidates', candidates: [] }, at: T0 + 30_000 },
      facts(),
    );
    expect(looked.write?.command).toBeUndefined();
    const used = nextStep(resend, T0 + 21_000, refusedWith('Quote has already been used', 'quote_unusable'), facts());
    const after = mustAdvance(resend, 'outcome_unknown', T0 + 21_000, used.write!.changes);
    const requoted = nextStep(
      after,
      T0 + 30_000,
      { kind: 'looked', look: { kind: 'candidates', candidates: [] }, at: T0 + 30_000 },
      facts(),
    );
    expect(requoted.write?.command).toBe('requote');
    const ordered = nextStep(
      mustAdvance(after, 'requote', T0 + 30_000, requoted.write!.changes),
      T0 + 30_000,
      { kind: 'quoted', quote: { quoteId: 'q2', price: '65500', expiresAt: T0 + 120_000 }, reason: 'unusable' },
      facts(),
    );
    expect(ordered.effect).toMatchObject({ kind: 'send', key: 'k1' });
  });

  it('re-quoted beyond the limit while its earlier order is in doubt: back in doubt, not a new approval round (a rejected or expired round would end the request while that order may fill)', () => {
    const step = nextStep(
      requotedInDoubt(),
      T0,
      { kind: 'quoted', quote: { quoteId: 'q2', price: '67000', expiresAt: T0 + 120_000 }, reason: 'expired' },
      facts(),
    );
    expect(step.write?.command).toBe('outcome_unknown');
    expect(step.effect.kind).toBe('look');
    expect(step.write!.changes.execution!.attempts.map((a) => a.key)).toEqual(['k1']);
    expect(step.audit).toContainEqual(
      expect.objectContaining({
        type: 'execution.back_in_doubt',
        data: expect.objectContaining({ instead: 'reapproval', clientOrderId: 'k1' }),
      }),
    );
    // Without a doubt it is a new approval round, which starts clean: the next order gets a new key.
    const clean = mustAdvance(
      approved(trade),
      'ask_reapproval',
      T0,
      nextStep(
        approved(trade),
        T0,
        { kind: 'quoted', quote: { quoteId: 'q2', price: '67000', expiresAt: T0 + 120_000 }, reason: 'expired' },
        facts(),
      ).write!.changes,
    );
    expect(clean.execution).toBeNull();
  });

  it('a new approval round of a trade keeps its sends while one is in doubt, so a later order reuses the client_order_id', () => {
    const record = requotedInDoubt();
    const round = mustAdvance(record, 'ask_reapproval', T0, newRound(record, record.snapshot, T0, facts().policy));
    expect(round.execution!.attempts.map((a) => a.key)).toEqual(['k1']);
    const again = mustAdvance(round, 'approve_last', T0 + 1_000, {
      execution: newExecution(T0 + 1_000, round.execution),
    });
    expect(orderKeyFor(again, () => 'fresh')).toBe('k1');
  });

  it('a person marks a trade as not placed: carried out on a fresh look that finds no order by its client_order_id; found, it is followed', () => {
    const asked = { ...inDoubt(trade, { outcome: 'duplicate' }) };
    const d = { ...MARK_NOT_SENT };
    const waiting = {
      ...asked,
      execution: {
        ...asked.execution!,
        inDoubt: {
          ...asked.execution!.inDoubt!,
          question: { askedAt: T0 + 700_000, kind: 'not_found' as const, candidates: [] },
          pendingDecision: d,
        },
        lease: { holder: ME, until: T0 + 710_000 },
      },
    };
    const failed = nextStep(waiting, T0 + 700_000, nothingThere, facts());
    expect(failed.write).toMatchObject({ command: 'fail', changes: { failure: { stage: 'reconcile' } } });
    expect(failed.write!.changes.failure!.reason).toMatch(/^Marked as not placed by a person/);
    expect(
      nextStep(
        waiting,
        T0 + 700_000,
        { kind: 'looked', look: { kind: 'found', exchangeId: 'o1' }, at: T0 + 700_000 },
        facts(),
      ).write?.command,
    ).toBe('submitted');
  });
});

describe('decide: the execution lease (one replica drives a request at a time)', () => {
  const OTHER = 'replica-other';
  const TTL = config.leaseTtlMs;
  const held = (r: RequestRecord, holder: string | null, until = T0 + TTL): RequestRecord => ({
    ...r,
    execution: { ...r.execution!, lease: holder === null ? null : { holder, until } },
  });
  const leaseWritten = (step: Step) => step.write?.changes.execution?.lease;
  const auditTypes = (step: Step) => step.audit.map((a) => a.type);
  const checked: Observation = checkedWith({});
  const lookedNothing = (at: number): Observation => ({
    kind: 'looked',
    look: { kind: 'candidates', candidates: [] },
    at,
  });

  it('the write that moves a request to executing claims the lease for this replica, before the send; the send is audited with it', () => {
    const step = nextStep(approved(withdrawal), T0, checked, facts());
    expect(step.write?.command).toBe('execute');
    expect(leaseWritten(step)).toEqual({ holder: ME, until: T0 + TTL });
    expect(step.effect.kind).toBe('send');
    expect(step.audit.find((a) => a.type === 'lease.claimed')?.data).toEqual({
      holder: ME,
      until: T0 + TTL,
      idempotencyKey: step.effect.kind === 'send' ? step.effect.key : '',
    });
  });

  it('the answer recorded under our lease clears it; an unknown answer keeps it (renewed) for the look that follows', () => {
    const submitted = nextStep(
      inFlight(withdrawal),
      T0 + 3_000,
      { kind: 'answer', answer: { kind: 'submitted', exchangeId: 'w1', view: undefined } },
      facts(),
    );
    expect(submitted.write?.command).toBe('submitted');
    expect(leaseWritten(submitted)).toBeNull();
    const unknown = nextStep(inFlight(withdrawal), T0 + 3_000, noAnswer, facts());
    expect(unknown).toMatchObject({ write: { command: 'outcome_unknown' }, effect: { kind: 'look' } });
    expect(leaseWritten(unknown)).toEqual({ holder: ME, until: T0 + 3_000 + TTL });
    expect(auditTypes(unknown)).not.toContain('lease.claimed');
  });

  it("executing under another replica's lease that has not expired: left alone, up to the last millisecond", () => {
    const record = held(inFlight(withdrawal), OTHER, T0 + TTL);
    for (const at of [T0, T0 + TTL - 1])
      expect(nextStep(record, at, due, facts())).toEqual({ audit: [], events: [], effect: { kind: 'none' } });
  });

  it("executing under another replica's expired lease: taken over through the unknown-outcome path, a look, never a send", () => {
    const record = held(inFlight(withdrawal), OTHER, T0 + TTL);
    const step = nextStep(record, T0 + TTL + 4_000, due, facts());
    expect(step).toMatchObject({ write: { command: 'outcome_unknown' }, effect: { kind: 'look' } });
    expect(leaseWritten(step)).toEqual({ holder: ME, until: T0 + TTL + 4_000 + TTL });
    expect(step.audit[0]).toEqual({
      type: 'lease.taken_over',
      actor: 'system',
      data: { holder: ME, previousHolder: OTHER, expiredForMs: 4_000, state: 'executing' },
    });
    expect(step.events).toEqual([
      expect.objectContaining({
        type: 'execution.outcome_unknown',
        message: expect.stringMatching(/replica executing this request stopped/),
      }),
    ]);
    for (const kind of ['trade', 'removal'] as const) {
      const other = held(inFlight(kind === 'trade' ? trade : removal), OTHER, T0 + TTL);
      expect(nextStep(other, T0 + TTL, due, facts()).effect.kind).toBe('look');
    }
  });

  it('an answer that comes back after the lease was taken (or already released by the new holder) is recorded nowhere', () => {
    const answer: Observation = { kind: 'answer', answer: { kind: 'submitted', exchangeId: 'w1', view: undefined } };
    for (const [record, heldBy] of [
      [held(inFlight(withdrawal), OTHER), OTHER],
      [held(inFlight(withdrawal), null), null],
      [held(inDoubt(withdrawal), OTHER), OTHER],
    ] as const) {
      const obs = record.state === 'unknown' ? lookedNothing(T0 + 20_000) : answer;
      const step = nextStep(record, T0 + 20_000, obs, facts());
      expect(step.write).toBeUndefined();
      expect(step.effect.kind).toBe('none');
      expect(step.audit).toEqual([
        { type: 'lease.lost', actor: 'system', data: { holder: ME, heldBy, state: record.state } },
      ]);
    }
  });

  it('a look due with nobody holding the lease claims it in a write of its own; another replica mid-look is left alone', () => {
    const free = held(inDoubt(withdrawal), null);
    const step = nextStep(free, T0 + 10_000, due, facts());
    expect(step.write?.command).toBeUndefined();
    expect(leaseWritten(step)).toEqual({ holder: ME, until: T0 + 10_000 + TTL });
    expect(step.effect.kind).toBe('look');
    expect(auditTypes(step)).toEqual([]);
    expect(nextStep(held(inDoubt(withdrawal), OTHER, T0 + 20_000), T0 + 10_000, due, facts()).write).toBeUndefined();
  });

  it("a person's decision waits for another replica's live lease; over an expired one (a look that died) it is recorded as a takeover", () => {
    const sendAgain: Observation = {
      kind: 'person',
      decision: { by: 'U_A1', at: T0, action: 'send_again', exchangeId: null, checked: 'checked' },
    };
    const live = held(asked(inDoubt(withdrawal)), OTHER, T0 + 800_000);
    expect(nextStep(live, T0 + 700_000, sendAgain, facts())).toEqual({
      audit: [],
      events: [],
      effect: { kind: 'none' },
    });
    const dead = held(asked(inDoubt(withdrawal)), OTHER, T0 + 600_000);
    const step = nextStep(dead, T0 + 700_000, sendAgain, facts());
    // Taken over to look first (the decision waits for that look), never to send.
    expect(step.effect.kind).toBe('look');
    expect(step.write?.changes.execution?.inDoubt?.pendingDecision?.action).toBe('send_again');
    expect(leaseWritten(step)).toEqual({ holder: ME, until: T0 + 700_000 + TTL });
    expect(auditTypes(step)).toEqual(['lease.taken_over', 'execution.person_decided']);
  });

  it('whatever it observes, a replica never writes over or acts on a request another replica holds, and never sends on taking one over', () => {
    const observations: Observation[] = [
      due,
      checked,
      { kind: 'quoted', quote: { quoteId: 'q2', price: '65500', expiresAt: T0 + 120_000 }, reason: 'expired' },
      {
        kind: 'person',
        decision: { by: 'U_A1', at: T0, action: 'mark_not_sent', exchangeId: null, checked: 'checked' },
      },
      { kind: 'person', decision: { by: 'U_REQ', at: T0, action: 'look_again', exchangeId: null, checked: null } },
    ];
    const records = [
      inFlight(withdrawal),
      inFlight(trade),
      inFlight(removal),
      asked(inDoubt(withdrawal)),
      inDoubt(trade),
      inDoubt(removal),
    ];
    for (const record of records) {
      for (const obs of observations) {
        const live = nextStep(held(record, OTHER, T0 + 1_000_000), T0 + 700_000, obs, facts());
        expect(live.write, `${record.kind} ${record.state} ${obs.kind}`).toBeUndefined();
        expect(live.effect.kind).toBe('none');
        if (record.state === 'executing')
          expect(nextStep(held(record, OTHER, T0), T0 + 700_000, obs, facts()).effect.kind).not.toBe('send');
      }
    }
  });
});

describe('decide: a withdrawal known by its desk reference, a look-alike never taken for it (issue 20, sections 1, 3, 5)', () => {
  const looked = (look: Extract<Observation, { kind: 'looked' }>['look'], at: number): Observation => ({
    kind: 'looked',
    look,
    at,
  });
  const handMade = {
    exchangeId: 'w-hand',
    createdAt: T0 - 3_000,
    amount: '0.05',
    status: 'pending',
    requestId: null,
    destination: 'Cold',
  };

  it('found by its reference while the window is open: submitted at once, audited as matched by the reference', () => {
    const step = nextStep(
      inDoubt(withdrawal),
      T0 + 25_000,
      looked({ kind: 'found', exchangeId: 'w1', by: 'reference' }, T0 + 25_000),
      facts(),
    );
    expect(step.write?.command).toBe('submitted');
    expect(step.audit[0]).toMatchObject({
      type: 'execution.reconciled',
      data: { outcome: 'submitted', exchangeId: 'w1', matchedBy: 'reference' },
    });
  });

  it('found by its reference an hour after a person was asked: submitted, the question gone', () => {
    const at = T0 + 3_600_000;
    const step = nextStep(
      asked(inDoubt(withdrawal)),
      at,
      looked({ kind: 'found', exchangeId: 'w1', by: 'reference' }, at),
      facts(),
    );
    expect(step.write?.command).toBe('submitted');
    expect(step.write?.changes.execution?.inDoubt).toBeNull();
  });

  it('one look-alike without a note made 3 s before our send: a person is asked ("unproven"), nothing adopted, nothing sent', () => {
    const step = nextStep(
      inDoubt(withdrawal),
      T0 + 10_000,
      looked({ kind: 'candidates', candidates: [handMade] }, T0 + 10_000),
      facts(),
    );
    expect(step.write?.command ?? null).toBeNull();
    expect(step.effect.kind).toBe('none');
    expect(step.audit).toEqual([
      expect.objectContaining({
        type: 'execution.needs_person',
        data: expect.objectContaining({
          kind: 'unproven',
          candidates: [{ exchangeId: 'w-hand', createdAt: T0 - 3_000, status: 'pending' }],
        }),
      }),
    ]);
    expect(step.events).toEqual([
      expect.objectContaining({
        type: 'execution.needs_person',
        question: expect.objectContaining({ kind: 'unproven' }),
      }),
    ]);
  });

  it('the exchange still unreadable past the settle window: a person is asked ("unreadable"), never "not found", nothing sent', () => {
    const at = T0 + 700_000;
    const step = nextStep(
      inDoubt(withdrawal),
      at,
      looked({ kind: 'inconclusive', message: 'The exchange lists more than 2,000 records', cut: true }, at),
      facts(),
    );
    expect(step.effect.kind).toBe('none');
    expect(step.write?.changes.execution?.inDoubt?.question).toMatchObject({
      kind: 'unreadable',
      candidates: [],
      message: 'The exchange lists more than 2,000 records',
    });
  });

  it('a person says the unproven look-alike is ours after checking: submitted with it', () => {
    const r = inDoubt(withdrawal);
    const question = { askedAt: T0 + 10_000, kind: 'unproven' as const, candidates: [handMade] };
    const withQuestion: RequestRecord = {
      ...r,
      execution: { ...r.execution!, inDoubt: { ...r.execution!.inDoubt!, question } },
    };
    const step = nextStep(
      withQuestion,
      T0 + 20_000,
      {
        kind: 'person',
        decision: {
          by: 'U_A1',
          at: T0 + 20_000,
          action: 'choose',
          exchangeId: 'w-hand',
          checked: 'Sam made none; this is ours.',
        },
      },
      facts(),
    );
    // Recorded, and taken on the look made for it when that look shows nothing new.
    expect(step.write?.command).toBeUndefined();
    expect(step.effect).toEqual({ kind: 'look' });
    const recorded = { ...withQuestion, execution: { ...withQuestion.execution!, ...step.write!.changes.execution! } };
    const looked = nextStep(
      recorded,
      T0 + 21_000,
      { kind: 'looked', look: { kind: 'candidates', candidates: [handMade] }, at: T0 + 20_000 },
      facts(),
    );
    expect(looked.write?.command).toBe('submitted');
    expect(looked.write?.changes.execution?.exchangeId).toBe('w-hand');
  });
});
