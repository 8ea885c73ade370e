/** New outbox entries for events, numbered after `lastSeq` (one rule for both stores). */
import type { OutboxEntry } from '../ports/store.js';
import type { OutboxEvent } from '../ports/events.js';

export function newOutboxEntries(lastSeq: number, events: readonly OutboxEvent[]): OutboxEntry[] {
  return events.map((event, i) => ({
    seq: lastSeq + i + 1,
    requestId: event.requestId,
    event,
    attempts: 0,
    nextAt: 0,
    lastError: null,
    permanent: false,
    failingSince: null,
    done: [],
  }));
}
