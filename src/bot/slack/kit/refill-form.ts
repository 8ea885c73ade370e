/**
 * A modal again, as it was submitted: each input gets its submitted value back, and notes (plain
 * text, escaped here) sit above the form and under the inputs at fault. Every form uses it when a
 * submission is refused after its ack (withdrawals, trades, counterparty declarations).
 */
import { context, section, type KnownBlock, type ModalView } from './blocks.js';
import { escapeMrkdwn } from './mrkdwn.js';
import { BLOCK } from './slack-ids.js';

type ElementState = {
  type?: string;
  value?: string | null;
  selected_option?: { value: string; text?: { text?: string } } | null;
};
/** view.state.values as Slack sends it. */
export type SubmittedValues = Record<string, Record<string, ElementState>>;

export interface RefillNotes {
  /** Shown above the form. */
  top?: string;
  /** Shown under the input, by block_id. */
  fields?: Record<string, string>;
}

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

function withValue(
  block: Extract<KnownBlock, { type: 'input' }>,
  state:
    | Record<string, { value?: string | null; selected_option?: { value: string; text?: { text?: string } } | null }>
    | undefined,
): KnownBlock {
  const element = block.element as unknown as Record<string, unknown>;
  const submitted = state?.[String(element.action_id)];
  if (!submitted) return block;
  if (element.type === 'plain_text_input' && submitted.value)
    return { ...block, element: { ...element, initial_value: submitted.value } } as KnownBlock;
  const chosen = submitted.selected_option;
  if (!chosen) return block;
  if (element.type === 'radio_buttons' || element.type === 'static_select') {
    const options = (element.options ?? []) as { value: string }[];
    const match = options.find((o) => o.value === chosen.value);
    return match ? ({ ...block, element: { ...element, initial_option: match } } as KnownBlock) : block;
  }
  if (element.type === 'external_select') {
    const text = chosen.text?.text ?? chosen.value;
    return {
      ...block,
      element: { ...element, initial_option: { text: { type: 'plain_text', text }, value: chosen.value } },
    } as KnownBlock;
  }
  return block;
}
