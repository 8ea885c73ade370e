/**
 * The unknown-outcome decision as a table: each row is a record in doubt, what one look saw, and
 * what must follow. No I/O: the rows are the rules of engine/execution/in-doubt.ts.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../../src/bot/engine/engine-config.js';
import { EXCHANGE_LIMITS } from '../../../../src/bot/exchange/adapter/index.js';
import {
  judgeLook,
  openInDoubt,
  type Look,
  type LookJudgement,
} from '../../../../src/bot/engine/execution/in-doubt.js';
import { createPolicy } from '../../../../src/bot/domain/policy.js';
import {
  newExecution,
  newRequest,
  type Attempt,
  type Candidate,
  type ExecutedRequest,
} from '../../../../src/bot/domain/record.js';
import type { Snapshot } from '../../../../src/bot/domain/request.js';
import { tradeSnapshot, withdrawalSnapshot } from '../support/snapshots.js';

const config = resolveConfig({}, EXCHANGE_LIMITS);
const policy = createPolicy({ requesters: ['U_REQ'], approvers: ['U_A1', 'U_A2'] });
const T0 = 1_800_000_000_000;
const SEND = T0 + 1_000;
const GAVE_UP = SEND + 10_000;

const withdrawal = withdrawalSnapshot;
const trade = tradeSnapshot({ quoteId: 'q1', price: '65000', expiresAt: SEND + 2_500 }, '70000');

function inDoubtRecord(
  snapshot: Snapshot,
  attempt: Partial<Attempt> = {},
  offset: number | null = null,
): ExecutedRequest {
  const base = newRequest({ id: 'R1', requester: 'U_REQ', snapshot, now: T0, policy });
  const quote = snapshot.kind === 'trade' ? snapshot.quote : null;
  const attempts: Attempt[] = [
    { key: 'k1', startedAt: SEND, quote, outcome: 'unknown', message: 'timeout', endedAt: GAVE_UP, ...attempt },
  ];
  const execution = { ...newExecution(T0), attempts, unknownSince: GAVE_UP, clockOffsetMs: offset };
  const record: ExecutedRequest = { ...base, state: 'unknown', execution };
  return { ...record, execution: { ...execution, inDoubt: openInDoubt(record, GAVE_UP, config, offset) } };
}

const candidate = (id: string, createdAt: number): Candidate => ({
  exchangeId: id,
  createdAt,
  amount: '0.05',
  status: 'pending',
  requestId: null,
  destination: 'Cold',
});
const none: Look = { kind: 'candidates', candidates: [] };
const WINDOW_CLOSES = SEND + config.unknownSettleWindowMs;

describe('opening the doubt', () => {
  it('fixes the window from the sends and the measured clock offset, and never from the clock', () => {
    const measured = inDoubtRecord(withdrawal, {}, 3_000).execution.inDoubt!;
    expect(measured.window).toEqual({
      from: SEND + 3_000 - config.offsetToleranceMs,
      to: SEND + 3_000 + config.unknownSettleWindowMs + config.offsetToleranceMs,
    });
    expect(measured.settleUntil).toBe(WINDOW_CLOSES);
    const unmeasured = inDoubtRecord(withdrawal).execution.inDoubt!;
    expect(unmeasured.window.from).toBe(SEND - config.clockSkewMs);
    expect(unmeasured.nextLookAt).toBe(GAVE_UP);
  });
});

describe('what a look decides', () => {
  const rows: [string, ExecutedRequest, Look, number, LookJudgement['kind'], Partial<LookJudgement>?][] = [
    ['found by key', inDoubtRecord(withdrawal), { kind: 'found', exchangeId: 'w1' }, GAVE_UP, 'adopt', { why: 'key' }],
    [
      'found by our desk reference, the window still open: adopted at once',
      inDoubtRecord(withdrawal),
      { kind: 'found', exchangeId: 'w1', by: 'reference' },
      GAVE_UP,
      'adopt',
      { why: 'reference' },
    ],
    [
      'found by our desk reference long after the window (a very late commit)',
      inDoubtRecord(withdrawal),
      { kind: 'found', exchangeId: 'w1', by: 'reference' },
      WINDOW_CLOSES + 3_600_000,
      'adopt',
      { why: 'reference' },
    ],
    [
      'one candidate created while our call was open, provably after the send started',
      inDoubtRecord(withdrawal, {}, 0),
      { kind: 'candidates', candidates: [candidate('w1', SEND + 6_000)] },
      GAVE_UP,
      'adopt',
      { why: 'sole_candidate_in_call' },
    ],
    [
      'one candidate 3 s before our send (a look-alike made by hand?): a person, never adopted',
      inDoubtRecord(withdrawal, {}, 0),
      { kind: 'candidates', candidates: [candidate('w1', SEND - 3_000)] },
      GAVE_UP,
      'ask',
      { question: { kind: 'unproven' } } as Partial<LookJudgement>,
    ],
    [
      'one candidate inside the offset uncertainty after our send: a person, never adopted',
      inDoubtRecord(withdrawal, {}, 0),
      { kind: 'candidates', candidates: [candidate('w1', SEND + 4_000)] },
      GAVE_UP,
      'ask',
      { question: { kind: 'unproven' } } as Partial<LookJudgement>,
    ],
    [
      'one candidate inside the offset uncertainty, the window closed: still a person',
      inDoubtRecord(withdrawal, {}, 0),
      { kind: 'candidates', candidates: [candidate('w1', SEND + 1_000)] },
      WINDOW_CLOSES,
      'ask',
      { question: { kind: 'unproven' } } as Partial<LookJudgement>,
    ],
    [
      'no offset measured: one candidate 30 s after our send proves nothing (60 s skew)',
      inDoubtRecord(withdrawal),
      { kind: 'candidates', candidates: [candidate('w1', SEND + 30_000)] },
      WINDOW_CLOSES,
      'ask',
      { question: { kind: 'unproven' } } as Partial<LookJudgement>,
    ],
    [
      'one candidate created after we gave up, window open: wait for others',
      inDoubtRecord(withdrawal, {}, 0),
      { kind: 'candidates', candidates: [candidate('w1', GAVE_UP + 60_000)] },
      GAVE_UP + 61_000,
      'wait',
    ],
    [
      'one candidate created after we gave up, window closed',
      inDoubtRecord(withdrawal, {}, 0),
      { kind: 'candidates', candidates: [candidate('w1', GAVE_UP + 60_000)] },
      WINDOW_CLOSES,
      'adopt',
      { why: 'sole_candidate_window_closed' },
    ],
    [
      'after a crash mid-call (restart a minute later), one candidate from after the call could have ended: wait',
      inDoubtRecord(withdrawal, { endedAt: SEND + 60_000 }, 0),
      { kind: 'candidates', candidates: [candidate('w1', SEND + 45_000)] },
      SEND + 61_000,
      'wait',
    ],
    [
      'two candidates: a person says which',
      inDoubtRecord(withdrawal, {}, 0),
      { kind: 'candidates', candidates: [candidate('w1', SEND + 1_000), candidate('w2', SEND + 2_000)] },
      GAVE_UP,
      'ask',
    ],
    ['nothing, window open: look again within 30 s', inDoubtRecord(withdrawal), none, GAVE_UP, 'wait'],
    ['nothing, window closed: a person decides', inDoubtRecord(withdrawal), none, WINDOW_CLOSES, 'ask'],
    [
      'exchange unreadable, window open: look again, nothing proven',
      inDoubtRecord(withdrawal),
      { kind: 'inconclusive', message: 'timeout', cut: false },
      GAVE_UP,
      'wait',
    ],
    [
      'list cut short, window open: look again, nothing proven',
      inDoubtRecord(withdrawal),
      { kind: 'inconclusive', message: 'too many', cut: true },
      GAVE_UP,
      'wait',
    ],
    [
      'exchange unreadable past the window: a person checks (never "not found")',
      inDoubtRecord(withdrawal),
      { kind: 'inconclusive', message: 'timeout', cut: false },
      WINDOW_CLOSES,
      'ask',
      { question: { kind: 'unreadable', message: 'timeout', candidates: [] } } as Partial<LookJudgement>,
    ],
    [
      'list cut short past the window: a person checks',
      inDoubtRecord(withdrawal),
      { kind: 'inconclusive', message: 'too many', cut: true },
      WINDOW_CLOSES,
      'ask',
      { question: { kind: 'unreadable' } } as Partial<LookJudgement>,
    ],
    [
      'a resend refused and nothing there: the refusal stands',
      inDoubtRecord(withdrawal, { outcome: 'refused' }),
      none,
      GAVE_UP,
      'refusal_stands',
    ],
    ['order found by client_order_id', inDoubtRecord(trade), { kind: 'found', exchangeId: '7' }, GAVE_UP, 'adopt'],
    [
      'order not found, quote alive: send the same client_order_id again',
      inDoubtRecord(trade),
      none,
      SEND + config.firstLookAfterMs,
      'resend',
      { key: 'k1' },
    ],
    [
      'order not found, quote dead past the skew: re-quote',
      inDoubtRecord(trade),
      none,
      SEND + 2_500 + config.clockSkewMs,
      'requote',
    ],
    [
      'order answered "duplicate id": never re-sent or re-quoted, only looked for',
      inDoubtRecord(trade, { outcome: 'duplicate' }),
      none,
      SEND + 2_500 + config.clockSkewMs,
      'wait',
    ],
  ];
  it.each(rows)('%s', (_name, record, look, lookedAt, kind, extra) => {
    const decision = judgeLook(
      record,
      record.execution.inDoubt!,
      look,
      lookedAt,
      config,
      record.execution.clockOffsetMs,
    );
    expect(decision.kind).toBe(kind);
    if (extra) expect(decision).toMatchObject(extra);
    if (decision.kind === 'wait') expect(decision.nextLookAt - lookedAt).toBeLessThanOrEqual(30_000);
  });

  it('a withdrawal is never sent again by a look, whatever it saw and whenever', () => {
    const looks: Look[] = [
      none,
      { kind: 'inconclusive', message: 'x', cut: false },
      { kind: 'candidates', candidates: [candidate('w1', GAVE_UP + 1)] },
    ];
    for (const look of looks) {
      for (const at of [GAVE_UP, WINDOW_CLOSES, WINDOW_CLOSES + 86_400_000]) {
        expect(
          judgeLook(inDoubtRecord(withdrawal), inDoubtRecord(withdrawal).execution.inDoubt!, look, at, config, null)
            .kind,
        ).not.toBe('resend');
      }
    }
  });

  it('candidates a person said are not ours never count again', () => {
    const record = inDoubtRecord(withdrawal, {}, 0);
    const inDoubt = { ...record.execution.inDoubt!, excluded: ['w1'] };
    const decision = judgeLook(
      record,
      inDoubt,
      { kind: 'candidates', candidates: [candidate('w1', SEND + 1_000)] },
      WINDOW_CLOSES,
      config,
      0,
    );
    expect(decision).toMatchObject({ kind: 'ask', question: { kind: 'not_found', candidates: [] } });
  });

  it('while a person is asked, the same question is not asked again, and looks come less often', () => {
    const record = inDoubtRecord(withdrawal);
    const first = judgeLook(record, record.execution.inDoubt!, none, WINDOW_CLOSES, config, null);
    if (first.kind !== 'ask') throw new Error('expected a question');
    const asked = { ...record.execution.inDoubt!, question: first.question };
    const again = judgeLook(record, asked, none, WINDOW_CLOSES + 120_000, config, null);
    expect(again).toMatchObject({ kind: 'ask' });
    if (again.kind === 'ask') expect(again.question).toBe(first.question);
    expect(again.kind === 'ask' && again.nextLookAt - (WINDOW_CLOSES + 120_000)).toBe(config.personWaitLookIntervalMs);
  });
});
