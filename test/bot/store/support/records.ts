/** The record used by store tests (importable outside vitest, e.g. by a child process). */
import { z } from 'zod';

/** A small record with a state machine-ish field, enough to exercise live vs history. */
export const TestRecordSchema = z.object({
  id: z.string().min(1),
  state: z.enum(['pending', 'executing', 'completed', 'rejected']),
  count: z.number().int(),
  note: z.string().optional(),
});
export type TestRecord = z.infer<typeof TestRecordSchema>;

export const isFinished = (r: TestRecord): boolean => r.state === 'completed' || r.state === 'rejected';

/** Options for openRepository with the test schema. */
export function testRepoOptions(dir: string, warn?: (m: string) => void) {
  return { dir, name: 'requests', schema: TestRecordSchema, isFinished, version: 1, ...(warn ? { warn } : {}) };
}

/** A record value for `id`. */
export function rec(id: string, state: TestRecord['state'] = 'pending', count = 0): TestRecord {
  return { id, state, count };
}
