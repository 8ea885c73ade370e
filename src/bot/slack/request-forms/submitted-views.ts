/** The modal states after a request form is accepted by its checks: sending, sent, already sent. */
import { CALLBACK } from '../kit/slack-ids.js';
import { context, modal, section, type ModalView } from '../kit/blocks.js';
import { KIND_LABEL, type RequestKind } from '../approvals/request-view.js';
import { channelMention, code, escapeMrkdwn } from '../kit/mrkdwn.js';

/** The ack of a valid submission: shown while the engine reads the exchange and freezes the request. */
export function sendingView(title: string): ModalView {
  return modal(
    [
      section(':hourglass_flowing_sand: Checking with the exchange and asking for approval…'),
      context(['The answer appears here in a moment.']),
    ],
    {
      callbackId: CALLBACK.notice,
      title,
      close: 'Close',
    },
  );
}

/** The request exists and waits for approvals in the approval channel. */
export function sentView(title: string, kind: RequestKind, requestId: string, channel: string): ModalView {
  return modal(
    [
      section(
        `:white_check_mark: ${KIND_LABEL[kind]} ${code(requestId, 40)} is waiting for approval in ${channelMention(channel)}.`,
      ),
      context([
        'You get a direct message when it is decided. Use `/desk status ' +
          escapeMrkdwn(requestId, 40) +
          '` to check it.',
      ]),
    ],
    { callbackId: CALLBACK.notice, title, close: 'Close' },
  );
}

/** This form was submitted before: never a second request from one form. */
export function alreadySentView(title: string, requestId: string | undefined): ModalView {
  const text = requestId
    ? `:information_source: This form was already submitted: request ${code(requestId, 40)}. Nothing new was created.`
    : ':information_source: This form was already submitted; nothing new was created. Check the approval channel, and open the command again if no request appears there.';
  return modal([section(text)], { callbackId: CALLBACK.notice, title, close: 'Close' });
}
