/**
 * The outbox's backoff: Slack's own "retry after" is honoured (a rate limit that outlasted the
 * notifier's quick tries is not asked again before Slack said), and doubling applies otherwise.
 */
import { describe, expect, it } from 'vitest';
import { OutboxDelivery } from '../../../../src/bot/engine/notices/outbox-delivery.js';
import { LeadershipState } from '../../../../src/bot/ports/leadership.js';
import { memoryRepository } from '../../../../src/bot/store/memory.js';
import { isFinishedRequest, type RequestRecord } from '../../../../src/bot/domain/record.js';
import { depositKey, type ComplianceEvent } from '../../../../src/bot/ports/events.js';
import { SlackDeliveryError } from '../../../../src/bot/slack/kit/slack-retry.js';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const T0 = 1_700_000_000_000;

function setup(fail: () => Error) {
  const { outbox } = memoryRepository<RequestRecord>(isFinishedRequest);
  const notifier = { notify: () => Promise.reject(fail()) };
  const delivery = new OutboxDelivery(outbox, notifier, { now: () => T0 }, quiet, new LeadershipState('leader'));
  const event: ComplianceEvent = {
    type: 'declaration.done',
    requestId: depositKey('TX1'),
    at: T0,
    done: {
      transactionId: 'TX1',
      userId: 'U1',
      at: T0,
      entityType: 'individual',
      entityName: 'A',
      ownership: 'first_party',
      createsUnverifiedWallet: false,
      confirmedLate: false,
    },
  };
  return { outbox, delivery, event };
}

describe('outbox backoff', () => {
  it('waits at least as long as Slack asked when a rate limit outlasted the quick tries', async () => {
    const { outbox, delivery, event } = setup(
      () => new SlackDeliveryError('chat.postMessage', 'rate limited', false, 'C1', 30_000),
    );
    await outbox.append([event]);
    await delivery.kick();
    expect(await outbox.pending()).toMatchObject([
      { attempts: 1, nextAt: T0 + 30_000, lastError: 'SlackDeliveryError: chat.postMessage in C1: rate limited' },
    ]);
  });

  it('doubles from 1 s otherwise', async () => {
    const { outbox, delivery, event } = setup(() => new Error('socket hang up'));
    await outbox.append([event]);
    await delivery.kick();
    expect(await outbox.pending()).toMatchObject([{ attempts: 1, nextAt: T0 + 1_000 }]);
  });
});
