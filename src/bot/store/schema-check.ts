/** Turning a zod failure into one readable sentence for StoreCorruptError and refused writes. */
import type { z } from 'zod';

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Parses `value` with `schema`; on failure names up to three fields at fault. */
export function check<T>(schema: z.ZodType<T>, value: unknown): Checked<T> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
  const more = result.error.issues.length > 3 ? ` (and ${result.error.issues.length - 3} more)` : '';
  return { ok: false, problem: issues.join('; ') + more };
}
