// The counterparty modal after an acked submission: "sending" and the outcome. Pure builders.
import type { DeclarationOutcome } from '../../engine/compliance/declare.js';
import { context, modal, section, type ModalView } from '../kit/blocks.js';
import { code, escapeMrkdwn, mention } from '../kit/mrkdwn.js';
import { slackDate } from '../kit/format.js';
import { CALLBACK } from '../kit/slack-ids.js';

const TITLE = 'Counterparty';

/** Shown at once on submit (the ack), replaced when the exchange has answered. */
export function sendingView(privateMetadata: string): ModalView {
  return modal(
    [
      section(':hourglass_flowing_sand: Sending the declaration to the exchange…'),
      context(['The answer appears here in a moment.']),
    ],
    {
      callbackId: CALLBACK.notice,
      title: TITLE,
      close: 'Close',
      privateMetadata,
    },
  );
}

/** The end of the flow: declared, or already declared; `undefined` for outcomes that show the form again. */
export function outcomeView(outcome: DeclarationOutcome): ModalView | undefined {
  const done = (lines: string[]) =>
    modal(
      lines.map((l) => section(l)),
      { callbackId: CALLBACK.notice, title: TITLE, close: 'Close' },
    );
  switch (outcome.kind) {
    case 'done': {
      const lines = [
        `:white_check_mark: Declared for transaction ${code(outcome.transactionId, 40)}. The exchange reviews it now; the deposit message and its thread follow the status.`,
      ];
      if (outcome.createsUnverifiedWallet)
        lines.push(
          ':warning: The typed wallet name created a new *unverified* wallet at the exchange, and a compliance review has started.',
        );
      if (outcome.confirmedLate)
        lines.push(
          ':information_source: An earlier submission whose answer was lost had already arrived; nothing was sent twice.',
        );
      return done(lines);
    }
    case 'already_declared': {
      const by =
        outcome.by && outcome.by !== 'exchange'
          ? ` It was declared by ${mention(outcome.by)}${outcome.at ? ` ${slackDate(outcome.at)}` : ''}.`
          : '';
      return done([`:information_source: ${escapeMrkdwn(outcome.message, 1_000)}${by}`]);
    }
    case 'refused':
      return done([`:no_entry_sign: ${escapeMrkdwn(outcome.message, 1_000)}`]);
    default:
      return undefined;
  }
}
