/**
 * Whose is a listed withdrawal, as a table (engine/execution/attribution.ts): by its marks first
 * (request_id, desk reference, note), terms and time only for records without a note. And the
 * fiat list read newest first only until it is past the window's start (bounded-lists.ts).
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../../src/bot/engine/engine-config.js';
import { attribute, type Attribution, type Marks } from '../../../../src/bot/engine/execution/attribution.js';
import { collect, untilOlderThan } from '../../../../src/bot/engine/bounded-lists.js';
import { withExchangeNote } from '../../../../src/bot/domain/desk-reference.js';
import { createPolicy } from '../../../../src/bot/domain/policy.js';
import { newExecution, newRequest, type Attempt, type RequestRecord } from '../../../../src/bot/domain/record.js';
import { EXCHANGE_LIMITS } from '../../../../src/bot/exchange/adapter/index.js';
import { withdrawalSnapshot } from '../support/snapshots.js';

const config = resolveConfig({}, EXCHANGE_LIMITS);
const policy = createPolicy({ requesters: ['U_REQ'], approvers: ['U_A1', 'U_A2'] });
const T0 = 1_800_000_000_000;
const SEND = T0 + 1_000;
const RESEND = SEND + 700_000;

function inDoubt(
  o: { attempts?: number; offset?: number | null; note?: string | null; frozen?: boolean } = {},
): RequestRecord {
  const snapshot = { ...withdrawalSnapshot, note: o.note ?? 'Payroll' } as typeof withdrawalSnapshot;
  const base = newRequest({
    id: 'R6EYET',
    requester: 'U_REQ',
    snapshot: o.frozen === false ? snapshot : withExchangeNote(snapshot, 'R6EYET'),
    now: T0,
    policy,
  });
  const attempts: Attempt[] = [SEND, RESEND].slice(0, o.attempts ?? 1).map((startedAt, i) => ({
    key: `k${i + 1}`,
    startedAt,
    quote: null,
    outcome: 'unknown',
    message: null,
    endedAt: startedAt + 10_000,
  }));
  return {
    ...base,
    state: 'unknown',
    execution: { ...newExecution(T0), attempts, clockOffsetMs: o.offset === undefined ? 0 : o.offset },
  };
}

const marks = (note: string | null, createdAt: number | null = SEND + 100, requestId: string | null = null): Marks => ({
  note,
  createdAt,
  requestId,
});

describe('whose is a listed withdrawal', () => {
  const rows: [string, RequestRecord, Marks, Attribution][] = [
    ['our reference, made as our send reached the exchange', inDoubt(), marks('Payroll · desk R6EYET-1'), 'ours'],
    ['our reference, committed an hour late', inDoubt(), marks('Payroll · desk R6EYET-1', SEND + 3_600_000), 'ours'],
    [
      'our reference, within the offset uncertainty before the send',
      inDoubt(),
      marks('desk R6EYET-1', SEND - 4_000),
      'ours',
    ],
    [
      'our reference, made before that send could have started (copied by hand)',
      inDoubt(),
      marks('desk R6EYET-1', SEND - 6_000),
      'never',
    ],
    [
      'our reference of the second attempt, made before it started',
      inDoubt({ attempts: 2 }),
      marks('desk R6EYET-2', RESEND - 60_000),
      'never',
    ],
    [
      'our reference of the second attempt, after it started',
      inDoubt({ attempts: 2 }),
      marks('desk R6EYET-2', RESEND + 1_000),
      'ours',
    ],
    ['our reference of an attempt never sent', inDoubt(), marks('desk R6EYET-2'), 'never'],
    [
      'no offset measured: our reference 50 s before the send still fits the 60 s skew',
      inDoubt({ offset: null }),
      marks('desk R6EYET-1', SEND - 50_000),
      'ours',
    ],
    ["another request's reference", inDoubt(), marks('Payroll · desk R7K2QX-1'), 'never'],
    ['a fiat record without a readable time, our reference', inDoubt(), marks('desk R6EYET-1', null), 'ours'],
    ['no note: terms and time judge it', inDoubt(), marks(null), 'by_terms'],
    ['a blank note: as none', inDoubt(), marks('  '), 'by_terms'],
    [
      'a note cut short by the exchange, our reference lost: terms and time',
      inDoubt(),
      marks('Payroll · de'),
      'by_terms',
    ],
    ["someone else's note", inDoubt(), marks('Rent for March'), 'never'],
    ['our request_id listed', inDoubt(), marks(null, SEND, 'k1'), 'ours'],
    ['another request_id listed', inDoubt(), marks('desk R6EYET-1', SEND, 'someone-else'), 'never'],
    [
      'a request made before references: its own note sent, terms and time judge it',
      inDoubt({ frozen: false }),
      marks('Payroll'),
      'by_terms',
    ],
  ];
  it.each(rows)('%s', (_name, record, m, expected) => {
    expect(attribute(record, m, config)).toBe(expected);
  });
});

async function* listed(times: (number | null)[], seen: (number | null)[]): AsyncGenerator<number | null> {
  for (const t of times) {
    seen.push(t);
    yield t;
  }
}

describe('a list served newest first, read until past the window start', () => {
  const FROM = 1_000;
  const read = async (times: (number | null)[]) => {
    const seen: (number | null)[] = [];
    const kept = await collect(untilOlderThan(listed(times, seen), FROM, (t) => t));
    return { kept, seen: seen.length };
  };

  it('stops at the first item older than the start that follows a newer one', async () => {
    expect(await read([3_000, 2_000, 1_500, 900, 800, 700])).toEqual({ kept: [3_000, 2_000, 1_500], seen: 4 });
  });

  it('a first item already older needs a second to prove the order', async () => {
    expect(await read([900, 800, 700])).toEqual({ kept: [900], seen: 2 });
  });

  it('a list that turns out not to be newest first is read to its end', async () => {
    expect(await read([500, 600, 2_000, 100])).toEqual({ kept: [500, 600, 2_000, 100], seen: 4 });
  });

  it('items without a time neither stop it nor count for the order', async () => {
    expect(await read([2_000, null, 1_200, null, 900, 10])).toEqual({ kept: [2_000, null, 1_200, null], seen: 5 });
  });
});
