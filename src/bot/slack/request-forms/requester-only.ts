// Requesters only at every step, not just submit: someone removed from REQUESTER_USER_IDS with a form open
// must not go on loading balances or taking quotes.
import { REFUSAL_MESSAGES } from '../../domain/refusals.js';
import { noticeView } from '../kit/modal-views.js';
import type { SlackClient, SlackContext } from '../kit/slack-context.js';
import { errorText } from '../../domain/error-text.js';

/** False (and the form replaced by the refusal) when `userId` may not make requests. */
export async function stillRequester(
  ctx: SlackContext,
  client: SlackClient,
  view: { id: string; hash?: string },
  userId: string,
  title: string,
): Promise<boolean> {
  if (ctx.roles.isRequester(userId)) return true;
  try {
    await client.views.update({ view_id: view.id, view: noticeView(title, REFUSAL_MESSAGES.not_allowed_to_request) });
  } catch (err) {
    ctx.logger.info(`form of a non-requester not replaced: ${errorText(err)}`);
  }
  return false;
}
