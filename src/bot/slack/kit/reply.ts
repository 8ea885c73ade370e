/**
 * Answering the one person who clicked: ephemeral in the channel of the message (its
 * response_url, or chat.postEphemeral), or a direct message for a click in App Home, which has
 * no channel to answer in.
 */
import type { RespondFn } from '@slack/bolt';
import type { SlackClient, SlackContext } from './slack-context.js';
import { errorText } from '../../domain/error-text.js';

export interface ClickOrigin {
  body: { user: { id: string }; response_url?: string; channel?: { id: string } | undefined };
  respond: RespondFn;
  client: SlackClient;
}

/** Tell the clicker `text` (mrkdwn, already escaped); a failure is logged, never thrown. */
export async function replyToClicker(ctx: SlackContext, origin: ClickOrigin, text: string): Promise<void> {
  const { body, respond, client } = origin;
  try {
    if (body.response_url) await respond({ response_type: 'ephemeral', replace_original: false, text });
    else if (body.channel?.id) await client.chat.postEphemeral({ channel: body.channel.id, user: body.user.id, text });
    else await client.chat.postMessage({ channel: body.user.id, text });
  } catch (err) {
    ctx.logger.warn(`answer to ${body.user.id} not delivered: ${errorText(err)}`);
  }
}

/** The sentence for an unexpected failure of a command: nothing internal is shown. */
export const INTERNAL_ERROR_TEXT =
  ':warning: That could not be done because of an internal error. It has been logged; check the approval channel before trying again.';
