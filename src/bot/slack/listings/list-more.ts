/** The "More" button under a listing: the next records as a new ephemeral reply. */
import type { BlockButtonAction, Middleware, SlackActionMiddlewareArgs } from '@slack/bolt';
import { decodeMore } from './listing-lines.js';
import { refusalText } from '../kit/refusal-text.js';
import { postListPage } from './desk-command.js';
import type { SlackContext } from '../kit/slack-context.js';

export function listMoreAction(ctx: SlackContext): Middleware<SlackActionMiddlewareArgs<BlockButtonAction>> {
  return async ({ ack, body, action, respond }) => {
    await ack();
    if (!ctx.roles.isDeskMember(body.user.id)) {
      await respond({ response_type: 'ephemeral', replace_original: false, text: refusalText('not_desk_member') });
      return;
    }
    const cursor = decodeMore(action.value);
    if (!cursor) {
      await respond({
        response_type: 'ephemeral',
        replace_original: false,
        text: 'This button is out of date; run the command again.',
      });
      return;
    }
    await postListPage(ctx, respond, cursor.list, cursor.offset, cursor.arg);
  };
}
