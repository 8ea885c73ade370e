// What mutateInScope (ports/store.ts) reads of a record to tell whether a finished one is in scope.

/** A record's last change (epoch ms); a record without one is always in scope. */
export function updatedAtOf(record: object): number {
  const at = (record as { updatedAt?: unknown }).updatedAt;
  return typeof at === 'number' ? at : Number.POSITIVE_INFINITY;
}
