/** The reject reason modal: a reason is required; the rejection itself goes to the engine once wired. */
import type { Middleware, SlackViewMiddlewareArgs } from '@slack/bolt';
import { noticeView } from '../blocks/modals/common.js';
import { notWiredText } from '../commands/not-wired.js';
import type { SlackContext } from '../context.js';
import { INPUT } from '../ids.js';
import { fieldValue, type StateValues } from '../view-state.js';

export function rejectSubmitView(_ctx: SlackContext): Middleware<SlackViewMiddlewareArgs> {
  return async ({ ack, view }) => {
    const reason = fieldValue(view.state.values as StateValues, INPUT.rejectReason)?.trim();
    if (!reason || reason.length < 3) {
      await ack({ response_action: 'errors', errors: { [INPUT.rejectReason]: 'Say in a few words why, for the requester and the channel.' } });
      return;
    }
    await ack({ response_action: 'update', view: noticeView('Reject request', notWiredText('Rejecting').replace(/^:construction: /, ''), 'info') });
  };
}
