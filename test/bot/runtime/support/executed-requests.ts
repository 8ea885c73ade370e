/**
 * Requests a limit counts or not, written through a store's own mutate: BTC withdrawals approved
 * inside the 24 h window (completed, executing), one failed inside it, one completed before it.
 */
import { createPolicy } from '../../../../src/bot/domain/policy.js';
import {
  advance,
  isFinishedRequest,
  newExecution,
  newRequest,
  type RequestRecord,
} from '../../../../src/bot/domain/record.js';
import {
  REQUEST_RECORD_SCHEMA,
  REQUEST_RECORD_VERSION,
  REQUEST_STORE_NAME,
} from '../../../../src/bot/domain/record-schema.js';
import type { Command } from '../../../../src/bot/domain/state-machine.js';
import type { Snapshot } from '../../../../src/bot/domain/request.js';
import type { Repository } from '../../../../src/bot/ports/store.js';

/** The requests' repository as the bot opens it, on files or PostgreSQL. */
export const REQUESTS = {
  name: REQUEST_STORE_NAME,
  schema: REQUEST_RECORD_SCHEMA,
  isFinished: isFinishedRequest,
  version: REQUEST_RECORD_VERSION,
};

const HOUR = 3_600_000;
export const NOW = Date.UTC(2026, 10, 25, 12);

/** Counted now: 1.5 + 1 BTC. Not counted: 2 BTC failed, 3 BTC approved 25 h ago. */
export const COUNTED_NOW = '2.5';

const btc = (amount: string): Snapshot => ({
  kind: 'crypto_withdrawal',
  cryptoCurrencyId: 2,
  asset: 'BTC',
  network: 'Bitcoin',
  precision: 8,
  amount,
  fee: '0.0005',
  total: amount,
  destination: { id: 'a', label: 'Treasury cold storage', address: 'bc1q', addressTag: null },
  note: null,
  purpose: null,
});

const policy = createPolicy({ requesters: ['U0REQ0001'], approvers: ['U0APP0001', 'U0APP0002'] });

/** Approved `agoMs` before NOW, then moved on by `commands` a minute apart. */
function requestAt(id: string, amount: string, agoMs: number, commands: Command[]): RequestRecord {
  const approvedAt = NOW - agoMs;
  let record = newRequest({ id, requester: 'U0REQ0001', snapshot: btc(amount), now: approvedAt - 60_000, policy });
  let at = approvedAt;
  for (const command of ['approve_last', ...commands] as Command[]) {
    const step = advance(record, command, at, command === 'approve_last' ? { execution: newExecution(at) } : {});
    if (!step.ok) throw new Error(step.message);
    record = step.record;
    at += 60_000;
  }
  return record;
}

export async function storeExecutedRequests(requests: Repository<RequestRecord>): Promise<void> {
  for (const record of [
    requestAt('RIN1', '1.5', 2 * HOUR, ['execute', 'complete']),
    requestAt('RIN2', '1', HOUR, ['execute']),
    requestAt('RFAIL', '2', HOUR, ['execute', 'fail']),
    requestAt('ROLD', '3', 25 * HOUR, ['execute', 'complete']),
  ])
    await requests.mutate(record.id, () => ({ next: record, result: undefined }));
}
