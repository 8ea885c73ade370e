/**
 * One sentence of an error for logs, audit lines and operators: its name and message, or the value
 * itself. The one helper for it (never `err instanceof Error ? … : String(err)` inline).
 */
export function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
