/** Errors of the PostgreSQL store that the file store has no need for. */
import { WriteOutcomeUnknownError } from '../../ports/store.js';

/** One line about a database failure: its code and message (node-postgres never puts the password in either). */
export function connectionProblem(err: unknown): string {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  return [typeof code === 'string' ? code : undefined, typeof message === 'string' ? message : String(err)].filter(Boolean).join(': ');
}

/**
 * The connection broke after COMMIT was sent: the transaction may or may not be stored. Nothing
 * was confirmed to the caller, so nothing acts on it; the next read shows which it was. The app
 * sees it as the port's WriteOutcomeUnknownError.
 */
export class CommitOutcomeUnknownError extends WriteOutcomeUnknownError {
  override name = 'CommitOutcomeUnknownError';

  constructor(cause: unknown) {
    super(`the connection to PostgreSQL broke while a change was being committed (${connectionProblem(cause)}): it may or may not be stored`, { cause });
  }
}
