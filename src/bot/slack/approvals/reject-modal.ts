/** The reason an approver gives when rejecting; it is shown on the message and sent to the requester. */
import { CALLBACK, INPUT } from '../kit/slack-ids.js';
import { input, modal, section, textInput, type ModalView } from '../kit/blocks.js';
import { code, escapeMrkdwn } from '../kit/mrkdwn.js';

export const REJECT_REASON_MAX = 500;

export interface RejectReasonViewInput {
  requestId: string;
  /** e.g. "Crypto withdrawal · 1.5 BTC to Cold wallet"; optional. */
  summary?: string;
  privateMetadata: string;
}

export function rejectReasonView(v: RejectReasonViewInput): ModalView {
  return modal(
    [
      section(`Reject request ${code(v.requestId, 40)}${v.summary ? `: ${escapeMrkdwn(v.summary, 500)}` : ''}`),
      input(
        INPUT.rejectReason,
        'Reason',
        textInput(INPUT.rejectReason, {
          multiline: true,
          minLength: 3,
          maxLength: REJECT_REASON_MAX,
          placeholder: 'Why it should not go ahead',
        }),
        {
          hint: 'The requester and the approval channel see this.',
        },
      ),
    ],
    {
      callbackId: CALLBACK.rejectReason,
      title: 'Reject request',
      submit: 'Reject',
      privateMetadata: v.privateMetadata,
    },
  );
}
