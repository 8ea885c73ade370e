// An input block: its element labelled by the block's label, described by its field error then hint.
import { asElement } from './kit.js';
import { actionIdOf } from './state-values.js';
import { plainText } from './text.js';
import { elementId, useSurface } from './surface.js';
import { KitElementView } from './elements/element.js';
import type { BlockProps } from './props.js';

export function InputBlock({ block, blockId }: BlockProps) {
  const surface = useSurface();
  const element = asElement(block.element);
  const id = elementId(surface, 'input', blockId);
  const error = surface.errors[blockId];
  const hint = plainText(block.hint);
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`kit-input-block${error ? ' invalid' : ''}`}>
      <div class="input-label-row">
        <label id={`${id}-label`} for={`${id}-control`} class="input-label">
          {plainText(block.label)}
        </label>
        {block.optional === true && <span class="optional">(optional)</span>}
      </div>
      {element ? (
        <KitElementView
          element={element}
          blockId={blockId}
          actionId={actionIdOf(element, 0)}
          dispatch={block.dispatch_action === true}
          field={{ inputId: `${id}-control`, labelId: `${id}-label`, describedBy, invalid: Boolean(error) }}
        />
      ) : (
        <div class="undrawn" role="note">
          Not drawn here: an input without an element
        </div>
      )}
      {error && (
        <div id={`${id}-error`} class="field-error">
          {error}
        </div>
      )}
      {hint && (
        <div id={`${id}-hint`} class="hint">
          {hint}
        </div>
      )}
    </div>
  );
}
