/**
 * Events on their way to the durable outbox. A use case whose change carries its events writes
 * them with the change (Mutation.outbox) and then `kick`s delivery; the others `push` an event
 * just after their write, appended in order. Either way the engine never waits for Slack: a slow
 * chat API must never delay an order.
 */
import type { NoticeEvent, OutboxEvent, RequestEvent } from '../../ports/events.js';
import { OutboxDelivery } from './outbox-delivery.js';
import type { Clock } from '../../ports/clock.js';
import type { Leadership } from '../../ports/leadership.js';
import type { Logger } from '../../ports/logger.js';
import type { Notifier } from '../../ports/notifier.js';
import type { Outbox } from '../../ports/store.js';

export class NoticeQueue {
  #appended: Promise<void> = Promise.resolve();
  readonly delivery: OutboxDelivery;

  constructor(
    private readonly outbox: Outbox,
    notifier: Notifier<OutboxEvent>,
    clock: Pick<Clock, 'now'>,
    private readonly logger: Logger,
    leadership: Leadership,
  ) {
    this.delivery = new OutboxDelivery(outbox, notifier, clock, logger, leadership);
  }

  /** Appends `event` to the outbox after those pushed before it, then delivers. */
  push(event: RequestEvent): void {
    this.#appended = this.#appended
      .then(() => this.outbox.append([event]))
      .catch((err: unknown) =>
        this.logger.error('event not written to the outbox; the message is refreshed from the record later', {
          type: event.type,
          requestId: event.requestId,
          error: String(err),
        }),
      )
      .then(() => void this.delivery.kick());
  }

  /**
   * Notices about no request (compliance's deposit watch and declarations, a step-up reset): in the
   * outbox once this resolves (a failed write rejects, so the caller keeps them), then delivered
   * like the requests' events.
   */
  async append(events: NoticeEvent[]): Promise<void> {
    const appended = this.#appended.then(() => this.outbox.append(events));
    this.#appended = appended.then(
      () => void this.delivery.kick(),
      () => undefined,
    );
    await appended;
  }

  /** Delivers what is due (after a change that wrote its own events). */
  kick(): void {
    void this.delivery.kick();
  }

  /** Resolves once everything pushed so far is in the outbox and a delivery pass has run. */
  async drained(): Promise<void> {
    await this.#appended;
    await this.delivery.kick();
    await this.delivery.idle();
  }
}
