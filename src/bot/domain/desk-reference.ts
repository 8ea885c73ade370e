// The desk reference at the end of every withdrawal's exchange note (`Payroll · desk R6EYET-1`), by
// which the bot knows its own records. The first note is frozen into the snapshot so approvers see
// what is sent; a later attempt carries the same note with its own attempt number.
import type { Snapshot } from './request.js';

/** Whose send made a record: the request and which of its attempts. */
export interface DeskReference {
  requestId: string;
  attempt: number;
}

const SEPARATOR = ' · ';
/** The exchange's note limit is not shown: short enough that the reference survives and the line fits the approval message. */
export const EXCHANGE_NOTE_TEXT_MAX = 200;
/** At the very end of the note: a reference typed inside someone's text is not one. */
const REFERENCE = /(?:^|\s)desk ([A-Za-z0-9_-]{1,64})-([1-9]\d{0,5})$/;

/** "desk R6EYET-1". */
export function deskReferenceText(ref: DeskReference): string {
  return `desk ${ref.requestId}-${ref.attempt}`;
}

/** On one line, without bidi/zero-width characters and backticks, so the line approvers see as code is exactly what is sent. */
export function firstExchangeNote(note: string | null, requestId: string): string {
  const clean = (note ?? '')
    .replace(/[\p{Cf}]/gu, '')
    .replace(/`/g, "'")
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();
  const chars = Array.from(clean);
  const text =
    chars.length > EXCHANGE_NOTE_TEXT_MAX
      ? `${chars
          .slice(0, EXCHANGE_NOTE_TEXT_MAX - 1)
          .join('')
          .trimEnd()}…`
      : clean;
  const ref = deskReferenceText({ requestId, attempt: 1 });
  return text === '' ? ref : `${text}${SEPARATOR}${ref}`;
}

/** The frozen note with the reference of `attempt` (the frozen one is attempt 1's). */
export function exchangeNoteForAttempt(frozen: string, attempt: number): string {
  const ref = readDeskReference(frozen);
  if (ref === null) throw new Error('a frozen exchange note always ends with its desk reference');
  return frozen.slice(0, frozen.length - deskReferenceText(ref).length) + deskReferenceText({ ...ref, attempt });
}

/** The reference a note ends with, or null (no note, or a note that is not the bot's). */
export function readDeskReference(note: string | null | undefined): DeskReference | null {
  const m = REFERENCE.exec((note ?? '').trim());
  return m === null ? null : { requestId: m[1]!, attempt: Number(m[2]) };
}

/** The snapshot with its exchange note frozen (withdrawals only: trades and removals carry no note). */
export function withExchangeNote(snapshot: Snapshot, requestId: string): Snapshot {
  if (snapshot.kind !== 'crypto_withdrawal' && snapshot.kind !== 'fiat_withdrawal') return snapshot;
  return { ...snapshot, exchangeNote: firstExchangeNote(snapshot.note, requestId) };
}

/** A request made before notes were frozen sends what its approvers saw: crypto its requester's note, fiat none. */
export function exchangeNoteOf(snapshot: Snapshot, attempt: number): string | null {
  if (snapshot.kind === 'crypto_withdrawal' || snapshot.kind === 'fiat_withdrawal') {
    if (snapshot.exchangeNote !== undefined) return exchangeNoteForAttempt(snapshot.exchangeNote, attempt);
    return snapshot.kind === 'crypto_withdrawal' ? snapshot.note : null;
  }
  return null;
}
