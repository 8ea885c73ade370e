/**
 * Statuses are text from the exchange and arrive as `Completed` or `completed`: they are kept
 * verbatim for people and compared in one place, case-insensitively.
 */
export function normalizeStatus(status: string): string {
  return status.trim().toLowerCase();
}

export function sameStatus(a: string, b: string): boolean {
  return normalizeStatus(a) === normalizeStatus(b);
}
