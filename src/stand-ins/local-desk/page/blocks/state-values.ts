// What a surface's inputs hold, and `state.values` assembled exactly as Slack sends it. Pure: the page
// keeps the entries and asks here for payloads.
import type { StateValues } from '../../protocol.js';
import {
  allOptions,
  asBlocks,
  asElement,
  asList,
  asOption,
  asOptions,
  isRecord,
  type KitBlock,
  type KitElement,
  type KitOption,
} from './kit.js';

export interface ElementState {
  type: string;
  value?: string | null;
  selected_option?: KitOption | null;
  selected_options?: KitOption[];
}

/** What a person entered, by stateKey(block_id, action_id). */
export type Entered = ReadonlyMap<string, ElementState>;

export const stateKey = (blockId: string, actionId: string): string => `${blockId}\u0000${actionId}`;

/** Elements Slack keeps state for. */
const STATEFUL = new Set([
  'plain_text_input',
  'static_select',
  'external_select',
  'radio_buttons',
  'checkboxes',
  'multi_static_select',
  'multi_external_select',
]);

/** The bot's block_id, else one from the position (Slack makes a random one; position keeps it across updates). */
export const blockIdOf = (block: KitBlock, index: number): string =>
  typeof block.block_id === 'string' && block.block_id ? block.block_id : `auto-${index}`;

export const actionIdOf = (element: KitElement, index: number): string =>
  typeof element.action_id === 'string' && element.action_id ? element.action_id : `auto-${index}`;

export interface Placed {
  block: KitBlock;
  blockId: string;
  actionId: string;
  element: KitElement;
}

/** The stateful elements of a surface: input elements, section accessories, actions elements. */
export function statefulElements(blocks: unknown): Placed[] {
  return asBlocks(blocks).flatMap((block, i) => {
    const blockId = blockIdOf(block, i);
    const candidates =
      block.type === 'input' || block.type === 'section'
        ? [asElement(block.type === 'input' ? block.element : block.accessory)]
        : block.type === 'actions'
          ? asList(block.elements)
          : [];
    return candidates.flatMap((element, j) =>
      element && STATEFUL.has(element.type) ? [{ block, blockId, actionId: actionIdOf(element, j), element }] : [],
    );
  });
}

/** The state an element starts with: its initial_value / initial_option(s), else empty. */
export function initialState(element: KitElement): ElementState {
  switch (element.type) {
    case 'plain_text_input':
      return { type: element.type, value: typeof element.initial_value === 'string' ? element.initial_value : null };
    case 'checkboxes':
    case 'multi_static_select':
    case 'multi_external_select':
      return { type: element.type, selected_options: matching(element, asOptions(element.initial_options)) };
    default: {
      const initial = asOption(element.initial_option);
      return { type: element.type, selected_option: initial ? (matching(element, [initial])[0] ?? initial) : null };
    }
  }
}

/** Initial options as the element lists them (external selects list none: the initial one stands). */
function matching(element: KitElement, wanted: KitOption[]): KitOption[] {
  const known = allOptions(element);
  return wanted.map((w) => known.find((o) => o.value === w.value) ?? w);
}

/** What the element holds now: what was entered (if of the same type: a changed element starts over), else its initial state. */
export function currentState(placed: Pick<Placed, 'blockId' | 'actionId' | 'element'>, entered: Entered): ElementState {
  const typed = entered.get(stateKey(placed.blockId, placed.actionId));
  return typed && typed.type === placed.element.type ? typed : initialState(placed.element);
}

export function stateValues(blocks: unknown, entered: Entered): StateValues {
  const values: StateValues = {};
  for (const placed of statefulElements(blocks)) {
    (values[placed.blockId] ??= {})[placed.actionId] = { ...currentState(placed, entered) };
  }
  return values;
}

export function isEmpty(state: ElementState): boolean {
  if ('selected_options' in state) return (state.selected_options ?? []).length === 0;
  if ('selected_option' in state) return !state.selected_option;
  return state.value === null || state.value === undefined || state.value === '';
}

/** Slack's own words when a modal is submitted with a required field empty (it never sends the submission). */
export const REQUIRED_FIELD = 'Please complete this required field.';

/** What Slack's client refuses before sending: required inputs empty, texts under min_length. */
export function clientErrors(blocks: unknown, entered: Entered): Record<string, string> {
  const errors: Record<string, string> = {};
  asBlocks(blocks).forEach((block, i) => {
    if (block.type !== 'input') return;
    const element = asElement(block.element);
    if (!element || !STATEFUL.has(element.type)) return;
    const blockId = blockIdOf(block, i);
    const state = currentState({ blockId, actionId: actionIdOf(element, 0), element }, entered);
    if (isEmpty(state)) {
      if (block.optional !== true) errors[blockId] = REQUIRED_FIELD;
      return;
    }
    const min = typeof element.min_length === 'number' ? element.min_length : 0;
    if (typeof state.value === 'string' && state.value.length < min)
      errors[blockId] = `Please enter at least ${min} characters.`;
  });
  return errors;
}

/** The action object Slack sends for this element: type, ids, and the button's fields or the element's new state. */
export function actionPayload(
  element: KitElement,
  blockId: string,
  actionId: string,
  actionTs: string,
  state?: ElementState,
): Record<string, unknown> {
  const base: Record<string, unknown> = {
    type: element.type,
    block_id: blockId,
    action_id: actionId,
    action_ts: actionTs,
  };
  if (element.type === 'button') {
    return { ...base, text: element.text, ...pick(element, ['value', 'style', 'url']) };
  }
  const { type: _type, ...fields } = state ?? initialState(element);
  return { ...base, ...fields, ...(isRecord(element.placeholder) ? { placeholder: element.placeholder } : {}) };
}

function pick(element: KitElement, names: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of names) if (element[n] !== undefined) out[n] = element[n];
  return out;
}

/** Slack's action_ts: epoch seconds with microseconds. */
export const actionTs = (nowMs: number): string => (nowMs / 1000).toFixed(6);
