/**
 * What a modal was filled with (entries, fees, balances, destinations), kept by view id while the
 * modal is open, so refreshes and the submit check need no exchange call before their ack. It is
 * in the shared KeyValueStore, not in this process: Slack may send the refresh and the submit of a
 * modal opened here to another replica (HTTP behind a load balancer, or another Socket Mode
 * connection), and that replica must check the submission against the same data.
 *
 * A read is one store lookup (the file store answers from memory; a database from one indexed
 * row), which fits before an ack. An entry older than MODAL_DATA_TTL_MS is not used (the form asks
 * to be opened again) and the Slack retention pruning drops it (shell/retention.ts).
 */
import type { Clock } from '../../ports/clock.js';
import type { KeyValueStore } from '../../ports/store.js';

export const MODAL_DATA_KEY_PREFIX = 'slack:modal:';
/** Longer than anyone keeps a form open; a modal's own lifetime in Slack is shorter still. */
export const MODAL_DATA_TTL_MS = 60 * 60_000;

/** What is stored under a modal's key: the data, and when it was read from the exchange. */
export interface StoredModalData<T> {
  data: T;
  at: number;
}

export function modalDataKey(viewId: string): string {
  return `${MODAL_DATA_KEY_PREFIX}${viewId}`;
}

export class ModalData<T> {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  /** Durable (and so visible to every replica) before it resolves: show the form only after it. */
  set(viewId: string, data: T): Promise<void> {
    return this.kv.set<StoredModalData<T>>(modalDataKey(viewId), { data, at: this.clock.now() });
  }

  async get(viewId: string | undefined): Promise<T | undefined> {
    if (!viewId) return undefined;
    const stored = await this.kv.get<StoredModalData<T>>(modalDataKey(viewId));
    if (stored === undefined || this.clock.now() - stored.at > MODAL_DATA_TTL_MS) return undefined;
    return stored.data;
  }

  delete(viewId: string): Promise<void> {
    return this.kv.set(modalDataKey(viewId), undefined);
  }
}
