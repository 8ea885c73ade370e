/**
 * The modal's states after a submission was acknowledged: "sending", the outcome, or the form
 * again as it was filled in with the exchange's objection on the field at fault. Pure builders.
 */
import type { DeclarationOutcome } from '../../app/compliance/declare.js';
import { context, modal, section, type KnownBlock, type ModalView } from '../kit/blocks.js';
import { code, escapeMrkdwn, mention } from '../kit/mrkdwn.js';
import { slackDate } from '../kit/format.js';
import { BLOCK, CALLBACK } from '../kit/slack-ids.js';
import type { SubmittedValues } from './form-fields.js';

const TITLE = 'Counterparty';

/** Shown at once on submit (the ack), replaced when the exchange has answered. */
export function sendingView(privateMetadata: string): ModalView {
  return modal([section(':hourglass_flowing_sand: Sending the declaration to the exchange…'), context(['The answer appears here in a moment.'])], {
    callbackId: CALLBACK.notice,
    title: TITLE,
    close: 'Close',
    privateMetadata,
  });
}

/** The end of the flow: declared, or already declared; `undefined` for outcomes that show the form again. */
export function outcomeView(outcome: DeclarationOutcome): ModalView | undefined {
  const done = (lines: string[]) => modal(lines.map((l) => section(l)), { callbackId: CALLBACK.notice, title: TITLE, close: 'Close' });
  switch (outcome.kind) {
    case 'done': {
      const lines = [
        `:white_check_mark: Declared for transaction ${code(outcome.transactionId, 40)}. The exchange reviews it now; the deposit message and its thread follow the status.`,
      ];
      if (outcome.createsUnverifiedWallet) lines.push(':warning: The typed wallet name created a new *unverified* wallet at the exchange, and a compliance review has started.');
      if (outcome.confirmedLate) lines.push(':information_source: An earlier submission whose answer was lost had already arrived; nothing was sent twice.');
      return done(lines);
    }
    case 'already_declared': {
      const by = outcome.by && outcome.by !== 'exchange' ? ` It was declared by ${mention(outcome.by)}${outcome.at ? ` ${slackDate(outcome.at)}` : ''}.` : '';
      return done([`:information_source: ${escapeMrkdwn(outcome.message, 1_000)}${by}`]);
    }
    case 'refused':
      return done([`:no_entry_sign: ${escapeMrkdwn(outcome.message, 1_000)}`]);
    default:
      return undefined;
  }
}

export interface RefillNotes {
  /** Shown above the form. */
  top?: string;
  /** Shown under the input, by block_id. */
  fields?: Record<string, string>;
}

/**
 * The form again, as it was submitted: each input gets its submitted value back, and the notes
 * (plain text, escaped here) sit above the form and under the inputs at fault.
 */
export function refillForm(view: ModalView, values: SubmittedValues | undefined, notes: RefillNotes): ModalView {
  const blocks: KnownBlock[] = [];
  const source = view.blocks as KnownBlock[];
  const firstAfterBanner = source[0]?.block_id === BLOCK.sandboxBanner ? 1 : 0;
  source.forEach((block, i) => {
    if (i === firstAfterBanner && notes.top) blocks.push(section(`:warning: ${escapeMrkdwn(notes.top, 2_000)}`));
    blocks.push(block.type === 'input' && block.block_id ? withValue(block, values?.[block.block_id]) : block);
    const note = block.block_id ? notes.fields?.[block.block_id] : undefined;
    if (note) blocks.push(context([`:warning: ${escapeMrkdwn(note, 1_000)}`]));
  });
  return { ...view, blocks };
}

function withValue(block: Extract<KnownBlock, { type: 'input' }>, state: Record<string, { value?: string | null; selected_option?: { value: string; text?: { text?: string } } | null }> | undefined): KnownBlock {
  const element = block.element as unknown as Record<string, unknown>;
  const submitted = state?.[String(element.action_id)];
  if (!submitted) return block;
  if (element.type === 'plain_text_input' && submitted.value) return { ...block, element: { ...element, initial_value: submitted.value } } as KnownBlock;
  const chosen = submitted.selected_option;
  if (!chosen) return block;
  if (element.type === 'radio_buttons' || element.type === 'static_select') {
    const options = (element.options ?? []) as { value: string }[];
    const match = options.find((o) => o.value === chosen.value);
    return match ? ({ ...block, element: { ...element, initial_option: match } } as KnownBlock) : block;
  }
  if (element.type === 'external_select') {
    const text = chosen.text?.text ?? chosen.value;
    return { ...block, element: { ...element, initial_option: { text: { type: 'plain_text', text }, value: chosen.value } } } as KnownBlock;
  }
  return block;
}
