import type { KitElement } from '../kit.js';

/** An image element (accessory or context): its alt text names it. */
export function ImageElement({ element, small }: { element: KitElement; small?: boolean }) {
  const url =
    typeof element.image_url === 'string' && /^https?:/i.test(element.image_url) ? element.image_url : undefined;
  const alt = typeof element.alt_text === 'string' ? element.alt_text : '';
  return url ? (
    <img class={small ? 'kit-image-small' : 'kit-image-el'} src={url} alt={alt} />
  ) : (
    <span class="image-missing">[image: {alt}]</span>
  );
}
