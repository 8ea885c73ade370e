/** One interactive element, by type; a type the page does not know is shown as such. */
import type { FunctionComponent } from 'preact';
import { Undrawn } from '../undrawn.js';
import { KitButton } from './button.js';
import { Checkboxes, RadioButtons } from './choices.js';
import { ExternalSelect } from './external-select.js';
import { Overflow } from './overflow.js';
import { StaticSelect } from './static-select.js';
import { TextInput } from './text-input.js';
import { ImageElement } from './image.js';
import type { ElementProps } from './props.js';

const DRAW: Record<string, FunctionComponent<ElementProps>> = {
  button: KitButton,
  static_select: StaticSelect,
  external_select: ExternalSelect,
  overflow: Overflow,
  radio_buttons: RadioButtons,
  checkboxes: Checkboxes,
  plain_text_input: TextInput,
  image: ({ element }) => <ImageElement element={element} />,
};

export function KitElementView(props: ElementProps) {
  const Draw = DRAW[props.element.type];
  return Draw ? <Draw {...props} /> : <Undrawn type={props.element.type} />;
}
