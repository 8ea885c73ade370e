/**
 * The Web API clients the bot posts with outside a listener, built from configuration before the
 * Bolt app (the engine reports through them, and the app's listeners need the engine).
 */
import { webApi, type Logger as BoltLogger } from '@slack/bolt';
import type { Config } from '../../config/config.js';
import { guardSlackLogger } from './library-log.js';
import type { SlackTransport } from './slack-transport.js';

/**
 * The notifiers' client (requests and compliance): no hidden retries (Bolt's default waits up to
 * half an hour) and rate limits surfaced as errors, so the one Slack retry policy (slack-retry.ts)
 * and the durable outbox decide.
 */
export function notifierClient(
  config: Config,
  logger: BoltLogger,
  transport: SlackTransport,
): InstanceType<typeof webApi.WebClient> {
  return new webApi.WebClient(config.slack.botToken.reveal(), {
    slackApiUrl: config.slack.apiUrl,
    fetch: transport.fetch,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: 10_000,
    logger: guardSlackLogger(logger),
  });
}
