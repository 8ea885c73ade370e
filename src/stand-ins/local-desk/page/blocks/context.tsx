/** A context block: small grey text and images in a row. */
import { asList, asText } from './kit.js';
import { KitText } from './text.js';
import { ImageElement } from './elements/image.js';
import { Undrawn } from './undrawn.js';
import type { BlockProps } from './props.js';

export function ContextBlock({ block }: BlockProps) {
  return (
    <div class="kit-context">
      {asList(block.elements).map((e, i) =>
        asText(e) ? (
          <span class="context-item" key={i}>
            <KitText text={e} />
          </span>
        ) : e.type === 'image' ? (
          <ImageElement key={i} element={e} small />
        ) : (
          <Undrawn key={i} type={e.type} />
        ),
      )}
    </div>
  );
}
