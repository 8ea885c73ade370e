/** A section: its text, its fields in two columns, and its accessory on the right. */
import { asElement } from './kit.js';
import { actionIdOf } from './state-values.js';
import { KitText } from './text.js';
import { KitElementView } from './elements/element.js';
import type { BlockProps } from './props.js';
import { OtpauthQr } from './otpauth-qr.js';
import { otpauthIn } from './otpauth-uri.js';

export function SectionBlock({ block, blockId }: BlockProps) {
  const accessory = asElement(block.accessory);
  const fields: unknown[] = Array.isArray(block.fields) ? block.fields : [];
  const text = block.text as { text?: unknown } | undefined;
  const uri = typeof text?.text === 'string' ? otpauthIn(text.text) : undefined;
  return (
    <div class="kit-section">
      <div class="section-body">
        {block.text !== undefined && <KitText text={block.text} />}
        {uri !== undefined && <OtpauthQr uri={uri} />}
        {fields.length > 0 && (
          <div class="section-fields">
            {fields.map((f, i) => (
              <div class="section-field" key={i}>
                <KitText text={f} />
              </div>
            ))}
          </div>
        )}
      </div>
      {accessory && (
        <div class="section-accessory">
          <KitElementView element={accessory} blockId={blockId} actionId={actionIdOf(accessory, 0)} dispatch={true} />
        </div>
      )}
    </div>
  );
}
