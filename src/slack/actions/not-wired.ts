/**
 * Buttons whose effect needs the approval engine (Approve, Reject, Cancel, Declare counterparty):
 * acknowledged, and the clicker is told plainly that nothing happened yet.
 */
import type { BlockAction, Middleware, SlackActionMiddlewareArgs } from '@slack/bolt';
import { notWiredText } from '../commands/not-wired.js';
import type { SlackContext } from '../context.js';

export function notWiredAction(what: string) {
  return (ctx: SlackContext): Middleware<SlackActionMiddlewareArgs<BlockAction>> =>
    async ({ ack, body, respond, client }) => {
      await ack();
      const text = notWiredText(what);
      if (body.response_url) {
        await respond({ response_type: 'ephemeral', replace_original: false, text });
      } else if (body.channel?.id) {
        await client.chat.postEphemeral({ channel: body.channel.id, user: body.user.id, text });
      } else {
        ctx.logger.info(`${what} clicked outside a message; not wired yet`);
      }
    };
}
