/** Block Kit text objects: mrkdwn is parsed, plain_text is not (only its emoji, when `emoji` allows). */
import { Mrkdwn } from '../mrkdwn/render.js';
import { replaceShortcodes } from '../mrkdwn/emoji.js';
import { asText } from './kit.js';

export function KitText({ text }: { text: unknown }) {
  const t = asText(text);
  if (!t) return null;
  if (t.type === 'mrkdwn') return <Mrkdwn text={t.text} verbatim={t.verbatim === true} />;
  return <span class="plain">{plainText(text)}</span>;
}

/** The words of a plain_text object as Slack shows them (labels, buttons, options, titles). */
export function plainText(text: unknown): string {
  const t = asText(text);
  if (!t) return '';
  return t.type === 'plain_text' && t.emoji !== false ? replaceShortcodes(t.text) : t.text;
}
