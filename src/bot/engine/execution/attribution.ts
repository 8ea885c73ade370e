// Whose is a withdrawal the exchange lists, for a request in doubt: decided by its marks (request_id,
// desk reference) before its terms; pure. The table: docs/execution.md "Whose withdrawal is it".
import { exchangeNoteOf, readDeskReference } from '../../domain/desk-reference.js';
import { attemptKeys, type RequestRecord } from '../../domain/record.js';
import type { EngineConfig } from '../engine-config.js';
import { exchangeClock } from './in-doubt.js';

export type Attribution = 'ours' | 'never' | 'by_terms';

/** What a listed withdrawal shows of who made it. */
export interface Marks {
  requestId: string | null;
  note: string | null;
  /** The exchange's created_at, null when a fiat record gives none readable. */
  createdAt: number | null;
}

export function attribute(record: RequestRecord, marks: Marks, config: EngineConfig): Attribution {
  const attempts = record.execution?.attempts ?? [];
  if (marks.requestId !== null) return attemptKeys(record).includes(marks.requestId) ? 'ours' : 'never';
  const ref = readDeskReference(marks.note);
  if (ref !== null) {
    const send = ref.requestId === record.id ? attempts[ref.attempt - 1] : undefined;
    if (send === undefined) return 'never';
    const { offset, tolerance } = exchangeClock(config, record.execution?.clockOffsetMs ?? null);
    // Made before this attempt could have reached the exchange: someone copied the reference.
    return marks.createdAt !== null && marks.createdAt < send.startedAt + offset - tolerance ? 'never' : 'ours';
  }
  const note = marks.note?.trim() ?? '';
  if (note === '') return 'by_terms';
  // An exchange that cuts notes short may cut our reference off: a prefix of ours proves nothing either way.
  const sent = attempts.map((_, i) => exchangeNoteOf(record.snapshot, i + 1)).filter((n): n is string => n !== null);
  return sent.some((n) => n.trim().startsWith(note)) ? 'by_terms' : 'never';
}
