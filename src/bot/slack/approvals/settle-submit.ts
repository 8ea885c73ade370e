// Submitting a person's settlement: "what did you check" is required; a valid one is acked at once, then
// the engine decides whether it counts and the modal says so.
import type { Middleware, SlackViewMiddlewareArgs } from '@slack/bolt';
import type { Settlement } from '../../engine/execution/settlement.js';
import type { SettleMeta } from './settle-buttons.js';
import { noticeView } from '../kit/modal-views.js';
import { CHECKED_MAX } from './settle-modal.js';
import { refusalReply } from '../kit/refusal-text.js';
import { code } from '../kit/mrkdwn.js';
import type { SlackContext } from '../kit/slack-context.js';
import { INPUT } from '../kit/slack-ids.js';
import { fieldValue, readMetadata } from '../kit/view-state.js';
import { errorText } from '../../domain/error-text.js';

const TITLE = 'Decision';

/** A send again or mark as not sent the bot's look first did not allow, or whose look has not come back. */
const NOT_DONE = {
  withheld: (id: string) =>
    `:no_entry: Not done: looking on the exchange first, the bot found what may be request ${code(id, 40)}'s own record, or could not read the exchange. Its thread says which; decide again on the request message.`,
  pending: (id: string) =>
    `:hourglass_flowing_sand: Recorded. The bot is looking on the exchange for request ${code(id, 40)} first; it carries your decision out only if nothing that may be ours appeared. Follow it in its thread.`,
};

const DONE: Record<SettleMeta['a'], (id: string) => string> = {
  send_again: (id) => `:repeat: Request ${code(id, 40)} is being sent again. Follow it in its thread.`,
  mark_not_sent: (id) => `:heavy_multiplication_x: Request ${code(id, 40)} is marked as not sent and has ended.`,
  mark_not_placed: (id) => `:heavy_multiplication_x: Request ${code(id, 40)} is marked as not placed and has ended.`,
  choose: (id) =>
    `:white_check_mark: Taken as request ${code(id, 40)}'s withdrawal; its status is followed in the thread.`,
  none_of_these: (id) => `:mag: None of them is taken as request ${code(id, 40)}'s. It now waits as "not found".`,
};

export function settleSubmit(ctx: SlackContext): Middleware<SlackViewMiddlewareArgs> {
  return async ({ ack, body, view, client }) => {
    const checked = fieldValue(view.state.values, INPUT.settleChecked)?.trim() ?? '';
    if (checked.length < 3 || checked.length > CHECKED_MAX) {
      await ack({
        response_action: 'errors',
        errors: {
          [INPUT.settleChecked]: `Say in a few words what you checked on the exchange (at most ${CHECKED_MAX} characters).`,
        },
      });
      return;
    }
    const meta = readMetadata<SettleMeta>(view.private_metadata);
    const engine = ctx.deps.engine;
    if (!meta.r || !meta.a) {
      await ack({
        response_action: 'update',
        view: noticeView(TITLE, 'This form is out of date; use the buttons on the request again.', 'info'),
      });
      return;
    }
    // The question this form answered must still be the one open: a newer one needs a new look.
    const current = await engine.get(meta.r);
    const open = current?.state === 'unknown' ? current.execution?.inDoubt?.question : null;
    if (!open || open.askedAt !== meta.q) {
      await ack({
        response_action: 'update',
        view: noticeView(
          TITLE,
          'The request changed since this form was opened (it may have been found or decided). Nothing was done; look at the request message.',
          'info',
        ),
      });
      return;
    }
    await ack({
      response_action: 'update',
      view: noticeView(TITLE, `Recording your decision on request ${meta.r}…`, 'info'),
    });
    // The question's time goes too: the engine checks it again under the request's lock (a look may be under way).
    const answer = { checked, askedAt: meta.q };
    const decision: Settlement =
      meta.a === 'none_of_these'
        ? { action: 'choose', exchangeId: null, ...answer }
        : meta.a === 'choose'
          ? { action: 'choose', exchangeId: meta.x ?? '', ...answer }
          : { action: meta.a === 'mark_not_placed' ? 'mark_not_sent' : meta.a, ...answer };
    let text: string;
    try {
      const result = await engine.settle(meta.r, body.user.id, decision);
      text = !result.ok
        ? refusalReply(result.message)
        : result.outcome === 'carried_out'
          ? DONE[meta.a](meta.r)
          : NOT_DONE[result.outcome](meta.r);
    } catch (err) {
      ctx.logger.error(`decision failed: ${errorText(err)}`);
      text =
        ':warning: The decision could not be recorded because of an internal error. It has been logged; look at the request message before trying again.';
    }
    try {
      await client.views.update({
        view_id: view.id,
        view: { ...noticeView(TITLE, '', 'info'), blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] },
      });
    } catch (err) {
      ctx.logger.info(`decision modal not updated: ${errorText(err)}`);
    }
  };
}
