/**
 * Delivers the durable outbox to the notifier: for each request, its oldest entry first and the
 * next only once that one is taken, so a request's messages keep their order; a failing request
 * does not hold up the others. A failure is tried again with backoff (1 s doubling to 5 min, never
 * sooner than an error's `retryAfterMs`); one
 * the notifier calls permanent (Slack refused: channel not found, bad token...) every 5 min, and
 * it shows in the delivery problems approvers see (request-reads.ts). Runs when something is appended (kick) and on the
 * engine's tick; a restart resumes from the outbox as stored.
 *
 * Only the leader delivers (ports/leadership.ts): one deliverer keeps each request's messages in
 * order and never posts one twice. A follower's own transitions write their events to the shared
 * outbox like any other; the leader delivers them on its next tick (or kick).
 */
import { errorText } from '../../domain/error-text.js';
import type { Clock } from '../../ports/clock.js';
import type { Leadership } from '../../ports/leadership.js';
import type { Logger } from '../../ports/logger.js';
import type { Notifier } from '../../ports/notifier.js';
import type { Outbox, OutboxEntry } from '../../ports/store.js';
import type { OutboxEvent } from '../../ports/events.js';

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 5 * 60_000;
/** A permanent refusal is not for ever: a channel can be created, a token reinstalled. */
const PERMANENT_RETRY_MS = 5 * 60_000;

export class OutboxDelivery {
  #running: Promise<void> | undefined;
  #again = false;
  /** The next pass tries every entry, due or not: a restart is often what fixed the cause. */
  #all = false;

  constructor(
    private readonly outbox: Outbox,
    private readonly notifier: Notifier<OutboxEvent>,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly logger: Logger,
    private readonly leadership: Leadership,
  ) {}

  /**
   * Delivers what is due now; overlapping calls share one pass, and a call during a pass runs
   * another after it. On a follower, nothing: the leader delivers.
   */
  kick(): Promise<void> {
    if (!this.leadership.isLeader()) return this.#running ?? Promise.resolve();
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#passes().finally(() => (this.#running = undefined));
    return this.#running;
  }

  /** On start: one pass over everything waiting, whatever its next try time. */
  resume(): Promise<void> {
    this.#all = true;
    return this.kick();
  }

  /** Resolves when no pass is running (what is due later stays for its time). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /** Entries Slack refused permanently, or that have failed for a minute or more. */
  async #passes(): Promise<void> {
    do {
      this.#again = false;
      try {
        await this.#pass();
      } catch (err) {
        // The store failed (closed, disk): nothing was lost, the next kick or tick tries again.
        this.logger.warn('outbox delivery stopped for now', { error: errorText(err) });
        return;
      }
    } while (this.#again);
  }

  async #pass(): Promise<void> {
    const all = this.#all;
    this.#all = false;
    const blocked = new Set<string>();
    for (const entry of await this.outbox.pending()) {
      // Leadership lost mid-pass: the new leader delivers the rest.
      if (!this.leadership.isLeader()) return;
      if (blocked.has(entry.requestId)) continue;
      // Later entries of the request wait for this one, due or not.
      blocked.add(entry.requestId);
      if (!all && entry.nextAt > this.clock.now()) continue;
      if (await this.#deliver(entry)) blocked.delete(entry.requestId);
    }
  }

  /** True when the notifier took the entry. */
  async #deliver(entry: OutboxEntry): Promise<boolean> {
    const done = [...entry.done];
    try {
      await this.notifier.notify(entry.event, {
        done,
        markDone: async (step) => {
          done.push(step);
          await this.outbox.update(entry.seq, { done: [...done] });
        },
      });
    } catch (err) {
      await this.#failed(entry, err);
      return false;
    }
    await this.outbox.remove(entry.seq);
    if (entry.failingSince !== null)
      this.logger.info('Slack took a message it had refused', {
        requestId: entry.requestId,
        event: entry.event.type,
        attempts: entry.attempts + 1,
      });
    return true;
  }

  async #failed(entry: OutboxEntry, err: unknown): Promise<void> {
    const now = this.clock.now();
    const attempts = entry.attempts + 1;
    const said = (typeof err === 'object' && err !== null ? err : {}) as {
      permanent?: unknown;
      retryAfterMs?: unknown;
    };
    const permanent = said.permanent === true;
    // Never sooner than the notifier was told to wait (Slack's Retry-After).
    const asked = typeof said.retryAfterMs === 'number' ? said.retryAfterMs : 0;
    const wait = permanent
      ? PERMANENT_RETRY_MS
      : Math.max(asked, Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (attempts - 1)));
    const error = errorText(err);
    await this.outbox.update(entry.seq, {
      attempts,
      nextAt: now + wait,
      lastError: error,
      permanent,
      failingSince: entry.failingSince ?? now,
    });
    const data = { requestId: entry.requestId, event: entry.event.type, error, attempts, retryInMs: wait };
    if (permanent)
      this.logger.error(
        'Slack refused a message for a reason that will not pass by itself; it is kept and tried again',
        data,
      );
    else this.logger.warn('a message did not reach Slack; it is kept and tried again', data);
  }
}
