// The step-up reset notice on Slack: a DM to the person whose enrollment an admin removed, delivered
// from the durable outbox until Slack takes it (a security notice must not be dropped on one failure).
import type { StepUpResetEvent } from '../../ports/events.js';
import type { Logger } from '../../ports/logger.js';
import type { Notifier } from '../../ports/notifier.js';
import { message, section, withSandboxBanner, type MessagePayload } from '../kit/blocks.js';
import type { SlackClient } from '../kit/slack-context.js';
import { BLOCK } from '../kit/slack-ids.js';
import { mention } from '../kit/mrkdwn.js';
import {
  DEFAULT_SLACK_RETRY,
  RECIPIENT_REFUSALS,
  SlackDeliveryError,
  withSlackRetry,
  type SlackRetryOptions,
} from '../kit/slack-retry.js';

export interface StepUpNotifierOptions {
  client: { chat: Pick<SlackClient['chat'], 'postMessage'> };
  sandbox: boolean;
  logger: Logger;
  /** Tests: faster retries (slack-retry.ts). */
  retry?: Partial<SlackRetryOptions>;
}

/** What the person reads: who removed it, what to do if they did not ask, how to enroll again. */
export function resetNoticeText(event: Pick<StepUpResetEvent, 'by'>): MessagePayload {
  const text = `${mention(event.by)} removed your authenticator enrollment for Desk Bot approvals. If you did not ask for this, tell your security officer. Enroll again with \`/desk 2fa\`.`;
  return message(text, [section(text)]);
}

/** Slack errors are thrown (the outbox tries again), except a person Slack will never let us DM. */
export function createStepUpNotifier(o: StepUpNotifierOptions): Notifier<StepUpResetEvent> {
  const retry: SlackRetryOptions = { ...DEFAULT_SLACK_RETRY, ...o.retry };
  return {
    async notify(event) {
      const p = withSandboxBanner(resetNoticeText(event), o.sandbox, BLOCK.sandboxBanner);
      try {
        await withSlackRetry(
          'chat.postMessage (step_up.reset)',
          () => o.client.chat.postMessage({ channel: event.user, text: p.text, blocks: p.blocks, unfurl_links: false }),
          retry,
          o.logger,
          { user: event.user, event: event.type },
          `a DM to ${event.user}`,
        );
      } catch (err) {
        if (!(err instanceof SlackDeliveryError && RECIPIENT_REFUSALS.has(err.reason))) throw err;
        // Deactivated or gone: no retry makes Slack take it; the reset itself is in the audit.
        o.logger.error('the person whose step-up enrollment was reset cannot receive DMs; the notice is given up', {
          user: event.user,
          error: err.reason,
        });
      }
    },
  };
}
