// A static_select as a native <select>, labelled by its input's label or its placeholder; the chosen
// option's description, which a native list cannot show, goes under it.
import { allOptions, asOptionGroups, asOptions, type KitOption } from '../kit.js';
import { actionPayload, actionTs, currentState, type ElementState } from '../state-values.js';
import { KitText, plainText } from '../text.js';
import { useSurface } from '../surface.js';
import { useAction } from '../use-action.js';
import type { ElementProps } from './props.js';

export function StaticSelect({ element, blockId, actionId, dispatch, field }: ElementProps) {
  const surface = useSurface();
  const { run } = useAction();
  const state = currentState({ blockId, actionId, element }, surface.entered);
  const chosen = state.selected_option ?? undefined;
  const placeholder = plainText(element.placeholder) || 'Choose an option';
  const onChange = (e: Event) => {
    const value = (e.currentTarget as HTMLSelectElement).value;
    const next: ElementState = {
      type: element.type,
      selected_option: allOptions(element).find((o) => o.value === value) ?? null,
    };
    surface.enter(blockId, actionId, next);
    surface.edited?.(blockId);
    if (dispatch) void run(actionPayload(element, blockId, actionId, actionTs(Date.now()), next));
  };
  return (
    <div class="kit-select">
      <select
        id={field?.inputId}
        aria-label={field ? undefined : placeholder}
        aria-describedby={field?.describedBy}
        aria-invalid={field?.invalid || undefined}
        value={chosen?.value ?? ''}
        onChange={onChange}
      >
        <option value="" disabled={chosen !== undefined}>
          {placeholder}
        </option>
        {asOptions(element.options).map(optionTag)}
        {asOptionGroups(element.option_groups).map((g) => (
          <optgroup key={plainText(g.label)} label={plainText(g.label)}>
            {g.options.map(optionTag)}
          </optgroup>
        ))}
      </select>
      {chosen?.description && (
        <div class="option-description">
          <KitText text={chosen.description} />
        </div>
      )}
    </div>
  );
}

function optionTag(o: KitOption) {
  return (
    <option key={o.value} value={o.value} title={plainText(o.description)}>
      {plainText(o.text)}
    </option>
  );
}
