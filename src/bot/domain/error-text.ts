// One sentence of an error for logs, audit lines and operators; the one helper for it.
export function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
