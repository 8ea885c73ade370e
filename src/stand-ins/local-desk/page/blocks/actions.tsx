/** An actions block: its elements in a row, each sending its action. */
import { asList } from './kit.js';
import { actionIdOf } from './state-values.js';
import { KitElementView } from './elements/element.js';
import type { BlockProps } from './props.js';

export function ActionsBlock({ block, blockId }: BlockProps) {
  return (
    <div class="kit-actions">
      {asList(block.elements).map((e, i) => (
        <KitElementView
          key={`${e.type}-${actionIdOf(e, i)}`}
          element={e}
          blockId={blockId}
          actionId={actionIdOf(e, i)}
          dispatch={true}
        />
      ))}
    </div>
  );
}
