// zod results in the one error model: a body that breaks its schema names the operation and the
// field's path (`[3].amount`), never the value.
import type { z } from 'zod';
import { ExchangeError, type ExchangeErrorKind } from '../ports/exchange-error.js';

/** `[3].amount`, `locked_balance.orders`, `errors[0]`; the empty path is `(body)`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(body)' : out;
}

/** `kind`: `invalid_response` for answers, `unprocessable` for our own request bodies. */
export function parseOrThrow<T>(
  schema: z.ZodType<T>,
  data: unknown,
  operation: string,
  kind: ExchangeErrorKind,
  status?: number,
): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = [...issue.path];
  // A strict object names the unexpected key in `keys`, not in the path.
  if (issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined) path.push(issue.keys[0]);
  const more = result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more)` : '';
  const fieldPath = formatPath(path);
  const detail = `${issue.message}${more}`;
  throw new ExchangeError({
    kind,
    operation,
    ...(status === undefined ? {} : { status }),
    // A request we refuse to send has no words from the exchange: say plainly why, for people.
    ...(kind === 'invalid_response' ? {} : { messages: [`Request not sent: ${fieldPath}: ${issue.message}`] }),
    fieldPath,
    detail,
  });
}
