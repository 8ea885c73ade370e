/**
 * Exactly once, from the exchange's own ledger: for each crypto withdrawal request of a run, the
 * withdrawals the sandbox holds with its amount and destination (every request of a run has an
 * amount of its own), each sent with an idempotency key the request knows; and what became of the
 * request in the shared store. Nothing here trusts the bot's account of itself.
 */
import { cmp } from '../../../../src/bot/domain/money.js';
import { attemptKeys, type RequestRecord } from '../../../../src/bot/domain/record.js';
import type { SandboxProcess } from './sandbox-process.js';

type Withdrawal = Awaited<ReturnType<SandboxProcess['withdrawals']>>[number];

export interface OnceReport {
  /** Requests checked. */
  requests: number;
  /** Withdrawals on the exchange beyond one per request (0 is the point). */
  duplicates: number;
  /** Request ids with no withdrawal on the exchange. */
  notExecuted: string[];
  /** Request ids not `completed` (each with its state). */
  unfinished: string[];
  /** Request ids that waited for a person's settlement (the exchange could not settle them). */
  personPath: string[];
  /** Everything else wrong, one sentence each. */
  problems: string[];
}

/**
 * `ids`: the requests the run made; `withdrawals`: the sandbox's withdrawals created during the
 * run (its seeded history left out by the caller). Every such withdrawal must belong to one of them.
 */
export function checkExactlyOnce(
  ids: readonly string[],
  records: readonly RequestRecord[],
  withdrawals: readonly Withdrawal[],
): OnceReport {
  const report: OnceReport = {
    requests: ids.length,
    duplicates: 0,
    notExecuted: [],
    unfinished: [],
    personPath: [],
    problems: [],
  };
  const claimed = new Set<string>();
  for (const id of ids) {
    const r = records.find((x) => x.id === id);
    if (!r) {
      report.problems.push(`${id}: not in the store`);
      continue;
    }
    if (r.snapshot.kind !== 'crypto_withdrawal') {
      report.problems.push(`${id}: a ${r.snapshot.kind}, not a crypto withdrawal`);
      continue;
    }
    const { amount, destination } = r.snapshot;
    const executed = withdrawals.filter(
      (w) => cmp(w.amount, amount) === 0 && w.address_book_address?.id === destination.id,
    );
    for (const w of executed) claimed.add(w.id);
    if (executed.length === 0) report.notExecuted.push(id);
    report.duplicates += Math.max(0, executed.length - 1);
    const keys = attemptKeys(r);
    if (executed.some((w) => !keys.includes(w.request_id ?? '')))
      report.problems.push(`${id}: a withdrawal sent with a key the request does not know`);
    if (executed.length === 1 && r.execution?.exchangeId !== executed[0]!.id)
      report.problems.push(`${id}: the record tracks ${r.execution?.exchangeId}, the exchange has ${executed[0]!.id}`);
    if (r.state !== 'completed') report.unfinished.push(`${id} (${r.state})`);
    if (r.execution?.inDoubt?.question || (r.execution?.decisions.length ?? 0) > 0) report.personPath.push(id);
  }
  const strays = withdrawals.filter((w) => !claimed.has(w.id));
  if (strays.length > 0)
    report.problems.push(
      `${strays.length} withdrawal(s) on the exchange belong to no request: ${strays.map((w) => `${w.amount} ${w.request_id}`).join(', ')}`,
    );
  return report;
}
