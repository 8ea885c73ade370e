// The confirmation before settling an unknown outcome: what will happen, in the reference's terms, and
// what they checked on the exchange (required, audited, shown on the request).
import { CALLBACK, INPUT } from '../kit/slack-ids.js';
import { input, modal, section, textInput, type ModalView } from '../kit/blocks.js';
import { code } from '../kit/mrkdwn.js';

export const CHECKED_MAX = 1_000;

export type ConfirmedAction = 'send_again' | 'mark_not_sent' | 'mark_not_placed' | 'choose' | 'none_of_these';

const TEXT: Record<
  ConfirmedAction,
  { title: string; submit: string; what: (id: string, candidate?: string) => string }
> = {
  send_again: {
    title: 'Send again',
    submit: 'Send again',
    what: (id) =>
      `:warning: Request ${code(id, 40)} will be sent to the exchange *again*, as a new withdrawal of the same amount to the same destination. ` +
      'The exchange does not prevent duplicate withdrawals: if the first one exists after all, this pays twice. ' +
      "Send again only if the exchange's withdrawal history shows no withdrawal of this amount to this destination since it was first sent. " +
      'The bot looks on the exchange once more first: if anything that may be this withdrawal appeared, nothing is sent and you are asked again.',
  },
  mark_not_sent: {
    title: 'Mark as not sent',
    submit: 'Mark as not sent',
    what: (id) =>
      `Request ${code(id, 40)} will end as *failed*: nothing more is sent or looked for. If the withdrawal appears on the exchange later, it is not followed here. ` +
      'The bot looks on the exchange once more first: if anything that may be this withdrawal appeared, the request does not end and you are asked again.',
  },
  mark_not_placed: {
    title: 'Mark as not placed',
    submit: 'Mark as not placed',
    what: (id) =>
      `Request ${code(id, 40)} will end as *failed*: nothing more is ordered or looked for. If an order with its client order id appears on the exchange later, it is not followed here. ` +
      'The bot looks for the order by its client order id once more first: if it is there, it is followed instead and the request does not fail.',
  },
  choose: {
    title: 'This one is ours',
    submit: 'It is ours',
    what: (id, candidate) =>
      `The exchange's withdrawal ${code(candidate ?? '?', 80)} will be taken as request ${code(id, 40)}'s own and followed until it is final. Nothing is sent. ` +
      "The bot looks on the exchange once more first: if this request's own withdrawal or another that may be it appeared, it is not taken and you are asked again.",
  },
  none_of_these: {
    title: 'None of these',
    submit: 'None is ours',
    what: (id) =>
      `The withdrawals shown will never be taken as request ${code(id, 40)}'s own. The request then waits as "not found": you can send it again or mark it as not sent.`,
  },
};

export function settleModal(o: {
  requestId: string;
  action: ConfirmedAction;
  candidate?: string;
  privateMetadata: string;
}): ModalView {
  const t = TEXT[o.action];
  return modal(
    [
      section(t.what(o.requestId, o.candidate)),
      input(
        INPUT.settleChecked,
        'What did you check on the exchange?',
        textInput(INPUT.settleChecked, {
          multiline: true,
          maxLength: CHECKED_MAX,
          placeholder: 'e.g. No 100 USDT withdrawal to OTC partner in the history since 09:00',
        }),
        {
          hint: 'Kept in the audit log and shown on the request.',
        },
      ),
    ],
    { callbackId: CALLBACK.settle, title: t.title, submit: t.submit, privateMetadata: o.privateMetadata },
  );
}
