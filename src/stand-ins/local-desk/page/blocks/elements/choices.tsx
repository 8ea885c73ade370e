// radio_buttons and checkboxes as native inputs named by their option text, described by its description.
import { asOptions, type KitOption } from '../kit.js';
import { actionPayload, actionTs, currentState, type ElementState } from '../state-values.js';
import { KitText } from '../text.js';
import { elementId, useSurface } from '../surface.js';
import { useAction } from '../use-action.js';
import type { ElementProps } from './props.js';

export function RadioButtons(props: ElementProps) {
  return <Choices {...props} multiple={false} />;
}

export function Checkboxes(props: ElementProps) {
  return <Choices {...props} multiple={true} />;
}

function Choices({ element, blockId, actionId, dispatch, field, multiple }: ElementProps & { multiple: boolean }) {
  const surface = useSurface();
  const { run } = useAction();
  const state = currentState({ blockId, actionId, element }, surface.entered);
  const name = elementId(surface, blockId, actionId);
  const picked = (o: KitOption) =>
    multiple
      ? (state.selected_options ?? []).some((s) => s.value === o.value)
      : state.selected_option?.value === o.value;
  const toggle = (o: KitOption, on: boolean) => {
    const next: ElementState = multiple
      ? {
          type: element.type,
          selected_options: asOptions(element.options).filter((x) => (x.value === o.value ? on : picked(x))),
        }
      : { type: element.type, selected_option: o };
    surface.enter(blockId, actionId, next);
    surface.edited?.(blockId);
    if (dispatch) void run(actionPayload(element, blockId, actionId, actionTs(Date.now()), next));
  };
  return (
    <div
      role={multiple ? 'group' : 'radiogroup'}
      class="kit-choices"
      aria-labelledby={field?.labelId}
      aria-describedby={field?.describedBy}
      aria-invalid={field?.invalid || undefined}
    >
      {asOptions(element.options).map((o, i) => {
        const id = `${name}-${i}`;
        return (
          <div class="choice" key={o.value ?? i}>
            <input
              id={id}
              type={multiple ? 'checkbox' : 'radio'}
              name={name}
              checked={picked(o)}
              aria-labelledby={`${id}-text`}
              aria-describedby={o.description ? `${id}-desc` : undefined}
              onChange={(e) => toggle(o, e.currentTarget.checked)}
            />
            <label for={id}>
              <span id={`${id}-text`} class="choice-text">
                <KitText text={o.text} />
              </span>
              {o.description && (
                <span id={`${id}-desc`} class="choice-description">
                  <KitText text={o.description} />
                </span>
              )}
            </label>
          </div>
        );
      })}
    </div>
  );
}
