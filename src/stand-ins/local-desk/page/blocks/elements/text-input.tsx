// plain_text_input, one line or multiline; with dispatch_action it sends its value on Enter (or as typed).
import { useEffect, useRef } from 'preact/hooks';
import { actionPayload, actionTs, currentState, type ElementState } from '../state-values.js';
import { isRecord } from '../kit.js';
import { plainText } from '../text.js';
import { useSurface } from '../surface.js';
import { useAction } from '../use-action.js';
import type { ElementProps } from './props.js';

const TYPING_DEBOUNCE_MS = 400;

export function TextInput({ element, blockId, actionId, dispatch, field }: ElementProps) {
  const surface = useSurface();
  const { run } = useAction();
  const state = currentState({ blockId, actionId, element }, surface.entered);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const triggers =
    isRecord(element.dispatch_action_config) && Array.isArray(element.dispatch_action_config.trigger_actions_on)
      ? element.dispatch_action_config.trigger_actions_on
      : ['on_enter_pressed'];
  const send = (value: string) => {
    const next: ElementState = { type: element.type, value };
    void run(actionPayload(element, blockId, actionId, actionTs(Date.now()), next));
  };
  const onInput = (e: Event) => {
    const value = (e.currentTarget as HTMLInputElement | HTMLTextAreaElement).value;
    surface.enter(blockId, actionId, { type: element.type, value });
    surface.edited?.(blockId);
    if (dispatch && triggers.includes('on_character_entered')) {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => send(value), TYPING_DEBOUNCE_MS);
    }
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' || element.multiline === true) return;
    e.preventDefault();
    if (dispatch && triggers.includes('on_enter_pressed')) send((e.currentTarget as HTMLInputElement).value);
  };
  const common = {
    id: field?.inputId,
    'aria-describedby': field?.describedBy,
    'aria-invalid': field?.invalid || undefined,
    placeholder: plainText(element.placeholder),
    value: state.value ?? '',
    maxLength: typeof element.max_length === 'number' ? element.max_length : undefined,
    onInput,
    onKeyDown,
  };
  return element.multiline === true ? (
    <textarea class="kit-input" rows={4} {...common} />
  ) : (
    <input class="kit-input" type="text" {...common} />
  );
}
