/**
 * Text that reaches Slack. User and exchange text goes into mrkdwn only through escapeMrkdwn, so
 * a note cannot ping a channel (`<!channel>`), mention someone or forge a link (`<http://x|y>`),
 * and into plain_text through cutPlain; both drop bidi controls and zero-width characters
 * (display-text.ts), so what a person reads is what is stored.
 */
import { LIMITS } from './limits.js';
import { labelParts, visibleText } from './display-text.js';

const ELLIPSIS = '…';
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Escape `&`, `<`, `>` for mrkdwn and cut to `max` characters of the escaped result, never in
 * the middle of an entity or a surrogate pair. A cut text ends with "…".
 * @example escapeMrkdwn('<!channel> pay me') // '&lt;!channel&gt; pay me'
 */
export function escapeMrkdwn(text: string, max: number = LIMITS.sectionText): string {
  return cutPieces(
    Array.from(visibleText(text), (ch) => ENTITY[ch] ?? ch),
    max,
  );
}

/** Cut plain text (plain_text objects need no escaping) to `max` characters, with "…". */
export function cutPlain(text: string, max: number): string {
  return cutPieces(Array.from(visibleText(text)), max);
}

function cutPieces(pieces: string[], max: number): string {
  let total = 0;
  for (const p of pieces) total += p.length;
  if (total <= max) return pieces.join('');
  let out = '';
  const room = max - ELLIPSIS.length;
  for (const p of pieces) {
    if (out.length + p.length > room) break;
    out += p;
  }
  return out + ELLIPSIS;
}

/** Inline code span for ids and addresses; backticks inside would end it, so they go. */
export function code(text: string, max = 200): string {
  return `\`${escapeMrkdwn(text.replace(/`/g, "'"), max)}\``;
}

/**
 * An address-book label or account name in mrkdwn: one line, as code so that it draws no bold or
 * heading of its own ("*Destination*" stays literal), then a warning when it mixes scripts.
 */
export function labelMrkdwn(label: string, max = 200): string {
  const { line, warning } = labelParts(label);
  return `${code(line, max)}${warning ? ` :warning: ${escapeMrkdwn(warning, 100)}` : ''}`;
}

/**
 * A mrkdwn link to an http(s) URL, or the escaped label alone when the URL is not one we can
 * embed safely (`|`, `<`, `>` or spaces would break out of the link syntax).
 */
export function link(url: string | null | undefined, label: string): string {
  const safeLabel = escapeMrkdwn(label.replace(/\|/g, '/'), 200);
  if (!url || !/^https?:\/\/[^\s<>|]+$/.test(url) || url.length > LIMITS.buttonUrl) return safeLabel;
  return `<${url.replace(/&/g, '&amp;')}|${safeLabel}>`;
}

/** A user mention from an id we trust (Slack ids only; anything else is shown as text). */
export function mention(userId: string): string {
  return /^[UW][A-Z0-9]{2,}$/.test(userId) ? `<@${userId}>` : escapeMrkdwn(userId, 40);
}

/** A channel link from an id we trust (Slack channel ids only; anything else is shown as text). */
export function channelMention(channelId: string): string {
  return /^[CG][A-Z0-9]{2,}$/.test(channelId) ? `<#${channelId}>` : escapeMrkdwn(channelId, 40);
}
