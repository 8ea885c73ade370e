import { plainText } from './text.js';
import type { BlockProps } from './props.js';

/** A header block: plain text, large. */
export function HeaderBlock({ block }: BlockProps) {
  return <h3 class="kit-header">{plainText(block.text)}</h3>;
}
