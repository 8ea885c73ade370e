/** Errors of the PostgreSQL store that the file store has no need for. */
import { WriteOutcomeUnknownError } from '../../ports/store.js';

/** One line about a database failure: its code and message (node-postgres never puts the password in either). */
export function connectionProblem(err: unknown): string {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  return [typeof code === 'string' ? code : undefined, typeof message === 'string' ? message : String(err)]
    .filter(Boolean)
    .join(': ');
}

/** The connection broke after COMMIT was sent: stored or not is unknown, nothing was confirmed, the next read tells. */
export class CommitOutcomeUnknownError extends WriteOutcomeUnknownError {
  override name = 'CommitOutcomeUnknownError';

  constructor(cause: unknown) {
    super(
      `the connection to PostgreSQL broke while a change was being committed (${connectionProblem(cause)}): it may or may not be stored`,
      { cause },
    );
  }
}
