import { plainText } from './text.js';
import type { BlockProps } from './props.js';

export function HeaderBlock({ block }: BlockProps) {
  return <h3 class="kit-header">{plainText(block.text)}</h3>;
}
