/** How a failed exchange read is told to a person: the exchange's own words when it gave any. */
import { ExchangeError } from '../../ports/exchange-error.js';
import type { Logger } from '@slack/bolt';
import { escapeMrkdwn } from './mrkdwn.js';

/** ":warning: Could not read balances: The exchange did not answer in time." (mrkdwn, escaped) */
export function exchangeFailureText(what: string, err: unknown, logger: Logger): string {
  if (err instanceof ExchangeError) {
    logger.warn(`exchange read failed: ${err.operation} ${err.kind}${err.status ? ` ${err.status}` : ''}`);
    return `:warning: Could not read ${what}: ${escapeMrkdwn(err.userMessage, 1_000)}`;
  }
  // Not an exchange answer: a bug or an outage of ours. Say so without internals.
  logger.error(`reading ${what} failed: ${err instanceof Error ? err.name : typeof err}`);
  return `:warning: Could not read ${what} because of an internal error. It has been logged.`;
}
