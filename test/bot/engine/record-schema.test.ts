/** The stored request record: what the schema accepts, and records written by earlier versions. */
import { describe, expect, it } from 'vitest';
import { REQUEST_RECORD_SCHEMA } from '../../../src/bot/domain/record-schema.js';
import { createPolicy } from '../../../src/bot/domain/policy.js';
import { advance, newExecution, newRequest } from '../../../src/bot/domain/record.js';
import { tradeSnapshot } from './support/snapshots.js';

const policy = createPolicy({ requesters: ['R'], approvers: ['A', 'B'] });
const trade = newRequest({
  id: 'RTRADE',
  requester: 'R',
  snapshot: tradeSnapshot({ quoteId: 'q1', price: '100', expiresAt: 2_000 }, '101'),
  now: 1_000,
  policy,
});

describe('the request record schema', () => {
  it('reads an order result stored under the exchange field names (before the port spoke the engine terms) under the new names', () => {
    const stored = {
      ...trade,
      result: {
        order_receipt_id: 'RCPT-1',
        price: '100',
        fee: '0.1',
        fee_currency: 'USD',
        net_amount: '0.0099',
        received_currency: 'BTC',
        cancel_reason: null,
      },
    };
    const parsed = REQUEST_RECORD_SCHEMA.parse(stored);
    expect(parsed.result).toEqual({
      receiptId: 'RCPT-1',
      price: '100',
      fee: '0.1',
      feeCurrency: 'USD',
      netAmount: '0.0099',
      receivedCurrency: 'BTC',
      cancelReason: null,
    });
  });

  it('keeps a result in the new names as it is, and refuses a field it does not know', () => {
    const result = { receiptId: 'RCPT-2', price: '99', bankReference: null };
    expect(REQUEST_RECORD_SCHEMA.parse({ ...trade, result }).result).toEqual(result);
    expect(REQUEST_RECORD_SCHEMA.safeParse({ ...trade, result: { surprise: '1' } }).success).toBe(false);
  });

  it('the record is a union by state: an approved or later request without its execution is refused, by the schema and by advance', () => {
    for (const state of ['approved', 'executing', 'unknown', 'submitted', 'completed', 'failed']) {
      expect(REQUEST_RECORD_SCHEMA.safeParse({ ...trade, state, execution: null }).success, state).toBe(false);
      expect(REQUEST_RECORD_SCHEMA.safeParse({ ...trade, state, execution: newExecution(1_500) }).success, state).toBe(
        true,
      );
    }
    expect(REQUEST_RECORD_SCHEMA.safeParse({ ...trade, state: 'pending', execution: null }).success).toBe(true);
    expect(advance(trade, 'approve_last', 1_600)).toMatchObject({ ok: false, reason: 'illegal_transition' });
    expect(advance(trade, 'approve_last', 1_600, { execution: newExecution(1_600) }).ok).toBe(true);
  });

  it('reads pending decisions and stopped trades as absent in a doubt stored before them', () => {
    const {
      pendingDecision: _p,
      stoppedBecause: _s,
      ...before
    } = {
      since: 1,
      window: { from: 0, to: 2 },
      settleUntil: 2,
      looks: 0,
      lastLookAt: null,
      nextLookAt: 1,
      question: null,
      excluded: [],
      pendingDecision: null,
      stoppedBecause: null,
    };
    const parsed = REQUEST_RECORD_SCHEMA.parse({
      ...trade,
      state: 'unknown',
      execution: { ...newExecution(1_500), inDoubt: before },
    });
    expect(parsed.execution?.inDoubt).toMatchObject({ pendingDecision: null, stoppedBecause: null });
  });

  it('reads an execution stored before leases as held by nobody, and keeps a lease as written', () => {
    const { lease: _none, ...before } = newExecution(1_500);
    const executing = { ...trade, state: 'executing', execution: before };
    expect(REQUEST_RECORD_SCHEMA.parse(executing).execution?.lease).toBeNull();
    const lease = { holder: 'host-42-0a1b2c3d', until: 16_500 };
    expect(REQUEST_RECORD_SCHEMA.parse({ ...executing, execution: { ...before, lease } }).execution?.lease).toEqual(
      lease,
    );
    expect(
      REQUEST_RECORD_SCHEMA.safeParse({ ...executing, execution: { ...before, lease: { holder: '', until: 1 } } })
        .success,
    ).toBe(false);
  });
});
