// Writes a slow exchange took but has not committed (late_commit), committed when the clock reaches them
// whatever became of the caller, so a test shows what giving up, looking and resending would do.
import type { ApiRequest } from './api.js';

/** The sandbox-clock delay when a late_commit rule names none. */
export const DEFAULT_LATE_COMMIT_MS = 15_000;

export interface LateCommit {
  request: ApiRequest;
  account: string;
  /** Sandbox time the exchange took the write (its checks of a quote's expiry use this). */
  receivedAt: number;
  /** What the signature check's clock said on arrival: the timestamp is judged as it was then. */
  receivedAuthMs: number;
  dueAt: number;
  /** An order's client_order_id, refused as a duplicate from receipt on. */
  clientOrderId?: string;
  /** The drop_notes fault was on when the exchange took it: the record keeps no note. */
  dropNotes?: boolean;
}

/** `saved`: the writes an earlier run of the sandbox had taken and not committed yet. */
export function createLateCommits(saved: readonly LateCommit[] = []) {
  const pending: LateCommit[] = [...saved];
  return {
    /** Takes a write to commit `commitAfterMs` after `receivedAt`. */
    take(o: Omit<LateCommit, 'dueAt' | 'clientOrderId'> & { commitAfterMs: number }): LateCommit {
      const commit: LateCommit = {
        request: o.request,
        account: o.account,
        receivedAt: o.receivedAt,
        receivedAuthMs: o.receivedAuthMs,
        dueAt: o.receivedAt + o.commitAfterMs,
        ...(o.dropNotes ? { dropNotes: true } : {}),
      };
      const id = clientOrderIdOf(o.request.rawBody);
      if (id !== undefined) commit.clientOrderId = id;
      pending.push(commit);
      return commit;
    },
    /** Removes and returns the commits due at `now`, earliest first. */
    due(now: number): LateCommit[] {
      const ready = pending.filter((p) => p.dueAt <= now).sort((a, b) => a.dueAt - b.dueAt);
      for (const p of ready) pending.splice(pending.indexOf(p), 1);
      return ready;
    },
    /** Every write waiting, to save with the sandbox (persist.ts). */
    list(): LateCommit[] {
      return [...pending];
    },
    get size(): number {
      return pending.length;
    },
  };
}

function clientOrderIdOf(rawBody: Buffer): string | undefined {
  if (rawBody.length === 0) return undefined;
  try {
    const body = JSON.parse(rawBody.toString('utf8')) as { client_order_id?: unknown };
    return typeof body.client_order_id === 'string' ? body.client_order_id : undefined;
  } catch {
    return undefined;
  }
}
