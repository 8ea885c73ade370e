// The reject reason modal: a reason is required. A valid one is acked with "rejecting…", then the engine
// decides whether it counts and the modal says so.
import type { Middleware, SlackViewMiddlewareArgs } from '@slack/bolt';
import { noticeView } from '../kit/modal-views.js';
import { refusalReply } from '../kit/refusal-text.js';
import type { SlackContext } from '../kit/slack-context.js';
import type { RejectMeta } from './reject-form.js';
import { INPUT } from '../kit/slack-ids.js';
import { fieldValue, readMetadata } from '../kit/view-state.js';
import { errorText } from '../../domain/error-text.js';

const TITLE = 'Reject request';

export function rejectSubmitView(ctx: SlackContext): Middleware<SlackViewMiddlewareArgs> {
  return async ({ ack, body, view, client }) => {
    const reason = fieldValue(view.state.values, INPUT.rejectReason)?.trim();
    if (!reason || reason.length < 3) {
      await ack({
        response_action: 'errors',
        errors: { [INPUT.rejectReason]: 'Say in a few words why, for the requester and the channel.' },
      });
      return;
    }
    const meta = readMetadata<RejectMeta>(view.private_metadata);
    const engine = ctx.deps.engine;
    if (!meta.r) {
      await ack({
        response_action: 'update',
        view: noticeView(TITLE, 'This form is out of date; use the Reject button again.', 'info'),
      });
      return;
    }
    await ack({ response_action: 'update', view: noticeView(TITLE, `Rejecting request ${meta.r}…`, 'info') });
    let text: string;
    try {
      const result = await engine.reject(meta.r, body.user.id, reason);
      text = result.ok
        ? `:no_entry: Request \`${result.request.id}\` is rejected. The requester is told why.`
        : refusalReply(result.message);
    } catch (err) {
      ctx.logger.error(`reject failed: ${errorText(err)}`);
      text =
        ':warning: The rejection could not be recorded because of an internal error. It has been logged; check the approval message.';
    }
    try {
      await client.views.update({ view_id: view.id, view: resultView(text) });
    } catch (err) {
      ctx.logger.info(`reject modal not updated: ${errorText(err)}`);
    }
  };
}

function resultView(mrkdwn: string) {
  const v = noticeView(TITLE, '', 'info');
  return { ...v, blocks: [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text: mrkdwn } }] };
}
