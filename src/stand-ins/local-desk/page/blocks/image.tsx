/** An image block: the picture with its title. */
import { plainText } from './text.js';
import { ImageElement } from './elements/image.js';
import type { BlockProps } from './props.js';

export function ImageBlock({ block }: BlockProps) {
  return (
    <figure class="kit-image">
      {block.title !== undefined && <figcaption>{plainText(block.title)}</figcaption>}
      <ImageElement element={{ type: 'image', image_url: block.image_url, alt_text: block.alt_text }} />
    </figure>
  );
}
