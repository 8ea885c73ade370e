// Approvals and executions counted from the audit entries the engine appends, so the counters agree with
// the one record of what happened; an entry counts once durable. Labels come from fixed sets (else
// `other`), so outside values cannot grow the series.
import { Counter, type Registry } from 'prom-client';
import type { AuditEntryInput, AuditLog } from '../ports/store.js';
import { REFUSAL_MESSAGES } from '../domain/refusals.js';

/** What an answer to a send (audit `exchange.answer`, data.outcome) can say (engine/execution/next-step.ts). */
const ANSWER_OUTCOMES = new Set(['submitted', 'refused', 'unknown', 'duplicate', 'refused_in_doubt', 'quote_unusable']);
const FINISHED = new Map([
  ['request.completed', 'completed'],
  ['request.failed', 'failed'],
  ['request.rejected', 'rejected'],
  ['request.cancelled', 'cancelled'],
  ['request.expired', 'expired'],
]);

export function countingAuditLog(inner: AuditLog, registry: Registry): AuditLog {
  const count = auditCounters(registry);
  return {
    async append(entry) {
      await inner.append(entry);
      count(entry);
    },
  };
}

function auditCounters(registry: Registry): (entry: AuditEntryInput) => void {
  const registers = [registry];
  const created = new Counter({
    name: 'desk_requests_created_total',
    help: 'Requests made (audit request.created).',
    registers,
  });
  const counted = new Counter({
    name: 'desk_approvals_counted_total',
    help: 'Approvals counted towards a request (audit approval.counted).',
    registers,
  });
  const refused = new Counter({
    name: 'desk_approvals_refused_total',
    help: 'Approval clicks refused, by reason (audit approval.refused).',
    labelNames: ['reason'],
    registers,
  });
  const attempts = new Counter({
    name: 'desk_execution_attempts_total',
    help: 'Sends of approved requests to the exchange (audit execution.attempt), retry true for a send again.',
    labelNames: ['retry'],
    registers,
  });
  const executions = new Counter({
    name: 'desk_executions_total',
    help: 'How sends ended, by outcome: the exchange answer (submitted, refused, quote_unusable) or its absence (unknown, duplicate, refused_in_doubt); and unknown outcomes settled by looking on the exchange (reconciled, not_found).',
    labelNames: ['outcome'],
    registers,
  });
  const finished = new Counter({
    name: 'desk_requests_finished_total',
    help: 'Requests that reached a final state, by result.',
    labelNames: ['result'],
    registers,
  });

  return (entry) => {
    const data = entry.data ?? {};
    switch (entry.type) {
      case 'request.created':
        return created.inc();
      case 'approval.counted':
        return counted.inc();
      case 'approval.refused':
        return refused.inc({ reason: oneOf(data.reason, (r) => Object.hasOwn(REFUSAL_MESSAGES, r)) });
      case 'execution.attempt':
        return attempts.inc({ retry: String(data.retry === true) });
      case 'exchange.answer':
        return executions.inc({ outcome: oneOf(data.outcome, (o) => ANSWER_OUTCOMES.has(o)) });
      case 'execution.reconciled':
        // Found: the entry carries outcome 'submitted'; not found: found false and what happens next.
        return executions.inc({ outcome: data.found === false ? 'not_found' : 'reconciled' });
    }
    const result = FINISHED.get(entry.type);
    if (result !== undefined) finished.inc({ result });
  };
}

function oneOf(value: unknown, known: (v: string) => boolean): string {
  return typeof value === 'string' && known(value) ? value : 'other';
}
