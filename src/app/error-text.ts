/** One sentence of an error for logs and audit lines: its name and message, or the value itself. */
export function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
