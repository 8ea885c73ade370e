/**
 * Lists longer than a message, a view or a select can hold are cut, and a cut is always said:
 * how many were left out, and where to see them. One place for both, so no list is cut silently.
 */
import { cutMrkdwn, context, section, type KnownBlock } from './blocks.js';
import { LIMITS } from './limits.js';
import { moreNote } from './more-note.js';

export { moreNote };

/** Lines packed into as few section texts as Slack's limit allows (a line is never split). */
export function packLines(lines: readonly string[], max: number = LIMITS.sectionText): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const line of lines) {
    const l = cutMrkdwn(line, max);
    if (current && current.length + 1 + l.length > max) {
      chunks.push(current);
      current = '';
    }
    current = current ? `${current}\n${l}` : l;
  }
  if (current) chunks.push(current);
  return chunks;
}

/**
 * At most `max` lines as sections, then, when some were left out, a note saying how many and
 * `where` to see them (e.g. "`/desk status <id>` shows any one").
 */
export function linesWithMore(lines: readonly string[], max: number, where: string): KnownBlock[] {
  const shown = lines.slice(0, max);
  const blocks: KnownBlock[] = packLines(shown).map((chunk) => section(chunk));
  if (lines.length > shown.length) blocks.push(context([moreNote(lines.length - shown.length, where)]));
  return blocks;
}

/**
 * Items joined with ", " in at most `maxChars` characters and at most `maxItems` items; when some
 * are left out the text ends with how many: "BTC-SGD, ETH-SGD and 12 more".
 */
export function joinWithMore(items: readonly string[], maxChars: number, maxItems: number = items.length): string {
  const more = (left: number): string => (left === 0 ? '' : ` and ${left} more`);
  let shown = 0;
  let length = 0;
  for (const item of items.slice(0, maxItems)) {
    const next = length + (shown > 0 ? 2 : 0) + item.length;
    if (next + more(items.length - shown - 1).length > maxChars) break;
    length = next;
    shown += 1;
  }
  if (shown === 0 && items.length > 0) return `${items.length} (too long to list here)`;
  return items.slice(0, shown).join(', ') + more(items.length - shown);
}

/** The hint under a select that holds only the first options Slack allows; undefined when all fit. */
export function moreOptionsHint(total: number, what: string, where: string): string | undefined {
  if (total <= LIMITS.selectOptions) return undefined;
  return `Lists the first ${LIMITS.selectOptions} of ${total} ${what} (Slack shows at most ${LIMITS.selectOptions}); ${where}`;
}
