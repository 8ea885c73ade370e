// The nudges on Slack: each reminder as a DM to every approver still awaited and to whoever
// approves in their place now (each DM a step of its own, never sent twice), the expiry warning
// in the request's thread. The record is read again at delivery: a request decided, expired or
// in a new round since the nudge gets nothing.
import { isExpired, type Policy } from '../../domain/policy.js';
import { activeDelegations } from '../../engine/delegation/delegations.js';
import { actingDelegatesOf } from '../../engine/approval/recount.js';
import type { RequestRecord } from '../../domain/record.js';
import { awaitsVerdict } from '../../domain/state-machine.js';
import { awaitedOf } from '../../engine/reminders/awaited.js';
import { reminderRuleFor } from '../../engine/reminders/reminder-plan.js';
import type { RequestReads } from '../../engine/request-reads.js';
import type { Clock } from '../../ports/clock.js';
import type { ReminderEvent } from '../../ports/events.js';
import type { Logger } from '../../ports/logger.js';
import type { DeliveryProgress, Notifier } from '../../ports/notifier.js';
import type { KeyValueStore } from '../../ports/store.js';
import { findApprovalMessage } from '../approvals/approval-notifier.js';
import { withSandboxBanner, type MessagePayload } from '../kit/blocks.js';
import type { SlackClient } from '../kit/slack-context.js';
import { BLOCK } from '../kit/slack-ids.js';
import {
  DEFAULT_SLACK_RETRY,
  RECIPIENT_REFUSALS,
  SlackDeliveryError,
  withSlackRetry,
  type SlackRetryOptions,
} from '../kit/slack-retry.js';
import { expiringPost, reminderDm } from './reminder-text.js';

export interface ReminderNotifierOptions {
  client: { chat: Pick<SlackClient['chat'], 'postMessage'> };
  kv: KeyValueStore;
  reads: Pick<RequestReads, 'get'>;
  policy: Policy;
  clock: Pick<Clock, 'now'>;
  sandbox: boolean;
  logger: Logger;
  retry?: Partial<SlackRetryOptions>;
}

export function createReminderNotifier(o: ReminderNotifierOptions): Notifier<ReminderEvent> {
  const retry: SlackRetryOptions = { ...DEFAULT_SLACK_RETRY, ...o.retry };

  async function post(
    event: ReminderEvent,
    where: string,
    args: { channel: string; thread_ts?: string },
    payload: MessagePayload,
  ) {
    const p = withSandboxBanner(payload, o.sandbox, BLOCK.sandboxBanner);
    await withSlackRetry(
      `chat.postMessage (${event.type})`,
      () =>
        o.client.chat.postMessage({
          ...args,
          text: p.text,
          blocks: p.blocks,
          unfurl_links: false,
          unfurl_media: false,
        }),
      retry,
      o.logger,
      { requestId: event.requestId, event: event.type },
      where,
    );
  }

  /** An approver who cannot receive DMs is skipped (logged): the channel message still asks them. */
  async function remind(event: ReminderEvent & { type: 'approval.reminder' }, request: RequestRecord, userId: string) {
    const max = reminderRuleFor(o.policy, request).max;
    try {
      await post(
        event,
        `a DM to ${userId}`,
        { channel: userId },
        reminderDm(request, { n: event.n, max }, o.clock.now()),
      );
    } catch (err) {
      if (!(err instanceof SlackDeliveryError && RECIPIENT_REFUSALS.has(err.reason))) throw err;
      o.logger.error('an approver cannot receive DMs from the bot; this reminder to them is given up', {
        requestId: event.requestId,
        user: userId,
        error: err.reason,
      });
    }
  }

  return {
    async notify(event, progress) {
      const request = await o.reads.get(event.requestId);
      if (!stillWaits(request, event.round, o.clock.now())) return;
      const awaited = awaitedOf(o.policy, request);
      const step = stepper(progress);
      const actingDelegates = actingDelegatesOf(
        o.policy,
        request,
        await activeDelegations(o),
        o.clock.now(),
        awaited.approvers,
      );
      if (event.type === 'approval.reminder') {
        for (const userId of new Set([...awaited.approvers, ...actingDelegates.map((s) => s.delegate)]))
          await step(`dm:${userId}`, () => remind(event, request, userId));
        return;
      }
      await step('thread', async () => {
        const ref = await findApprovalMessage(o.kv, event.requestId);
        if (ref === undefined) throw new Error('no approval message to post under yet');
        await post(
          event,
          ref.channel,
          { channel: ref.channel, thread_ts: ref.ts },
          expiringPost(request, awaited, actingDelegates, o.clock.now()),
        );
      });
    },
  };
}

/** Delegates whose click would count for one of `awaited` now (domain/delegation.ts decides). */

function stillWaits(request: RequestRecord | undefined, round: number, now: number): request is RequestRecord {
  return request !== undefined && awaitsVerdict(request.state) && request.round === round && !isExpired(request, now);
}

/** Runs a named step unless the outbox says it was delivered, and records it once it is. */
function stepper(progress: DeliveryProgress | undefined) {
  const done = new Set(progress?.done ?? []);
  return async (name: string, fn: () => Promise<void>) => {
    if (done.has(name)) return;
    await fn();
    done.add(name);
    await progress?.markDone(name);
  };
}
