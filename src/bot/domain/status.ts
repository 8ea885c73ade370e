// Exchange statuses arrive as `Completed` or `completed`: kept verbatim for people, compared here,
// case-insensitively.
export function normalizeStatus(status: string): string {
  return status.trim().toLowerCase();
}

export function sameStatus(a: string, b: string): boolean {
  return normalizeStatus(a) === normalizeStatus(b);
}
